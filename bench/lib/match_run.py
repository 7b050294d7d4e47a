"""Runs ../shared/tools/match.py and reads its summary line; shared by gauntlet.py and calibrate_elo.py."""
import os, re, subprocess, sys

from paths import MATCH

SUMMARY = re.compile(r'A vs B: \+(\d+) =(\d+) -(\d+)\s+score ([\d.]+)\s+Elo (\S+) \[(\S+), (\S+)\]\s+'
                     r'illegal (\d+) crashes (\d+) time-losses (\d+)')


def run_match(match_args, log_path):
    """Plays a match (`match_args` are match.py's own flags), keeps its output in `log_path`, and
    returns the summary fields (w, d, l, score, elo, low, high, illegal, crashes, time losses) as
    strings, or None when the match failed: the runner exited with a non-zero status (its
    summary, if it printed one, is then not trusted) or printed no summary. The log ends with
    the exit status either way."""
    if not os.path.exists(MATCH):
        sys.exit(f'the match runner {MATCH} is not there: it is not part of the repository; '
                 'name it with THREEFOLD_MATCH (README, "Benchmarks and matches")')
    proc = subprocess.run([sys.executable, MATCH] + match_args,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(log_path, 'w') as log:
        log.write(proc.stdout)
        log.write(f'\n[match runner exit status {proc.returncode}]\n')
    if proc.returncode != 0:
        print(f'match runner failed with exit status {proc.returncode}; see {log_path}', file=sys.stderr)
        return None
    m = SUMMARY.search(proc.stdout)
    return m.groups() if m else None

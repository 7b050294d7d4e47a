"""fastchess, the match runner of the scripts that play matches: where it is, its UCI compliance
check, and one match played with it.

fastchess (https://github.com/Disservin/fastchess) is not in the repository. Build it from its
public source (`git clone https://github.com/Disservin/fastchess && cd fastchess && make -j2`,
or `make build=release` for a static binary), then put it on PATH, or name the binary with the
environment variable FASTCHESS or a script's --fastchess PATH.

A match plays openings in pairs (each with both colours), writes every game to a PGN file
(`Termination` tags name time forfeits, illegal moves and crashes: `measure/pgn_report.py`
reads them) and keeps fastchess's own output in a log beside it. Crashed engines are restarted
(`-recover`), so a crash costs one game, not the match."""
import collections, os, shutil, subprocess, sys

BUILD = ('build it from its public source: git clone https://github.com/Disservin/fastchess && '
         'cd fastchess && make -j2 (or make build=release for a static binary)')

# A player of a match: its name in the PGN, its command, its UCI options as 'Name=Value'.
Player = collections.namedtuple('Player', 'name cmd options')


def find(explicit=None):
    """The fastchess binary: `explicit` (a script's --fastchess), else the FASTCHESS environment
    variable, else `fastchess` on PATH. Exits with how to build it when there is none."""
    named, source = (explicit, '--fastchess') if explicit else (os.environ.get('FASTCHESS'), 'FASTCHESS')
    if named:
        path = shutil.which(named)
        if path is None:
            sys.exit(f'fastchess: {named} (from {source}) is not an executable file; {BUILD}')
        return path
    path = shutil.which('fastchess')
    if path is None:
        sys.exit(f'fastchess is not on PATH and neither FASTCHESS nor --fastchess names it; {BUILD}, '
                 'then put the binary on PATH or set FASTCHESS=/path/to/fastchess')
    return path


def require_compliance(runner, engine, log_path):
    """Runs `fastchess --compliance` on `engine` (start, isready, id, go with each clock, info
    lines and their format...) and keeps its output in `log_path`; exits when a step failed."""
    proc = subprocess.run([runner, '--compliance', engine], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    with open(log_path, 'w') as log:
        log.write(proc.stdout)
        log.write(f'\n[fastchess --compliance exit status {proc.returncode}]\n')
    if proc.returncode != 0:
        sys.exit(f'{engine} failed fastchess --compliance; see {log_path}')
    print('UCI compliance (fastchess --compliance): every step passed', flush=True)


def play(runner, first, second, *, games, tc, book, concurrency, seed, pgn_path, log_path,
         nodes=None):
    """Plays `games` games (rounded up to whole pairs) between the Players `first` and `second` at
    time control `tc` (seconds+increment), or at `nodes` nodes a move and no clock when `nodes`
    is given, from random openings of the EPD file `book` (`seed` picks them), `concurrency` at a
    time. The games go to `pgn_path` (overwritten), fastchess's
    output to `log_path`, its state for a resume (`fastchess -config file=...`) beside the PGN.
    Returns True when fastchess finished the match, False when it failed or stopped early
    (the log ends with its exit status either way)."""
    if not os.path.isfile(book):
        sys.exit(f'the openings {book} are not there: name a file with THREEFOLD_BOOK '
                 '(docs/benchmarks.md)')
    cmd = [runner]
    for player in (first, second):
        cmd += ['-engine', f'cmd={player.cmd}', f'name={player.name}']
        cmd += [f'option.{option}' for option in player.options]
    limit = f'nodes={nodes}' if nodes else f'tc={tc}'
    cmd += ['-each', 'proto=uci', limit,
            '-rounds', str((games + 1) // 2), '-repeat',
            '-openings', f'file={book}', 'format=epd', 'order=random', '-srand', str(seed),
            '-concurrency', str(concurrency), '-recover',
            '-pgnout', f'file={pgn_path}', 'append=false',
            '-config', f'outname={os.path.splitext(pgn_path)[0]}.json']
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(log_path, 'w') as log:
        log.write(' '.join(cmd) + '\n\n')
        log.write(proc.stdout)
        log.write(f'\n[fastchess exit status {proc.returncode}]\n')
    if proc.returncode != 0 or 'Tournament was interrupted' in proc.stdout:
        print(f'fastchess failed (exit status {proc.returncode}); see {log_path}', file=sys.stderr)
        return False
    return True

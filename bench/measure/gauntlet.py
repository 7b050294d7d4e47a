#!/usr/bin/env python3
"""Play Threefold against reference engines with ../shared/tools/match.py and print a table.

  python3 bench/measure/gauntlet.py [--engine target/release/threefold] [--games 100] [--tc 10+0.1]
                                    [--only glaurung,sf1800] [--out bench/out/gauntlet.md]

Each opponent is a name from OPPONENTS below. The table has one row per opponent: games,
wins/draws/losses of Threefold, score, Elo with its 95% interval, and the illegal moves,
crashes and time losses counted by match.py. Needs `pip install chess` and the Debian
packages stockfish, glaurung, toga2, ethereal-chess (they land in /usr/games).
"""
import argparse, os, sys

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from match_run import run_match
from paths import BOOK, ENGINE, OUT

OPPONENTS = {
    'glaurung': ('/usr/games/glaurung', ['Threads=1', 'OwnBook=false']),
    'toga2': ('/usr/games/toga2', ['Number of Threads=1', 'OwnBook=false']),
    'ethereal': ('/usr/games/ethereal-chess', ['Threads=1']),
    'sf1800': ('/usr/games/stockfish', ['Threads=1', 'UCI_LimitStrength=true', 'UCI_Elo=1800']),
    'sf2400': ('/usr/games/stockfish', ['Threads=1', 'UCI_LimitStrength=true', 'UCI_Elo=2400']),
    'sf2850': ('/usr/games/stockfish', ['Threads=1', 'UCI_LimitStrength=true', 'UCI_Elo=2850']),
}


def play(engine, name, games, tc, concurrency, out_dir):
    cmd, opts = OPPONENTS[name]
    args = ['--a', engine, '--b', cmd, '--games', str(games), '--tc', tc,
            '--book', BOOK, '--concurrency', str(concurrency),
            '--pgn', os.path.join(out_dir, f'{name}.pgn')]
    for o in opts:
        args += ['--b-opt', o]
    log_path = os.path.join(out_dir, f'{name}.log')
    summary = run_match(args, log_path)
    if summary is None:
        return f'| {name} | match failed, see {log_path} |'
    w, d, l, score, elo, lo, hi, ill, cr, tl = summary
    n = int(w) + int(d) + int(l)
    return f'| {name} | {n} | {w}/{d}/{l} | {score} | {elo} [{lo}, {hi}] | {ill} | {cr} | {tl} |'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--engine', default=ENGINE)
    ap.add_argument('--games', type=int, default=100)
    ap.add_argument('--tc', default='10+0.1')
    ap.add_argument('--concurrency', type=int, default=2)
    ap.add_argument('--only', default='glaurung,sf1800')
    ap.add_argument('--out', default=os.path.join(OUT, 'gauntlet.md'),
                    help='the table file; a directory gets gauntlet.md inside it (PGNs and logs '
                         'go beside the table)')
    a = ap.parse_args()
    if os.path.isdir(a.out) or a.out.endswith(os.sep):
        a.out = os.path.join(a.out, 'gauntlet.md')
    names = a.only.split(',')
    unknown = [n for n in names if n not in OPPONENTS]
    if unknown:
        ap.error(f'unknown opponent {", ".join(unknown)}; known: {", ".join(OPPONENTS)}')
    out_dir = os.path.dirname(os.path.abspath(a.out))
    os.makedirs(out_dir, exist_ok=True)
    rows = ['| opponent | games | W/D/L | score | Elo [95%] | illegal | crashes | time losses |',
            '|---|---|---|---|---|---|---|---|']
    for name in names:
        rows.append(play(os.path.abspath(a.engine), name, a.games, a.tc, a.concurrency, out_dir))
        print(rows[-1], flush=True)
        # Rewritten after every opponent, so a run cut short keeps the rows it finished.
        write_table(a.out, a.tc, rows)
    print('\n'.join(rows))


def write_table(path, tc, rows):
    with open(path, 'w') as f:
        f.write(f'Threefold gauntlet, tc {tc}, book 2moves_v1\n\n' + '\n'.join(rows) + '\n')


if __name__ == '__main__':
    main()

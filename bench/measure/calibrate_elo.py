#!/usr/bin/env python3
"""Calibrate `UCI_LimitStrength`/`UCI_Elo` against Stockfish's own `UCI_Elo` ladder.

  python3 bench/measure/calibrate_elo.py [--engine target/release/threefold] [--targets 1320,1600,2000]
                                         [--games 60] [--tc 5+0.05] [--out bench/out/calibration.md]

For each target Elo T, Threefold at `UCI_Elo` T plays Stockfish at `UCI_Elo` T (both with
`UCI_LimitStrength=true`, one thread) with ../shared/tools/match.py. The measured Elo is
T plus the Elo difference the match gives, with its 95% interval. A target outside Stockfish's
own `UCI_Elo` range (1350..2850 for Debian's Stockfish 15.1, read from the engine) is played
against the nearest end of it; with --sf-elo S, Stockfish plays every match at S.
Stockfish's ladder is its own calibration (against CCRL-rated engines, at longer time
controls); at this time control its levels may be off by some tens of Elo, so the table is
"Elo on Stockfish's scale at this time control". Needs `pip install chess` and
/usr/games/stockfish.
"""
import argparse, os, sys

import chess.engine

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from match_run import run_match
from paths import BOOK, ENGINE, OUT

STOCKFISH = '/usr/games/stockfish'


def stockfish_elo_range():
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    try:
        option = engine.options['UCI_Elo']
        return option.min, option.max
    finally:
        engine.quit()


def elo_value(text):
    return float(text.replace('+', ''))


def calibrate(engine, target, sf_elo, games, tc, concurrency, out_dir):
    args = ['--a', engine, '--b', STOCKFISH, '--games', str(games),
            '--tc', tc, '--book', BOOK, '--concurrency', str(concurrency),
            '--a-opt', 'UCI_LimitStrength=true', '--a-opt', f'UCI_Elo={target}',
            '--b-opt', 'Threads=1', '--b-opt', 'Hash=16',
            '--b-opt', 'UCI_LimitStrength=true', '--b-opt', f'UCI_Elo={sf_elo}',
            '--pgn', os.path.join(out_dir, f'calibration-{target}.pgn')]
    summary = run_match(args, os.path.join(out_dir, f'calibration-{target}.log'))
    if summary is None:
        return f'| {target} | {sf_elo} | match failed, see calibration-{target}.log |'
    w, d, l, score, diff, lo, hi, ill, cr, tl = summary
    n = int(w) + int(d) + int(l)
    measured = sf_elo + elo_value(diff)
    low, high = sf_elo + elo_value(lo), sf_elo + elo_value(hi)
    return (f'| {target} | {sf_elo} | {n} | {w}/{d}/{l} | {score} | {diff} | '
            f'{measured:.0f} [{low:.0f}, {high:.0f}] | {ill}/{cr}/{tl} |')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--engine', default=ENGINE)
    ap.add_argument('--targets', default='1320,1600,1900,2200')
    ap.add_argument('--sf-elo', type=int, help='Stockfish UCI_Elo for every match (default: the target)')
    ap.add_argument('--games', type=int, default=60)
    ap.add_argument('--tc', default='5+0.05')
    ap.add_argument('--concurrency', type=int, default=2)
    ap.add_argument('--out', default=os.path.join(OUT, 'calibration.md'))
    a = ap.parse_args()
    out_dir = os.path.dirname(os.path.abspath(a.out))
    os.makedirs(out_dir, exist_ok=True)
    rows = ['| Threefold UCI_Elo | Stockfish UCI_Elo | games | W/D/L | score | Elo diff [95%] | '
            'measured Elo [95%] | illegal/crash/time |',
            '|---|---|---|---|---|---|---|---|']
    print('\n'.join(rows), flush=True)
    low, high = stockfish_elo_range()
    for target in [int(t) for t in a.targets.split(',')]:
        sf_elo = a.sf_elo or min(max(target, low), high)
        rows.append(calibrate(os.path.abspath(a.engine), target, sf_elo, a.games, a.tc,
                              a.concurrency, out_dir))
        print(rows[-1], flush=True)
    with open(a.out, 'w') as f:
        f.write(f'UCI_Elo calibration, tc {a.tc}, book 2moves_v1\n\n' + '\n'.join(rows) + '\n')


if __name__ == '__main__':
    main()

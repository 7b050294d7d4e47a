#!/usr/bin/env python3
"""Calibrate `UCI_LimitStrength`/`UCI_Elo` against Stockfish's own `UCI_Elo` ladder.

  python3 bench/measure/calibrate_elo.py [--engine target/release/threefold] [--targets 1320,1600,2000]
                                         [--games 60] [--tc 5+0.05] [--out bench/out/calibration.md]
                                         [--concurrency 2] [--seed 1] [--fastchess PATH]

First fastchess checks the engine's UCI compliance (`fastchess --compliance`; the run stops if a
step fails). Then for each target Elo T, Threefold at `UCI_Elo` T plays Stockfish at `UCI_Elo` T
(both with `UCI_LimitStrength=true`, one thread) with fastchess, from random openings of the
book (bench/lib/paths.py). The measured Elo is T plus the Elo difference the match gives, with
its 95% interval, read from the match's PGN by bench/measure/pgn_report.py with the games lost
by an illegal move, a crash and on time (by either player); the PGNs and fastchess's logs go
beside the table. A target outside Stockfish's
own `UCI_Elo` range (1350..2850 for Debian's Stockfish 15.1, read from the engine) is played
against the nearest end of it; with --sf-elo S, Stockfish plays every match at S.
Stockfish's ladder is its own calibration (against CCRL-rated engines, at longer time
controls); at this time control its levels may be off by some tens of Elo, so the table is
"Elo on Stockfish's scale at this time control". Needs fastchess (bench/lib/fastchess.py says
how to build it), `pip install chess` and /usr/games/stockfish.
"""
import argparse, os, sys

import chess.engine

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import fastchess
from paths import BOOK, ENGINE, OUT
from pgn_report import elo_interval, match_summary

STOCKFISH = '/usr/games/stockfish'


def stockfish_elo_range():
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    try:
        option = engine.options['UCI_Elo']
        return option.min, option.max
    finally:
        engine.quit()


def calibrate(runner, engine, target, sf_elo, a, out_dir):
    pgn_path = os.path.join(out_dir, f'calibration-{target}.pgn')
    log_path = os.path.join(out_dir, f'calibration-{target}.log')
    threefold = fastchess.Player('Threefold', engine, ['UCI_LimitStrength=true', f'UCI_Elo={target}'])
    stockfish = fastchess.Player('Stockfish', STOCKFISH, ['Threads=1', 'Hash=16',
                                                          'UCI_LimitStrength=true', f'UCI_Elo={sf_elo}'])
    finished = fastchess.play(runner, threefold, stockfish, games=a.games, tc=a.tc, book=BOOK,
                              concurrency=a.concurrency, seed=a.seed, pgn_path=pgn_path,
                              log_path=log_path)
    if not finished:
        return f'| {target} | {sf_elo} | match failed, see {log_path} |'
    w, d, l, failed = match_summary(pgn_path, 'Threefold')
    n = w + d + l
    if n == 0:
        return f'| {target} | {sf_elo} | no finished game in {pgn_path}, see {log_path} |'
    diff, low, high = elo_interval(w, d, l)
    events = f'{failed["illegal move"]}/{failed["crash"]}/{failed["time loss"]}'
    if diff is None:
        return f'| {target} | {sf_elo} | {n} | {w}/{d}/{l} | {(w + d / 2) / n:.3f} | n/a | n/a | {events} |'
    low = f'{sf_elo + low:.0f}' if low is not None else '-inf'
    high = f'{sf_elo + high:.0f}' if high is not None else '+inf'
    return (f'| {target} | {sf_elo} | {n} | {w}/{d}/{l} | {(w + d / 2) / n:.3f} | {diff:+.0f} | '
            f'{sf_elo + diff:.0f} [{low}, {high}] | {events} |')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--engine', default=ENGINE)
    ap.add_argument('--targets', default='1320,1600,1900,2200')
    ap.add_argument('--sf-elo', type=int, help='Stockfish UCI_Elo for every match (default: the target)')
    ap.add_argument('--games', type=int, default=60)
    ap.add_argument('--tc', default='5+0.05')
    ap.add_argument('--concurrency', type=int, default=2)
    ap.add_argument('--seed', type=int, default=1, help='picks the openings')
    ap.add_argument('--fastchess', help='the fastchess binary (default: $FASTCHESS, else fastchess on PATH)')
    ap.add_argument('--out', default=os.path.join(OUT, 'calibration.md'))
    a = ap.parse_args()
    runner = fastchess.find(a.fastchess)
    engine = os.path.abspath(a.engine)
    out_dir = os.path.dirname(os.path.abspath(a.out))
    os.makedirs(out_dir, exist_ok=True)
    fastchess.require_compliance(runner, engine, os.path.join(out_dir, 'compliance.log'))
    rows = ['| Threefold UCI_Elo | Stockfish UCI_Elo | games | W/D/L | score | Elo diff [95%] | '
            'measured Elo [95%] | illegal/crash/time |',
            '|---|---|---|---|---|---|---|---|']
    print('\n'.join(rows), flush=True)
    low, high = stockfish_elo_range()
    for target in [int(t) for t in a.targets.split(',')]:
        sf_elo = a.sf_elo or min(max(target, low), high)
        rows.append(calibrate(runner, engine, target, sf_elo, a, out_dir))
        print(rows[-1], flush=True)
    with open(a.out, 'w') as f:
        f.write(f'UCI_Elo calibration, tc {a.tc}, book {os.path.basename(BOOK)}\n\n' + '\n'.join(rows) + '\n')


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Play Threefold against reference engines with fastchess and print a table.

  python3 bench/measure/gauntlet.py [--engine target/release/threefold] [--games 100] [--tc 10+0.1]
                                    [--only glaurung,sf1800] [--out bench/out/gauntlet.md]
                                    [--concurrency 2] [--seed 1] [--fastchess PATH]

First fastchess checks the engine's UCI compliance (`fastchess --compliance`; the run stops if a
step fails). Then each opponent, a name from OPPONENTS below, plays one match: games in pairs
from random openings of the book (bench/lib/paths.py), one thread each. The table has one row
per opponent: games, wins/draws/losses of Threefold, score, Elo with its 95% interval, and the
games lost by an illegal move, a crash and on time (by either player), read from the match's
PGN by bench/measure/pgn_report.py; the PGNs and fastchess's logs go beside the table. Needs
fastchess (bench/lib/fastchess.py says how to build it), `pip install chess`, and the Debian
packages stockfish, glaurung, toga2, ethereal-chess (they land in /usr/games).
"""
import argparse, os, sys

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import fastchess
from paths import BOOK, ENGINE, OUT
from pgn_report import elo_text, match_summary

OPPONENTS = {
    'glaurung': ('/usr/games/glaurung', ['Threads=1', 'OwnBook=false']),
    'toga2': ('/usr/games/toga2', ['Number of Threads=1', 'OwnBook=false']),
    'ethereal': ('/usr/games/ethereal-chess', ['Threads=1']),
    'sf1800': ('/usr/games/stockfish', ['Threads=1', 'UCI_LimitStrength=true', 'UCI_Elo=1800']),
    'sf2400': ('/usr/games/stockfish', ['Threads=1', 'UCI_LimitStrength=true', 'UCI_Elo=2400']),
    'sf2850': ('/usr/games/stockfish', ['Threads=1', 'UCI_LimitStrength=true', 'UCI_Elo=2850']),
}


def play(runner, engine, name, a, out_dir):
    cmd, opts = OPPONENTS[name]
    pgn_path = os.path.join(out_dir, f'{name}.pgn')
    log_path = os.path.join(out_dir, f'{name}.log')
    finished = fastchess.play(runner, fastchess.Player('Threefold', engine, []),
                              fastchess.Player(name, cmd, opts), games=a.games, tc=a.tc, book=BOOK,
                              concurrency=a.concurrency, seed=a.seed, pgn_path=pgn_path,
                              log_path=log_path)
    if not finished:
        return f'| {name} | match failed, see {log_path} |'
    w, d, l, failed = match_summary(pgn_path, 'Threefold')
    n = w + d + l
    if n == 0:
        return f'| {name} | no finished game in {pgn_path}, see {log_path} |'
    return (f'| {name} | {n} | {w}/{d}/{l} | {(w + d / 2) / n:.3f} | {elo_text(w, d, l)} | '
            f'{failed["illegal move"]} | {failed["crash"]} | {failed["time loss"]} |')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--engine', default=ENGINE)
    ap.add_argument('--games', type=int, default=100, help='games per opponent (rounded up to pairs)')
    ap.add_argument('--tc', default='10+0.1')
    ap.add_argument('--concurrency', type=int, default=2)
    ap.add_argument('--seed', type=int, default=1, help='picks the openings')
    ap.add_argument('--only', default='glaurung,sf1800')
    ap.add_argument('--fastchess', help='the fastchess binary (default: $FASTCHESS, else fastchess on PATH)')
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
    runner = fastchess.find(a.fastchess)
    engine = os.path.abspath(a.engine)
    out_dir = os.path.dirname(os.path.abspath(a.out))
    os.makedirs(out_dir, exist_ok=True)
    fastchess.require_compliance(runner, engine, os.path.join(out_dir, 'compliance.log'))
    rows = ['| opponent | games | W/D/L | score | Elo [95%] | illegal | crashes | time losses |',
            '|---|---|---|---|---|---|---|---|']
    for name in names:
        rows.append(play(runner, engine, name, a, out_dir))
        print(rows[-1], flush=True)
        # Rewritten after every opponent, so a run cut short keeps the rows it finished.
        write_table(a.out, a.tc, rows)
    print('\n'.join(rows))


def write_table(path, tc, rows):
    with open(path, 'w') as f:
        f.write(f'Threefold gauntlet, tc {tc}, book {os.path.basename(BOOK)}\n\n' + '\n'.join(rows) + '\n')


if __name__ == '__main__':
    main()

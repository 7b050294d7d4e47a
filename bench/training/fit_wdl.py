#!/usr/bin/env python3
"""Fits the score-to-win-rate model behind `UCI_ShowWDL` on Threefold's own games.

  python3 bench/training/fit_wdl.py [--engine target/release/threefold] [--games 300] [--nodes 4000]
                                    [--data bench/out/wdl_positions.csv]
  python3 bench/training/fit_wdl.py --from-datagen DIR [--every 5] [--offset 0] [--evaluate A0 A1 B0 B1]

1. Self-play: --games games from the match openings (bench/lib/paths.py: THREEFOLD_BOOK), each move a
   fixed-node search (`go nodes N`, so a run is reproducible); every position's score (side to
   move's view, mates and |cp| > 1500 left out) and material are saved with the game's result.
2. Fit: P(win) = 1 / (1 + exp((a - cp) / b)), P(loss) = 1 / (1 + exp((a + cp) / b)),
   P(draw) = 1 - P(win) - P(loss), with a = a0 + a1 * m and b = b0 + b1 * m, where m is the
   material on the board (pawn 1, knight and bishop 3, rook 5, queen 9; clamped to 17..78),
   by maximum likelihood (Nelder-Mead).
3. Prints the four constants for src/uci/wdl.rs and the model's fit per score bucket.

With --data pointing to an existing file, step 1 is skipped. With --from-datagen, step 1 reads
the self-play games of `threefold datagen` files instead (`threefold datagen --dump`: every
position's search score and the game's result; the same filters), keeping every --every-th
position from the --offset-th (the fit is plain Python: about 80,000 positions take some ten
minutes). --evaluate skips the fit and prints how well the given constants predict the rows:
with another --offset, a held-out check of a new fit against the constants in use. Match games
with the engines' scores in their comments (fastchess, cutechess-cli) become datagen files with
`threefold datagen --from-pgn games.pgn --out games.tfd`: the constants in use were fitted on
5+0.05 self-play games that way, and checked with --evaluate on other games of the same kind.
Needs `pip install chess`.
"""
import argparse, csv, math, os, random, sys

import chess, chess.engine

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from datagen_dump import dump_rows
from paths import BOOK, ENGINE, OUT

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def material(board):
    m = sum(VALUES[p.piece_type] for p in board.piece_map().values() if p.piece_type in VALUES)
    return min(max(m, 17), 78)


def read_datagen(engine_path, directory, every, offset=0):
    """Rows (cp, material, result) from datagen files, side to move's view, every `every`-th
    position from the `offset`-th (mates and |cp| > 1500 left out, as in self-play)."""
    rows = []
    for fen, _move, cp, white_result in dump_rows(engine_path, directory, every, offset):
        if abs(cp) > 1500:
            continue
        result = {1.0: 1, 0.5: 0, 0.0: -1}[white_result]
        if fen.split()[1] == 'b':
            cp, result = -cp, -result
        rows.append((cp, material(chess.Board(fen)), result))
    return rows


def play_games(engine_path, games, nodes, book, seed, out_path):
    rnd = random.Random(seed)
    fens = [' '.join(l.split()[:4]) + ' 0 1' for l in open(book) if len(l.split()) >= 4]
    engine = chess.engine.SimpleEngine.popen_uci(engine_path)
    rows = []
    for g in range(games):
        board = chess.Board(rnd.choice(fens))
        seen = []
        while not board.is_game_over(claim_draw=True) and board.ply() < 400:
            result = engine.play(board, chess.engine.Limit(nodes=nodes), info=chess.engine.INFO_SCORE,
                                 game=g)
            score = result.info.get('score')
            if score is not None and not score.is_mate():
                cp = score.relative.score()
                if abs(cp) <= 1500:
                    seen.append((board.turn, cp, material(board)))
            board.push(result.move)
        outcome = board.outcome(claim_draw=True)
        winner = outcome.winner if outcome else None
        for turn, cp, mat in seen:
            res = 0 if winner is None else (1 if winner == turn else -1)
            rows.append((cp, mat, res))
        if (g + 1) % 50 == 0:
            print(f'{g + 1} games, {len(rows)} positions', file=sys.stderr, flush=True)
    engine.quit()
    os.makedirs(os.path.dirname(out_path) or '.', exist_ok=True)
    with open(out_path, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['cp', 'material', 'result'])
        w.writerows(rows)
    return rows


def model(params, cp, mat):
    a0, a1, b0, b1 = params
    a = a0 + a1 * mat
    b = max(b0 + b1 * mat, 1.0)
    win = 1 / (1 + math.exp(min((a - cp) / b, 700)))
    loss = 1 / (1 + math.exp(min((a + cp) / b, 700)))
    return win, max(1 - win - loss, 1e-9), loss


def neg_log_likelihood(params, rows):
    total = 0.0
    for cp, mat, res in rows:
        win, draw, loss = model(params, cp, mat)
        p = win if res == 1 else loss if res == -1 else draw
        total -= math.log(max(p, 1e-12))
    return total / len(rows)


def nelder_mead(f, start, step, iterations=600):
    n = len(start)
    points = [list(start)] + [[s + (step[i] if i == j else 0) for i, s in enumerate(start)] for j in range(n)]
    values = [f(p) for p in points]
    for _ in range(iterations):
        order = sorted(range(n + 1), key=lambda i: values[i])
        points = [points[i] for i in order]
        values = [values[i] for i in order]
        centroid = [sum(p[i] for p in points[:-1]) / n for i in range(n)]
        worst = points[-1]
        reflect = [c + (c - w) for c, w in zip(centroid, worst)]
        fr = f(reflect)
        if fr < values[0]:
            expand = [c + 2 * (c - w) for c, w in zip(centroid, worst)]
            fe = f(expand)
            points[-1], values[-1] = (expand, fe) if fe < fr else (reflect, fr)
        elif fr < values[-2]:
            points[-1], values[-1] = reflect, fr
        else:
            contract = [c + 0.5 * (w - c) for c, w in zip(centroid, worst)]
            fc = f(contract)
            if fc < values[-1]:
                points[-1], values[-1] = contract, fc
            else:
                best = points[0]
                points = [best] + [[b + 0.5 * (p - b) for b, p in zip(best, q)] for q in points[1:]]
                values = [values[0]] + [f(p) for p in points[1:]]
    i = min(range(n + 1), key=lambda i: values[i])
    return points[i], values[i]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--engine', default=ENGINE)
    ap.add_argument('--games', type=int, default=300)
    ap.add_argument('--nodes', type=int, default=4000)
    ap.add_argument('--book', default=BOOK)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--data', default=os.path.join(OUT, 'wdl_positions.csv'))
    ap.add_argument('--from-datagen', metavar='DIR', help='fit on these datagen files instead')
    ap.add_argument('--every', type=int, default=1, help='with --from-datagen: every N-th position')
    ap.add_argument('--offset', type=int, default=0,
                    help='with --from-datagen: start at this position (another offset: held-out rows)')
    ap.add_argument('--evaluate', type=float, nargs=4, metavar=('A0', 'A1', 'B0', 'B1'),
                    help='no fit: the mean -log likelihood of these constants on the rows')
    args = ap.parse_args()
    if args.from_datagen:
        rows = read_datagen(args.engine, args.from_datagen, max(args.every, 1), args.offset)
    elif os.path.exists(args.data):
        with open(args.data) as f:
            rows = [(int(r['cp']), int(r['material']), int(r['result'])) for r in csv.DictReader(f)]
    else:
        rows = play_games(args.engine, args.games, args.nodes, args.book, args.seed, args.data)
    results = [r[2] for r in rows]
    print(f'{len(rows)} positions: {results.count(1)} won, {results.count(0)} drawn, '
          f'{results.count(-1)} lost by the side to move')
    if args.evaluate:
        print(f'constants {args.evaluate}: mean -log likelihood '
              f'{neg_log_likelihood(args.evaluate, rows):.4f}')
        return
    params, nll = nelder_mead(lambda p: neg_log_likelihood(p, rows), [150.0, 1.0, 60.0, 1.0],
                              [50.0, 1.0, 20.0, 0.5])
    print(f'fit: a = {params[0]:.2f} + {params[1]:.4f} * material, '
          f'b = {params[2]:.2f} + {params[3]:.4f} * material; mean -log likelihood {nll:.4f}')
    print('bucket (cp)   positions  observed W/D/L %    model W/D/L %')
    for lo in range(-600, 600, 100):
        sel = [r for r in rows if lo <= r[0] < lo + 100]
        if not sel:
            continue
        obs = [100 * sum(1 for r in sel if r[2] == k) / len(sel) for k in (1, 0, -1)]
        mod = [100 * sum(model(params, cp, mat)[i] for cp, mat, _ in sel) / len(sel) for i in range(3)]
        print(f'[{lo:5d},{lo + 100:5d})  {len(sel):8d}  {obs[0]:5.1f} {obs[1]:5.1f} {obs[2]:5.1f}'
              f'    {mod[0]:5.1f} {mod[1]:5.1f} {mod[2]:5.1f}')
    print('constants for src/uci/wdl.rs:')
    print(f'  A: ({params[0]:.2f}, {params[1]:.4f}), B: ({params[2]:.2f}, {params[3]:.4f})')


if __name__ == '__main__':
    main()

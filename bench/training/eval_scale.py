#!/usr/bin/env python3
"""Compares the scale of the evaluations: the network against the hand-written one.

  python3 bench/training/eval_scale.py --data DIR_OR_FILE [--engine target/release/threefold]
                                       [--every 20] [--limit 20000]

The search's margins (razoring, reverse futility, futility, null move, aspiration, SEE) were
set when the hand-written evaluation was the only one; they stay right for a network only if a
centipawn means the same to both. This script measures that on datagen games (`threefold
datagen --dump`): every --every-th quiet position (not in check, the move played not a capture
or promotion, no mate score), evaluated statically by each evaluation (`eval`, with `UseNNUE`
on and off; the built-in network unless --eval-file names another). Per evaluation it prints:

- the logistic scale that best predicts the game's result from the static evaluation,
  P(White scores) = 1 / (1 + exp(-eval / K)) (maximum likelihood; draws count one half):
  the centipawns that one unit of win-logit is worth;
- the same for the search score stored in the data (the engine's own search at ~5,000 nodes);
- mean |evaluation|, and the regression slope of the search score on the evaluation;
- the quantiles of |search score - static evaluation|: what a pruning margin must cover.

Needs `pip install chess`.
"""
import argparse, math, os, subprocess, sys

import chess

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from datagen_dump import dump_rows
from paths import ENGINE


def quiet_rows(engine, data, every, limit):
    """(fen, search score White-relative, White's result) of every `every`-th quiet position."""
    rows = []
    for fen, move, score, result in dump_rows(engine, data, every):
        if abs(score) >= 10_000:
            continue
        board = chess.Board(fen)
        m = chess.Move.from_uci(move)
        if board.is_check() or board.is_capture(m) or m.promotion:
            continue
        rows.append((fen, score, result))
        if len(rows) >= limit:
            break
    return rows


def static_evals(engine, fens, nnue, eval_file):
    """The static evaluation of each FEN, White-relative, as the search sees it."""
    commands = [f'setoption name UseNNUE value {"true" if nnue else "false"}']
    if eval_file:
        commands.append(f'setoption name EvalFile value {eval_file}')
    for fen in fens:
        commands += [f'position fen {fen}', 'eval']
    commands.append('quit')
    out = subprocess.run([engine], input='\n'.join(commands) + '\n', capture_output=True,
                         text=True, check=True).stdout
    values = [int(line.split(':')[1].split('cp')[0])
              for line in out.splitlines() if line.startswith('Search evaluation')]
    if len(values) != len(fens):
        sys.exit(f'expected {len(fens)} evaluations, read {len(values)}')
    # "for the side to move": turn to White's view.
    return [v if fen.split()[1] == 'w' else -v for v, fen in zip(values, fens)]


def logistic_scale(xs, results):
    """The K maximising the likelihood of the results under sigmoid(x / K) (golden section)."""
    def loss(k):
        total = 0.0
        for x, r in zip(xs, results):
            p = 1.0 / (1.0 + math.exp(max(-60.0, min(60.0, -x / k))))
            p = min(max(p, 1e-9), 1 - 1e-9)
            total -= r * math.log(p) + (1 - r) * math.log(1 - p)
        return total / len(xs)

    lo, hi = 20.0, 2000.0
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = loss(a), loss(b)
    for _ in range(60):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = loss(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = loss(b)
    k = (lo + hi) / 2
    return k, loss(k)


def quantile(sorted_values, q):
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--engine', default=ENGINE)
    ap.add_argument('--data', required=True, help='datagen file or directory')
    ap.add_argument('--every', type=int, default=20)
    ap.add_argument('--limit', type=int, default=20_000)
    ap.add_argument('--eval-file', help='network file for the NNUE column (default: built-in)')
    args = ap.parse_args()

    rows = quiet_rows(args.engine, args.data, args.every, args.limit)
    if not rows:
        sys.exit('no quiet positions read')
    fens = [r[0] for r in rows]
    search = [r[1] for r in rows]
    results = [r[2] for r in rows]
    print(f'{len(rows)} quiet positions (every {args.every}th of {args.data})')

    k, l = logistic_scale(search, results)
    print(f'search score: K {k:.0f} cp (loss {l:.4f}), mean |score| '
          f'{sum(map(abs, search)) / len(search):.0f}')
    mean_s = sum(search) / len(search)
    print('| evaluation | K (cp per logit) | loss | mean abs | slope search~eval | '
          '|search - eval| 50% / 90% / 95% / 99% |')
    print('|---|---|---|---|---|---|')
    for name, nnue in (('network', True), ('hand-written', False)):
        ev = static_evals(args.engine, fens, nnue, args.eval_file)
        k, l = logistic_scale(ev, results)
        mean_e = sum(ev) / len(ev)
        cov = sum((e - mean_e) * (s - mean_s) for e, s in zip(ev, search))
        var = sum((e - mean_e) ** 2 for e in ev)
        errors = sorted(abs(s - e) for s, e in zip(search, ev))
        qs = ' / '.join(str(quantile(errors, q)) for q in (0.5, 0.9, 0.95, 0.99))
        print(f'| {name} | {k:.0f} | {l:.4f} | {sum(map(abs, ev)) / len(ev):.0f} | '
              f'{cov / var:.2f} | {qs} |')


if __name__ == '__main__':
    main()

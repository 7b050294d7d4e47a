#!/usr/bin/env python3
"""Protocol timing of a UCI engine, measured from the GUI's side of the pipes.

  python3 bench/measure/protocol_timing.py [--engine target/release/threefold] [--trials 100]
                                           [--games 10] [--threads 1]

1. `isready` -> `readyok` latency while `go infinite` runs (median and max over --trials).
2. `stop` -> `bestmove` latency after `go infinite` ran 20-200 ms (median and max).
3. Time per move at 1+0.01 (the engine plays itself, --games games, real clocks): with
   `debug on` the engine reports its budget before each search (`info string time budget soft S
   hard H overhead O (ms)`); each move's time, from sending `go` to reading `bestmove`, is
   compared with H + O. Prints the worst excess and how many moves went over.

Exit status 1 when a move went over its budget plus the overhead. Needs `pip install chess`.
"""
import argparse, os, random, re, statistics, sys, time

import chess

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from paths import ENGINE
from uci_pipe import Engine


def summary(name, samples_ms):
    return (f'{name}: median {statistics.median(samples_ms):.3f} ms, '
            f'max {max(samples_ms):.3f} ms over {len(samples_ms)} trials')


def isready_latency(e, trials):
    e.send('position startpos')
    e.send('go infinite')
    time.sleep(0.05)
    samples = []
    for _ in range(trials):
        sent = e.send('isready')
        at, _, _ = e.wait_for(lambda l: l == 'readyok')
        samples.append((at - sent) * 1000)
        time.sleep(random.uniform(0.001, 0.01))
    e.send('stop')
    e.wait_for(lambda l: l.startswith('bestmove'))
    return samples


def stop_latency(e, trials):
    samples = []
    for _ in range(trials):
        e.send('position startpos moves e2e4 e7e5 g1f3')
        e.send('go infinite')
        time.sleep(random.uniform(0.02, 0.2))
        sent = e.send('stop')
        at, _, _ = e.wait_for(lambda l: l.startswith('bestmove'))
        samples.append((at - sent) * 1000)
    return samples


BUDGET = re.compile(r'time budget soft (\S+) hard (\S+) overhead (\d+)')


def clock_games(e, games, base_ms, inc_ms):
    """Plays the engine against itself; returns (moves, excesses in ms, worst excess, used)."""
    e.send('debug on')
    excess, moves, worst = [], 0, None
    for g in range(games):
        e.send('ucinewgame')
        board = chess.Board()
        clock = [base_ms, base_ms]  # white, black
        while not board.is_game_over(claim_draw=True) and board.ply() < 300:
            side = 0 if board.turn == chess.WHITE else 1
            cmd = 'position startpos'
            if board.move_stack:
                cmd += ' moves ' + ' '.join(m.uci() for m in board.move_stack)
            e.send(cmd)
            sent = e.send(f'go wtime {max(clock[0], 1):.0f} btime {max(clock[1], 1):.0f} '
                          f'winc {inc_ms} binc {inc_ms}')
            at, line, seen = e.wait_for(lambda l: l.startswith('bestmove'))
            used = (at - sent) * 1000
            budget = next((BUDGET.search(l) for l in seen if BUDGET.search(l)), None)
            if budget is None:
                raise RuntimeError(f'no time budget line before {line}')
            hard, overhead = float(budget.group(2)), float(budget.group(3))
            over = used - (hard + overhead)
            excess.append(over)
            if worst is None or over > worst[0]:
                worst = (over, used, hard, overhead, board.fen())
            clock[side] += inc_ms - used
            moves += 1
            if clock[side] < 0:
                print(f'game {g + 1}: flag fell for {"white" if side == 0 else "black"}', file=sys.stderr)
                break
            board.push_uci(line.split()[1])
    e.send('debug off')
    return moves, excess, worst


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--engine', default=ENGINE)
    ap.add_argument('--trials', type=int, default=100)
    ap.add_argument('--games', type=int, default=10)
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--seed', type=int, default=1)
    args = ap.parse_args()
    random.seed(args.seed)

    e = Engine(args.engine)
    e.send('uci')
    e.wait_for(lambda l: l == 'uciok')
    e.send(f'setoption name Threads value {args.threads}')
    e.send('isready')
    e.wait_for(lambda l: l == 'readyok')

    print(summary('isready -> readyok during go infinite', isready_latency(e, args.trials)))
    print(summary('stop -> bestmove', stop_latency(e, args.trials)))
    moves, excess, worst = clock_games(e, args.games, 1000, 10)
    over = [x for x in excess if x > 0]
    print(f'1+0.01, {args.games} games, {moves} moves: used minus (hard budget + overhead): '
          f'median {statistics.median(excess):.1f} ms, max {max(excess):.1f} ms; '
          f'{len(over)} moves over')
    if worst:
        print(f'  closest to the limit: used {worst[1]:.1f} ms, hard {worst[2]:.0f} ms, '
              f'overhead {worst[3]:.0f} ms at {worst[4]}')
    e.quit()
    return 1 if over else 0


if __name__ == '__main__':
    sys.exit(main())

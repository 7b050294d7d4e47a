#!/usr/bin/env python3
"""Time to depth: how long a UCI engine takes to finish `go depth N` from a position.

  python3 bench/measure/time_to_depth.py [--engine target/release/threefold] [--depth 20] [--hash 64]
                                         [--threads 1] [--fen FEN] [--runs 3] [--limit 600]

Each run starts the engine afresh (empty hash), sends `ucinewgame`, the position and
`go depth N`, and measures the wall time from `go` to `bestmove`. The table lists, per run,
that wall time and the last `info depth N` line's nodes and nps as the engine reported them.
A run still searching after --limit seconds is sent `stop`; its row says so and gives the
depth it had reached, so an engine too slow for depth N still gets a comparable line.
Run it on a quiet machine: timings from a machine busy with a match say little.
"""
import argparse
import os
import sys

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from paths import ENGINE
from uci_pipe import Engine, NoAnswer


def field(words, name):
    """The integer after `name` in an info line's words, or None."""
    if name in words:
        i = words.index(name)
        if i + 1 < len(words) and words[i + 1].lstrip('-').isdigit():
            return int(words[i + 1])
    return None


def one_run(engine, depth, hash_mb, threads, fen, limit):
    """One fresh engine: (seconds from go to bestmove, depth reached, nodes, nps, stopped)."""
    e = Engine(engine)
    try:
        e.send('uci')
        e.wait_for(lambda l: l == 'uciok')
        e.send(f'setoption name Hash value {hash_mb}')
        e.send(f'setoption name Threads value {threads}')
        e.send('ucinewgame')
        e.send('position startpos' if fen == 'startpos' else f'position fen {fen}')
        e.send('isready')
        e.wait_for(lambda l: l == 'readyok')
        start = e.send(f'go depth {depth}')
        stopped = False
        try:
            at, _, lines = e.wait_for(lambda l: l.startswith('bestmove'), timeout=limit)
        except NoAnswer as late:
            # Past the limit: stop the search and report the depth it had finished.
            stopped = True
            e.send('stop')
            at, _, rest = e.wait_for(lambda l: l.startswith('bestmove'))
            lines = late.seen + rest
    finally:
        e.quit()
    reached, nodes, nps = 0, None, None
    for line in lines:
        words = line.split()
        d = field(words, 'depth') if words[:1] == ['info'] else None
        if d is not None and d >= reached and 'nodes' in words:
            reached, nodes, nps = d, field(words, 'nodes'), field(words, 'nps')
    return at - start, reached, nodes, nps, stopped


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--engine', default=ENGINE)
    ap.add_argument('--depth', type=int, default=20)
    ap.add_argument('--hash', type=int, default=64)
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--fen', default='startpos')
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--limit', type=float, default=600.0,
                    help='seconds after which a run is stopped and its depth reached reported')
    a = ap.parse_args()
    print(f'{a.engine}: go depth {a.depth}, Hash {a.hash}, Threads {a.threads}, {a.fen}')
    print('| run | seconds | depth reached | nodes | nps |')
    print('|---|---|---|---|---|')
    for run in range(1, a.runs + 1):
        wall, reached, nodes, nps, stopped = one_run(a.engine, a.depth, a.hash, a.threads, a.fen,
                                                     a.limit)
        seconds = f'{wall:.2f} (stopped at --limit)' if stopped else f'{wall:.2f}'
        print(f'| {run} | {seconds} | {reached} | {nodes} | {nps} |', flush=True)


if __name__ == '__main__':
    main()

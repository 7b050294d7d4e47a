#!/usr/bin/env python3
"""Time to depth: how long a UCI engine takes to finish `go depth N` from a position.

  python3 bench/time_to_depth.py [--engine target/release/threefold] [--depth 20] [--hash 64]
                                 [--threads 1] [--fen FEN] [--runs 3]

Each run starts the engine afresh (empty hash), sends `ucinewgame`, the position and
`go depth N`, and measures the wall time from `go` to `bestmove`. The table lists, per run,
that wall time and the last `info depth N` line's nodes and nps as the engine reported them.
Run it on a quiet machine: timings from a machine busy with a match say little.
"""
import argparse, os, subprocess, time

HERE = os.path.dirname(os.path.abspath(__file__))


def send(proc, line):
    proc.stdin.write(line + '\n')
    proc.stdin.flush()


def wait_for(proc, prefix):
    """Read engine lines until one starts with `prefix`; return the lines read."""
    lines = []
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f'engine exited before "{prefix}"')
        lines.append(line.strip())
        if line.startswith(prefix):
            return lines


def field(words, name):
    """The integer after `name` in an info line's words, or None."""
    if name in words:
        i = words.index(name)
        if i + 1 < len(words) and words[i + 1].lstrip('-').isdigit():
            return int(words[i + 1])
    return None


def one_run(engine, depth, hash_mb, threads, fen):
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    try:
        send(proc, 'uci')
        wait_for(proc, 'uciok')
        send(proc, f'setoption name Hash value {hash_mb}')
        send(proc, f'setoption name Threads value {threads}')
        send(proc, 'ucinewgame')
        send(proc, 'position startpos' if fen == 'startpos' else f'position fen {fen}')
        send(proc, 'isready')
        wait_for(proc, 'readyok')
        start = time.perf_counter()
        send(proc, f'go depth {depth}')
        lines = wait_for(proc, 'bestmove')
        wall = time.perf_counter() - start
        send(proc, 'quit')
    finally:
        proc.wait(timeout=10)
    reached, nodes, nps = 0, None, None
    for line in lines:
        words = line.split()
        d = field(words, 'depth') if words[:1] == ['info'] else None
        if d is not None and d >= reached and 'nodes' in words:
            reached, nodes, nps = d, field(words, 'nodes'), field(words, 'nps')
    return wall, reached, nodes, nps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--engine', default=os.path.join(HERE, '..', 'target', 'release', 'threefold'))
    ap.add_argument('--depth', type=int, default=20)
    ap.add_argument('--hash', type=int, default=64)
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--fen', default='startpos')
    ap.add_argument('--runs', type=int, default=3)
    a = ap.parse_args()
    print(f'{a.engine}: go depth {a.depth}, Hash {a.hash}, Threads {a.threads}, {a.fen}')
    print('| run | seconds | depth reached | nodes | nps |')
    print('|---|---|---|---|---|')
    for run in range(1, a.runs + 1):
        wall, reached, nodes, nps = one_run(a.engine, a.depth, a.hash, a.threads, a.fen)
        print(f'| {run} | {wall:.2f} | {reached} | {nodes} | {nps} |', flush=True)


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""The bench signature of a commit as OpenBench reads it, checked against the engine's own.

    python3 bench/openbench/commit_bench.py [COMMIT] [--engine target/release/threefold]

OpenBench takes a commit's bench from its message when the test form leaves it empty: the last
match, case ignored, of `BENCH` or `NODES`, then spaces, colons or equals signs, then digits and
commas (the commas dropped). So the last such mention in a message must be the commit's own
count: Threefold's commit messages end with a line `Bench: 3682061`, and a count said earlier in
the text ("bench 3,234,216 -> 3,006,091") is fine as long as that last line follows it.

Prints what OpenBench would read and the engine's `bench`; exit status 0 when they agree, 1 when
they differ or the message names no bench. COMMIT defaults to HEAD; the engine should be built
from it (`cargo build --release`).
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from paths import ENGINE, ROOT

# OpenBench's rule (OpenBench/workloads/verify_workload.py, determine_bench).
BENCH_IN_MESSAGE = re.compile(r'(?:BENCH|NODES)[ :=]+([0-9,]+)', re.IGNORECASE)


def bench_in_message(message):
    """The bench OpenBench reads from `message`, or None."""
    found = BENCH_IN_MESSAGE.findall(message)
    if not found:
        return None
    try:
        return int(found[-1].replace(',', ''))
    except ValueError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('commit', nargs='?', default='HEAD')
    ap.add_argument('--engine', default=ENGINE)
    args = ap.parse_args()
    message = subprocess.run(['git', '-C', ROOT, 'log', '-1', '--format=%B', args.commit],
                             capture_output=True, text=True, check=True).stdout
    read = bench_in_message(message)
    out = subprocess.run([args.engine, 'bench'], capture_output=True, text=True, check=True)
    own = int(out.stdout.strip().splitlines()[-1].split()[0])
    print(f'{args.commit}: OpenBench reads bench {read}; the engine says {own}')
    sys.exit(0 if read == own else 1)


if __name__ == '__main__':
    main()

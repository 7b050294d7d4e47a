#!/usr/bin/env python3
"""Checks `threefold analyse` output with python-chess, an independent PGN reader, and
measures its speed.

    python3 bench/ci/analyse_check.py [--engine target/release/threefold] [--nodes 20000]
                                      [--threads 2] [--from N] [--to N] [FILE.pgn]

Analyses FILE (default: tests/data/seed-games.pgn) and re-reads the annotated PGN with
python-chess: every game must come back with its tags and main-line moves unchanged, no reading
errors (an illegal move in a variation would be one), an `[%eval]` that python-chess parses on
every analysed move, NAGs among ?? ? ?!, and `--json` must give one object per game with as many
plies. Prints games, plies, seconds and plies per second of the PGN run; exit status 1 on any
mismatch. Needs `pip install chess`.
"""
import argparse
import io
import json
import os
import subprocess
import sys
import time

import chess.pgn

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from paths import ENGINE, TEST_DATA

NAGS = {chess.pgn.NAG_BLUNDER, chess.pgn.NAG_MISTAKE, chess.pgn.NAG_DUBIOUS_MOVE}


def read_all(text):
    games, stream = [], io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        games.append(game)
    return games


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", default=os.path.join(TEST_DATA, "seed-games.pgn"))
    parser.add_argument("--engine", default=ENGINE)
    parser.add_argument("--nodes", type=int, default=20000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--from", dest="first", type=int, default=1)
    parser.add_argument("--to", type=int, default=10**9)
    args = parser.parse_args()
    command = [args.engine, "analyse", "--nodes", str(args.nodes), "--threads", str(args.threads),
               "--from", str(args.first), "--to", str(min(args.to, 4294967295)), "--quiet", args.file]
    started = time.time()
    run = subprocess.run(command, capture_output=True, text=True)
    seconds = time.time() - started
    if run.returncode not in (0, 1):
        sys.exit(f"analyse failed ({run.returncode}): {run.stderr}")
    original = read_all(open(args.file, encoding="utf-8", errors="replace").read())
    annotated = read_all(run.stdout)
    problems = []
    if len(original) != len(annotated):
        problems.append(f"{len(original)} games in, {len(annotated)} out")
    plies = 0
    for number, (before, after) in enumerate(zip(original, annotated), 1):
        if dict(before.headers) != dict(after.headers):
            problems.append(f"game {number}: tags differ")
        moves_before = [m.uci() for m in before.mainline_moves()]
        moves_after = [m.uci() for m in after.mainline_moves()]
        if not before.errors and moves_before != moves_after:
            problems.append(f"game {number}: moves differ")
        if after.errors:
            problems.append(f"game {number}: python-chess errors {after.errors}")
        for node in after.mainline():
            if node.eval() is not None or node.board().is_checkmate():
                plies += 1
            if node.nags - NAGS:
                problems.append(f"game {number}: unexpected NAGs {node.nags}")
            for variation in node.parent.variations[1:]:
                if variation.move not in node.parent.board().legal_moves:
                    problems.append(f"game {number}: illegal variation")
    json_run = subprocess.run(command[:2] + ["--json"] + command[2:], capture_output=True, text=True)
    objects = [json.loads(line) for line in json_run.stdout.splitlines()]
    if len(objects) != len(annotated):
        problems.append(f"--json gave {len(objects)} objects for {len(annotated)} games")
    elif sum(len(o["plies"]) for o in objects) != plies:
        problems.append("--json and the PGN disagree on the analysed plies")
    for problem in problems:
        print(problem)
    print(f"{len(annotated)} games, {plies} plies with [%eval], {seconds:.1f} s, "
          f"{plies / seconds:.2f} plies/s (--nodes {args.nodes} --threads {args.threads})")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Builds the test set of `threefold analyse` verdicts (tests/data/analyse-cases.jsonl) from
positions whose verdict is known from analysis that is not Threefold's own:

- missed_perpetual / missed_repetition: a case of the perpetual suite (bench/data/perpetuals.jsonl:
  Stockfish 15.1 found a draw by repetition at 0.00 and every other move -2.00 or worse), with a
  non-drawing move played instead (the first legal one in UCI order that is not among its
  drawing moves); a perpetual when every move of the side in Stockfish's line gives check;
- nothing: the same cases with the drawing move played, and the suite's false perpetuals
  with Stockfish's best move played (no missed-perpetual or drawn-while-winning verdict);
- nothing, escapable: the suite's escapable perpetuals at the ply where a move other than the
  drawing one holds (Stockfish's escape, -0.50 or better), with a losing move played (the first
  legal one in UCI order that the reference engine, `--reference`, scores -3.00 or worse): the
  move loses, but not every other move does, so it missed no perpetual;
- drawn_while_winning: the move that let a suite perpetual in (the last move of the case's
  history), when a second engine (`--judge`, default Ethereal, MultiPV 1, `--movetime` ms)
  scores the position before it +1.50 or better for the mover with another best move;
- claim_available: the seed games whose last position the arbiter data
  (tests/data/seed-games.json) marks as a threefold claim (now or by announcing a move).

    python3 bench/suites/analyse_cases.py [--judge /usr/games/ethereal-chess] [--movetime 2000]

Each line: id, expect, start_fen, moves (UCI, the judged move last for move verdicts), ply (the
move judged, 1 for the first; for a claim, the position after that many plies), source.
Needs `pip install chess`.
"""
import argparse
import json
import os
import sys

import chess
import chess.engine

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from paths import PERPETUALS, TEST_DATA


def board_after(start_fen, moves):
    board = chess.Board(start_fen)
    for m in moves:
        board.push_uci(m)
    return board


def all_checks(board, line):
    """Whether every move of the side to move in `line` (Stockfish's drawing line) gives check:
    the search then names the repetition a perpetual check."""
    board = board.copy()
    mover = board.turn
    for uci in line:
        move = chess.Move.from_uci(uci)
        if move not in board.legal_moves:
            return False
        checking = board.turn == mover
        board.push(move)
        if checking and not board.is_check():
            return False
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--judge", default="/usr/games/ethereal-chess")
    parser.add_argument("--movetime", type=int, default=2000)
    parser.add_argument("--reference", default="/usr/games/stockfish",
                        help="the engine that scores the losing move of an escapable case")
    parser.add_argument("--out", default=os.path.join(TEST_DATA, "analyse-cases.jsonl"))
    args = parser.parse_args()
    suite = [json.loads(line) for line in open(PERPETUALS)]
    cases = []
    judge = chess.engine.SimpleEngine.popen_uci(args.judge)
    reference = chess.engine.SimpleEngine.popen_uci(args.reference)
    try:
        for case in suite:
            start, moves = case["start_fen"], case["moves"]
            board = board_after(start, moves)
            source = f"perpetuals.jsonl {case['id']} ({case['source']})"
            ply = len(moves) + 1
            if case["kind"] == "perpetual":
                drawing = case["drawing_moves"]
                others = sorted(m.uci() for m in board.legal_moves if m.uci() not in drawing)
                line = case.get("sf_pv") or drawing[:1]
                expect = "missed_perpetual" if all_checks(board, line) else "missed_repetition"
                if others:
                    cases.append(dict(id=f"missed-{case['id']}", expect=expect,
                                      start_fen=start, moves=moves + [others[0]], ply=ply, source=source))
                cases.append(dict(id=f"kept-{case['id']}", expect="nothing", start_fen=start,
                                  moves=moves + [drawing[0]], ply=ply, source=source))
                if not moves:
                    continue
                before = board_after(start, moves[:-1])
                info = judge.analyse(before, chess.engine.Limit(time=args.movetime / 1000))
                score = info["score"].pov(before.turn).score(mate_score=100000)
                best = info.get("pv", [None])[0]
                if score is not None and score >= 150 and best is not None and best.uci() != moves[-1]:
                    cases.append(dict(id=f"let-{case['id']}", expect="drawn_while_winning",
                                      start_fen=start, moves=moves, ply=len(moves),
                                      source=f"{source}; judge {os.path.basename(args.judge)} "
                                             f"{score} cp with {best.uci()}"))
            elif case["kind"] == "escapable":
                escape = case["escape"]
                line = case["sf_pv"][:escape["ply"]]
                board = board_after(start, moves + line)
                assert board.fen() == escape["fen"], case["id"]
                if escape["score"] < -50:
                    continue
                held = {escape["move"], case["sf_pv"][escape["ply"]]}
                for m in sorted(board.legal_moves, key=chess.Move.uci):
                    if m.uci() in held:
                        continue
                    info = reference.analyse(board, chess.engine.Limit(time=args.movetime / 1000),
                                             root_moves=[m])
                    score = info["score"].pov(board.turn).score(mate_score=100000)
                    if score is not None and score <= -300:
                        cases.append(dict(id=f"escaped-{case['id']}", expect="nothing",
                                          start_fen=start, moves=moves + line + [m.uci()],
                                          ply=len(moves + line) + 1,
                                          source=f"{source}; escape {escape['move']} "
                                                 f"{escape['score']} cp; "
                                                 f"{os.path.basename(args.reference)} {score} cp"))
                        break
            else:
                cases.append(dict(id=f"kept-{case['id']}", expect="nothing", start_fen=start,
                                  moves=moves + [case["sf_best"]], ply=ply, source=source))
    finally:
        judge.quit()
        reference.quit()
    seeds = json.load(open(os.path.join(TEST_DATA, "seed-games.json")))
    for name, game in seeds.items():
        if game["final"]["can_claim_threefold"] and not game["final"]["fivefold"] and game["moves"]:
            cases.append(dict(id=f"claim-{name}", expect="claim_available", start_fen=game["fen"],
                              moves=game["moves"], ply=len(game["moves"]),
                              source=f"seed-games.json {name} (arbiter data)"))
    with open(args.out, "w") as out:
        for case in cases:
            out.write(json.dumps(case) + "\n")
    counts = {}
    for case in cases:
        counts[case["expect"]] = counts.get(case["expect"], 0) + 1
    print(f"{len(cases)} cases -> {args.out}: {counts}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""CI: `threefold perpetual --json` on every case of the proof suite (bench/data/perpetuals.jsonl),
each certificate checked by bench/perpetual/check_certificate.py (python-chess alone), and
certificates corrupted by hand (a reply that leads out, a move that gives no check, a check
left unanswered, a refutation of a real perpetual whose answers run in a cycle) rejected by the
checker.

The attacker of a case is the side whose drawing move gives check, else the other side (the
side to move is then the one in check). Cases whose checks are not a perpetual check (a
repetition with quiet moves in it) are refuted, by design.

Usage: perpetual_check.py --engine target/release/threefold [--nodes N]
Exit status 0 when every certificate holds and every corruption is rejected.
"""
import argparse
import copy
import json
import os
import subprocess
import sys

import chess

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "perpetual"))
from check_certificate import check, identity  # noqa: E402

SUITE = os.path.join(HERE, "..", "data", "perpetuals.jsonl")


def prove(engine, fen, attacker, nodes):
    out = subprocess.run(
        [engine, "perpetual", "--fen", fen, "--attacker", attacker, "--nodes", str(nodes),
         "--json"], capture_output=True, text=True, timeout=120)
    expected = {"proven": 0, "refuted": 1, "unknown": 3}
    cert = json.loads(out.stdout)
    if out.returncode != expected[cert["result"]]:
        raise SystemExit(f"{fen}: exit status {out.returncode} for {cert['result']}")
    return cert


def corruptions(proof, refutation):
    """Certificates that must be rejected, with what is wrong with each."""
    out = []
    if len(proof["strategy"]) > 1:
        bad = copy.deepcopy(proof)
        bad["strategy"].pop()
        out.append(("a strategy position left out (a reply leads nowhere)", bad))
    bad = copy.deepcopy(proof)
    board = chess.Board(bad["strategy"][0]["fen"])
    quiet = next(m for m in board.legal_moves if not board.gives_check(m))
    bad["strategy"][0]["check"] = quiet.uci()
    out.append(("a move that gives no check", bad))
    for entry in refutation["refutation"]:
        if entry["answers"]:
            bad = copy.deepcopy(refutation)
            for e in bad["refutation"]:
                if e["fen"] == entry["fen"]:
                    e["answers"].pop()
            out.append(("a check left unanswered", bad))
            break
    return out


# White checks from h5 and e8 for ever: no refutation exists, so a listing that answers every
# check and closes on itself must run in a cycle.
CYCLE_FEN = "6k1/6p1/8/7Q/8/1P6/PPqr4/K7 w - - 0 1"
CYCLE_LIMIT = 5_000


def cyclic_refutation(fen=CYCLE_FEN):
    """A refutation certificate made by hand for a real perpetual: every check of each listed
    position answered by a legal reply, a reply back into the listing preferred, until the
    listing closes. None if it does not close within CYCLE_LIMIT positions."""
    start = chess.Board(fen)
    listed = {identity(start): start}
    order = [start]
    entries = []
    for board in order:  # grows while it is walked: breadth first
        if len(order) > CYCLE_LIMIT:
            return None
        answers = []
        for check in [m for m in board.legal_moves if board.gives_check(m)]:
            after = board.copy(stack=False)
            after.push(check)
            landings = []
            for reply in after.legal_moves:
                nxt = after.copy(stack=False)
                nxt.push(reply)
                landings.append((reply, nxt))
            if not landings:
                return None  # a mate: no reply to list
            reply, nxt = next(((r, n) for r, n in landings if identity(n) in listed),
                              landings[0])
            if identity(nxt) not in listed:
                listed[identity(nxt)] = nxt
                order.append(nxt)
            answers.append({"check": check.uci(), "reply": reply.uci()})
        entries.append({"fen": board.fen(), "answers": answers})
    return {"result": "refuted", "attacker": "white" if start.turn else "black", "start": fen,
            "refutation": entries}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", required=True)
    parser.add_argument("--nodes", type=int, default=50_000)
    args = parser.parse_args()
    tally = {"proven": 0, "refuted": 0, "unknown": 0}
    failures = []
    proof = refutation = None
    for line in open(SUITE):
        case = json.loads(line)
        board = chess.Board(case["fen"])
        drawing = (case["drawing_moves"] or [case["sf_best"]])[0]
        gives = board.gives_check(chess.Move.from_uci(drawing))
        attacker = board.turn if gives else not board.turn
        cert = prove(args.engine, case["fen"], "white" if attacker else "black", args.nodes)
        tally[cert["result"]] += 1
        holds, why = check(cert)
        if not holds:
            failures.append(f"{case['id']}: {why}")
        # The first proof of more than one position (one to leave a position out of), else any.
        if cert["result"] == "proven" and (proof is None or len(proof["strategy"]) == 1):
            proof = cert
        if cert["result"] == "refuted" and refutation is None and any(
                e["answers"] for e in cert["refutation"]):
            refutation = cert
    print(f"{sum(tally.values())} cases at {args.nodes} nodes: {tally}; "
          f"{len(failures)} certificates rejected")
    for f in failures:
        print("  " + f)
    if proof is None or refutation is None:
        print("no proof or refutation to corrupt")
        return 1
    cyclic = cyclic_refutation()
    if cyclic is None:
        print("the hand-made cyclic refutation did not close")
        return 1
    for what, bad in corruptions(proof, refutation) + [
            (f"a refutation of a real perpetual, {len(cyclic['refutation'])} positions that "
             "answer every check but run in a cycle", cyclic)]:
        holds, why = check(bad)
        print(f"corrupted ({what}): {'ACCEPTED' if holds else 'rejected: ' + why}")
        if holds:
            failures.append(f"corruption accepted: {what}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

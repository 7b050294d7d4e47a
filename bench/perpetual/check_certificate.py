#!/usr/bin/env python3
"""Checks the certificates of `threefold perpetual --json`, with python-chess alone.

Shares no code with the engine: every move is replayed and every legal reply enumerated by
python-chess. Positions are identified as FIDE identifies them (placement, side to move,
castling rights, an en passant square only where the capture is legal): python-chess's EPD.

A proof is accepted when every position of the strategy has the attacker to move, its check
is legal and gives check, and every legal reply to it leads to a position of the strategy or
the check mates; and the start is in the strategy (attacker to move) or every defender move
from it leads into the strategy. Over such a set the attacker always has a check: the game
can only end in a draw by repetition or by the move-count rules, or in the defender's mate.

A refutation is accepted when every position listed has the attacker to move and lists each
of its legal checks exactly once with a legal reply, each reply leads to a listed position,
the listing has no cycle (a cycle would be checks for ever), and the start is listed
(attacker to move) or its first reply, legal, leads to a listed position.

Usage: check_certificate.py [FILE ...]   (one JSON certificate a line; none: stdin)
Exit status 0 when every certificate holds, 1 when one does not (the reason on stdout).
"""
import json
import sys

import chess


def identity(board):
    return board.epd()


def board_of(fen):
    return chess.Board(fen)


class Invalid(Exception):
    pass


def attacker_of(cert):
    side = cert.get("attacker")
    if side not in ("white", "black"):
        raise Invalid(f"attacker {side!r}")
    return chess.WHITE if side == "white" else chess.BLACK


def check_proof(cert):
    attacker = attacker_of(cert)
    strategy = {}
    for entry in cert.get("strategy", []):
        board = board_of(entry["fen"])
        if board.turn != attacker:
            raise Invalid(f"{entry['fen']}: the attacker is not to move")
        strategy[identity(board)] = (board, entry["check"])
    if not strategy:
        raise Invalid("an empty strategy")
    start = board_of(cert["start"])
    if start.turn == attacker:
        if identity(start) not in strategy:
            raise Invalid("the start is not in the strategy")
    else:
        moves = list(start.legal_moves)
        if not moves:
            raise Invalid("the start has no legal move")
        for m in moves:
            after = start.copy(stack=False)
            after.push(m)
            if identity(after) not in strategy:
                raise Invalid(f"the defender's {m.uci()} at the start leads out of the strategy")
    for key, (board, check_text) in strategy.items():
        try:
            check = chess.Move.from_uci(check_text)
        except ValueError:
            raise Invalid(f"{board.fen()}: {check_text!r} is no move")
        if check not in board.legal_moves:
            raise Invalid(f"{board.fen()}: {check_text} is not legal")
        if not board.gives_check(check):
            raise Invalid(f"{board.fen()}: {check_text} gives no check")
        after = board.copy(stack=False)
        after.push(check)
        for reply in after.legal_moves:
            nxt = after.copy(stack=False)
            nxt.push(reply)
            if identity(nxt) not in strategy:
                raise Invalid(
                    f"{board.fen()}: after {check_text} the reply {reply.uci()} leads out of "
                    "the strategy")
    return f"proof of {len(strategy)} positions holds"


def check_refutation(cert):
    attacker = attacker_of(cert)
    listed = {}
    for entry in cert.get("refutation", []):
        board = board_of(entry["fen"])
        if board.turn != attacker:
            raise Invalid(f"{entry['fen']}: the attacker is not to move")
        answers = {}
        for pair in entry["answers"]:
            if pair["check"] in answers:
                raise Invalid(f"{entry['fen']}: {pair['check']} answered twice")
            answers[pair["check"]] = pair["reply"]
        listed[identity(board)] = (board, answers)
    start = board_of(cert["start"])
    if start.turn == attacker:
        first = identity(start)
    else:
        text = cert.get("first_reply")
        if text is None:
            raise Invalid("the defender is to move at the start and no first reply is given")
        m = chess.Move.from_uci(text)
        if m not in start.legal_moves:
            raise Invalid(f"the first reply {text} is not legal")
        after = start.copy(stack=False)
        after.push(m)
        first = identity(after)
    if first not in listed:
        raise Invalid("the first attacker-to-move position is not listed")
    edges = {}
    for key, (board, answers) in listed.items():
        checks = {m.uci() for m in board.legal_moves if board.gives_check(m)}
        if checks != set(answers):
            missing = sorted(checks - set(answers))
            extra = sorted(set(answers) - checks)
            raise Invalid(f"{board.fen()}: checks not answered {missing}, not checks {extra}")
        edges[key] = []
        for check_text, reply_text in answers.items():
            after = board.copy(stack=False)
            after.push(chess.Move.from_uci(check_text))
            reply = chess.Move.from_uci(reply_text)
            if reply not in after.legal_moves:
                raise Invalid(f"{board.fen()}: after {check_text}, {reply_text} is not legal")
            after.push(reply)
            nxt = identity(after)
            if nxt not in listed:
                raise Invalid(
                    f"{board.fen()}: {check_text} {reply_text} leads to a position not listed")
            edges[key].append(nxt)
    # No cycle: iterative depth-first search with colours.
    colour = {key: 0 for key in listed}
    for root in listed:
        if colour[root]:
            continue
        stack = [(root, iter(edges[root]))]
        colour[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                colour[node] = 2
                stack.pop()
            elif colour[nxt] == 1:
                raise Invalid(f"the refutation has a cycle through {nxt}")
            elif colour[nxt] == 0:
                colour[nxt] = 1
                stack.append((nxt, iter(edges[nxt])))
    return f"refutation of {len(listed)} positions holds"


def check(cert):
    """The verdict on one certificate: (holds, why)."""
    try:
        result = cert.get("result")
        if result == "proven":
            return True, check_proof(cert)
        if result == "refuted":
            return True, check_refutation(cert)
        if result == "unknown":
            return True, "unknown: nothing to check"
        raise Invalid(f"result {result!r}")
    except Invalid as e:
        return False, str(e)
    except (KeyError, TypeError, ValueError) as e:
        return False, f"malformed certificate: {e!r}"


def main(paths):
    sources = [open(p) for p in paths] if paths else [sys.stdin]
    bad = 0
    for source in sources:
        for line in source:
            if not line.strip():
                continue
            holds, why = check(json.loads(line))
            print(("ok: " if holds else "REJECTED: ") + why)
            bad += not holds
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

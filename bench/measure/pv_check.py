#!/usr/bin/env python3
"""Checks every principal variation Threefold prints in self-play games against the draw rules.

    python3 bench/measure/pv_check.py [--engine target/release/threefold] [--games 20] [--nodes 20000] \
        [--book FILE.epd] [--seed 1]

Plays self-play games (one engine process, the game's whole history sent every move, as GUIs
do), reads every `info ... pv` line of every search, and replays each PV after the game with
python-chess. A PV must stop at the move that completes a repetition (as the engine counts it:
a position seen earlier in the line after the root, or a threefold with the game) or that
reaches halfmove 100 without mating; a move after that is a violation. Prints the lines
checked and every violation; exit status 1 if there is one. Games start from random openings of
the book when there is one (start position otherwise) and end by the rules or after 300 plies.
Needs `pip install chess`.
"""
import argparse
import os
import random
import sys

import chess
import chess.engine

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from paths import BOOK, ENGINE


def key(board):
    return board._transposition_key()


def violation(game_board, pv):
    """Where `pv` played after the game goes on past a draw by rule, or None."""
    board = game_board.copy()
    # Keys of the game's positions since its last irreversible move; the root is the last.
    history = []
    replay = game_board.copy()
    stack = []
    while replay.move_stack:
        stack.append(replay.pop())
        history.append(key(replay))
        if replay.halfmove_clock == 0:
            break
    history.reverse()
    history.append(key(board))
    root = len(history) - 1
    for i, move in enumerate(pv):
        if move not in board.legal_moves:
            return f'illegal move {move.uci()} at {i + 1}'
        board.push(move)
        k = key(board)
        lowest = max(0, len(history) - board.halfmove_clock)
        earlier = [j for j in range(lowest, len(history)) if history[j] == k]
        history.append(k)
        drawn = any(j > root for j in earlier) or len(earlier) >= 2
        if board.halfmove_clock >= 100 and not board.is_checkmate():
            drawn = True
        if drawn and i + 1 < len(pv):
            return f'goes on after move {i + 1} ({move.uci()}), a draw by rule'
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--engine', default=ENGINE)
    ap.add_argument('--games', type=int, default=20)
    ap.add_argument('--nodes', type=int, default=20000)
    ap.add_argument('--book', default=BOOK)
    ap.add_argument('--seed', type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    openings = []
    if args.book and os.path.exists(args.book):
        with open(args.book) as f:
            openings = [' '.join(line.split()[:4]) + ' 0 1' for line in f if line.strip()]
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    checked = 0
    problems = []
    for number in range(1, args.games + 1):
        board = chess.Board(rng.choice(openings)) if openings else chess.Board()
        game = object()
        while not board.is_game_over(claim_draw=False) and board.ply() < 300 \
                and not board.can_claim_fifty_moves() and not board.is_repetition(3):
            best = None
            with engine.analysis(board, chess.engine.Limit(nodes=args.nodes), game=game) as analysis:
                for info in analysis:
                    pv = info.get('pv')
                    if not pv:
                        continue
                    checked += 1
                    best = pv[0]
                    wrong = violation(board, pv)
                    if wrong:
                        problems.append(f"game {number} {board.fen()} pv {' '.join(m.uci() for m in pv)}: {wrong}")
                        print(problems[-1], flush=True)
            if best is None or best not in board.legal_moves:
                break
            board.push(best)
        print(f'game {number}: {board.ply()} plies, {board.result(claim_draw=True)}', file=sys.stderr)
    engine.quit()
    print(f'{checked} pv lines checked in {args.games} games, {len(problems)} violations')
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()

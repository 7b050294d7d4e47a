#!/usr/bin/env python3
"""Writes tests/data/seed-games.pgn from tests/data/seed-games.json (python-chess for SAN).

  python3 bench/suites/seed_pgn.py > tests/data/seed-games.pgn
"""
import json, os, sys
import chess, chess.pgn

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from paths import TEST_DATA

cases = json.load(open(os.path.join(TEST_DATA, 'seed-games.json')))
for name, case in cases.items():
    board = chess.Board(case['fen'])
    game = chess.pgn.Game()
    game.headers['Event'] = name
    game.headers['White'] = case.get('source', name).split(',')[0]
    game.headers['Black'] = '?'
    game.headers['Result'] = '*'
    if case['fen'] != chess.STARTING_FEN:
        game.setup(board)
    node = game
    for uci in case['moves']:
        node = node.add_variation(chess.Move.from_uci(uci))
    print(game, end='\n\n')

#!/usr/bin/env python3
"""Writes tests/data/seed-games.pgn from tests/data/seed-games.json (python-chess for SAN).

  python3 bench/seed_pgn.py > tests/data/seed-games.pgn
"""
import json, os, sys
import chess, chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
cases = json.load(open(os.path.join(HERE, '..', 'tests', 'data', 'seed-games.json')))
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

"""Endgame openings for self-play datagen, taken from Threefold's own games.

Reads `threefold datagen` files (through `datagen --dump`), keeps the positions of endgames
with pawns that the search scored within --max-score, and writes a random sample of them as a
FEN file for `threefold datagen --book`. Self-play from such positions plays many more endgames
to their end than games from the opening do, so that the game results can teach what the
search at datagen's depth does not see: fortresses, rook endings a pawn up that are drawn.

    python3 bench/training/endgame_book.py --out nnue/endgames.epd --count 20000 \
        DIR/s1[0-7]-*.tfd DIR/s[89]-*.tfd

(the files in that order made nnue/endgames.epd; `nnue/DATA.md`, batch s19). Phase counts a
knight or bishop 1, a rook 2 and a queen 4, as `threefold train --wdl-endgame` does; a
position is an endgame here from phase --min-phase to --max-phase with at least one pawn.
`--pieces rq` keeps only the endgames whose pieces other than kings and pawns are all of those
kinds (`--pieces r --max-phase 4`: the rook endings, where the rook against pawns comes from).
"""
import argparse
import os
import random
import sys

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from datagen_dump import dump_rows
from paths import ENGINE

PHASE = {'n': 1, 'b': 1, 'r': 2, 'q': 4}


def phase(board):
    return sum(PHASE.get(c.lower(), 0) for c in board)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('files', nargs='+', help='datagen files, read in this order')
    ap.add_argument('--out', required=True, help='the FEN file to write')
    ap.add_argument('--count', type=int, default=20000, help='positions to write')
    ap.add_argument('--engine', default=ENGINE)
    ap.add_argument('--min-phase', type=int, default=2)
    ap.add_argument('--max-phase', type=int, default=8)
    ap.add_argument('--max-score', type=int, default=600, help='centipawns, either side')
    ap.add_argument('--share', type=float, default=0.05,
                    help='the share of the distinct endgame positions sampled before shuffling')
    ap.add_argument('--seed', type=int, default=7)
    ap.add_argument('--pieces', default='nbrq',
                    help='the kinds of pieces (of n, b, r, q) an endgame may have beside kings and pawns')
    args = ap.parse_args()

    allowed = set(args.pieces.lower())
    if not allowed <= set('nbrq'):
        sys.exit(f'--pieces {args.pieces!r}: only the letters n, b, r and q')
    rng = random.Random(args.seed)
    seen = set()
    sample = []
    for path in args.files:
        for fen, _move, score, _result in dump_rows(args.engine, path):
            board = fen.split()[0]
            if not args.min_phase <= phase(board) <= args.max_phase:
                continue
            if not any(c in 'Pp' for c in board) or abs(score) > args.max_score:
                continue
            if any(c.lower() in 'nbrq' and c.lower() not in allowed for c in board):
                continue
            # One entry a position (board, side, castling, en passant), whatever its clocks.
            key = ' '.join(fen.split()[:4])
            if key in seen:
                continue
            seen.add(key)
            if rng.random() < args.share:
                sample.append(fen)
    rng.shuffle(sample)
    with open(args.out, 'w') as out:
        out.write(''.join(f + '\n' for f in sample[:args.count]))
    print(f'{len(seen)} distinct endgame positions, {len(sample)} sampled, '
          f'{min(len(sample), args.count)} written to {args.out}')


if __name__ == '__main__':
    main()

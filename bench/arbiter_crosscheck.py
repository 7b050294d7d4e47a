#!/usr/bin/env python3
"""Cross-checks `threefold arbiter --json` against python-chess, an independent implementation
of position identity, on generated games full of repetitions.

  python3 bench/arbiter_crosscheck.py [--games 10000] [--seed 1] [--engine target/release/threefold]
                                      [--keep games.pgn]

Games are random but shuffle a lot: a side often moves the piece it just moved back, so
positions recur, threefolds and fivefolds happen, and the fifty- and seventy-five-move rules
come into play. For every game the script computes with python-chess, following FIDE rules:
the plies of every position seen three or more times, the first threefold and fifty-move claim
of each side (now, or by announcing a move), and the first automatic end. It then compares them
with the arbiter's JSON. Exit status 1 on any disagreement. Needs `pip install chess`.
"""
import argparse, io, json, random, subprocess, sys, time
import chess, chess.pgn

from paths import ENGINE


# Sparse starts: long runs without captures or pawn moves reach the fifty- and
# seventy-five-move rules, and some captures leave dead positions.
ENDGAMES = [
    '4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1',
    '2r1k3/8/8/8/8/8/8/4K1R1 w - - 0 1',
    '4k3/8/3n4/8/8/4B3/8/4K3 w - - 0 1',
    '4k3/8/8/3q4/8/8/3Q4/4K3 b - - 0 1',
    'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1',
    '4k3/8/2n5/8/8/5N2/8/4K3 w - - 0 1',
]


def generate(rng, max_plies):
    """A random game that likes to move the last-moved piece back (how much varies by game)."""
    board = chess.Board(rng.choice(ENDGAMES)) if rng.random() < 0.2 else chess.Board()
    undo_rate = rng.choice([0.0, 0.2, 0.5, 0.7, 0.9])
    last = {chess.WHITE: None, chess.BLACK: None}
    while len(board.move_stack) < max_plies and not board.is_game_over(claim_draw=False):
        moves = list(board.legal_moves)
        back = last[board.turn]
        undo = chess.Move(back.to_square, back.from_square) if back else None
        if undo in moves and rng.random() < undo_rate:
            move = undo
        else:
            quiet = [m for m in moves if not board.is_capture(m) and board.piece_type_at(m.from_square) != chess.PAWN]
            pool = quiet if quiet and rng.random() < 0.8 else moves
            move = rng.choice(pool)
        last[board.turn] = move
        board.push(move)
    return board


def key(board):
    return board._transposition_key()


def expected(board_end):
    """What the rules say about the game in `board_end`, computed with python-chess."""
    moves = list(board_end.move_stack)
    board = board_end.root()
    counts, plies_of = {}, {}
    claims, end = {}, None

    def arrive(ply):
        nonlocal end
        k = key(board)
        counts[k] = counts.get(k, 0) + 1
        plies_of.setdefault(k, []).append(ply)
        if end is not None:
            return
        side = 'white' if board.turn == chess.WHITE else 'black'
        if ('threefold', side) not in claims:
            if counts[k] >= 3:
                claims[('threefold', side)] = (ply, False)
            elif any(c >= 2 for c in counts.values()):
                for m in board.legal_moves:
                    board.push(m)
                    hit = counts.get(key(board), 0) >= 2
                    board.pop()
                    if hit:
                        claims[('threefold', side)] = (ply, True)
                        break
        if ('fifty', side) not in claims:
            if board.halfmove_clock >= 100 and not board.is_checkmate():
                claims[('fifty', side)] = (ply, False)
            elif board.halfmove_clock == 99:
                for m in board.legal_moves:
                    zeroing = board.is_zeroing(m)
                    board.push(m)
                    mate = board.is_checkmate()
                    board.pop()
                    if not zeroing and not mate:
                        claims[('fifty', side)] = (ply, True)
                        break
        if counts[k] >= 5:
            end = ('fivefold', ply)
        elif board.halfmove_clock >= 150 and not board.is_checkmate():
            end = ('seventy-five', ply)
        elif board.is_insufficient_material():
            end = ('insufficient_material', ply)

    arrive(0)
    for i, m in enumerate(moves):
        if board.is_zeroing(m):
            counts.clear()
        board.push(m)
        arrive(i + 1)
    if end is None:
        if board.is_checkmate():
            end = ('checkmate', len(moves))
        elif board.is_stalemate():
            end = ('stalemate', len(moves))
    reps = sorted(p for p in plies_of.values() if len(p) >= 3)
    return reps, claims, end


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--games', type=int, default=10000)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--max-plies', type=int, default=300)
    ap.add_argument('--engine', default=ENGINE)
    ap.add_argument('--keep', help='also write the generated PGN here')
    a = ap.parse_args()
    rng = random.Random(a.seed)
    t0 = time.time()
    boards = [generate(rng, a.max_plies) for _ in range(a.games)]
    pgn = io.StringIO()
    for i, b in enumerate(boards):
        game = chess.pgn.Game.from_board(b)
        game.headers['Event'] = f'crosscheck {a.seed}/{i + 1}'
        print(game, file=pgn, end='\n\n')
    text = pgn.getvalue()
    if a.keep:
        with open(a.keep, 'w') as f:
            f.write(text)
    out = subprocess.run([a.engine, 'arbiter', '--json'], input=text, capture_output=True, text=True)
    got = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    if len(got) != len(boards):
        print(f'arbiter judged {len(got)} games of {len(boards)}: {out.stderr[:500]}')
        sys.exit(1)
    bad = 0
    stats = {'repetitions': 0, 'claims': 0, 'ends': 0, 'plies': 0}
    kinds = {}
    for b, g in zip(boards, got):
        reps, claims, end = expected(b)
        stats['plies'] += len(b.move_stack)
        stats['repetitions'] += len(reps)
        stats['claims'] += len(claims)
        stats['ends'] += end is not None
        for (rule, _side), (_ply, announced) in claims.items():
            k = f'{rule} {"by announcing" if announced else "now"}'
            kinds[k] = kinds.get(k, 0) + 1
        if end:
            kinds[end[0]] = kinds.get(end[0], 0) + 1
        mine_reps = sorted(r['occurrences'] for r in g['repetitions'])
        mine_claims = {(c['rule'], c['side']): (c['ply'], c['by_announcing_move'] is not None) for c in g['claims']}
        e = g['automatic_end']
        mine_end = (e['rule'], e['ply']) if e else None
        problems = []
        if mine_reps != reps:
            problems.append(f'repetitions {mine_reps} != {reps}')
        if mine_claims != claims:
            problems.append(f'claims {mine_claims} != {claims}')
        if mine_end != end:
            problems.append(f'automatic end {mine_end} != {end}')
        if g['error']:
            problems.append(f'error {g["error"]}')
        if problems:
            bad += 1
            if bad <= 10:
                print(f'game {g["game"]}: ' + '; '.join(problems))
    print(f'{len(boards)} games, {stats["plies"]} plies, {stats["repetitions"]} positions seen 3+ times, '
          f'{stats["claims"]} first claims, {stats["ends"]} automatic ends: {bad} disagreements '
          f'({time.time() - t0:.0f} s)')
    print('by kind: ' + ', '.join(f'{k} {v}' for k, v in sorted(kinds.items())))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()

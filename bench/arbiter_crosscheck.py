#!/usr/bin/env python3
"""Cross-checks `threefold arbiter --json` against python-chess, an independent implementation
of position identity, on generated games full of repetitions and game ends.

  python3 bench/arbiter_crosscheck.py [--games 10000] [--seed 1] [--engine target/release/threefold]
                                      [--keep games.pgn]

Games are random but shuffle a lot: a side often moves the piece it just moved back, so
positions recur, threefolds and fivefolds happen, and the fifty- and seventy-five-move rules
come into play. A share of the games start from mating material (K+Q, K+R, K+P, two bishops...)
with the halfmove clock already high, and the strong side often squeezes (plays the move that
leaves the other side fewest replies), so checkmates and stalemates land near and on the 100th
and 150th halfmove, where claims and automatic ends meet.

For every game the script computes with python-chess, following FIDE rules and the arbiter's
documented order of precedence (checkmate, stalemate, fivefold, seventy-five moves,
insufficient material): the plies of every position seen three or more times, the first
threefold and fifty-move claim of each side (now, or by announcing a move that does not itself
end the game), and the first automatic end; once the game has ended nothing can be claimed.
python-chess's own `outcome()` and `can_claim_fifty_moves()` are checked against this too (they
may differ only in naming an end when two rules hold at once). It then compares everything with
the arbiter's JSON. Exit status 1 on any disagreement. Needs `pip install chess`.
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

# Mating material against a bare king (and a few where only stalemate or a dead position can
# come): the games end by mate or stalemate, often near the move-count limits.
MATING = [
    '8/8/8/4k3/8/8/8/3QK3 w - - 0 1',
    '7k/8/8/8/8/8/8/1Q2K3 w - - 0 1',
    'k7/8/8/8/8/8/8/1R2K3 w - - 0 1',
    '4k3/8/8/8/8/8/8/2R1K2R w - - 0 1',
    '8/8/8/8/4k3/8/4P3/4K3 w - - 0 1',
    '8/4P3/8/8/8/2k5/8/4K3 w - - 0 1',
    '7k/8/8/8/8/8/8/2B1KB2 w - - 0 1',
    '7k/8/8/8/8/8/8/1N2K1N1 w - - 0 1',
    '8/8/8/3k4/8/8/7q/1Q2K3 b - - 0 1',
    'k7/8/1K6/8/8/8/8/2Q5 w - - 0 1',
]


def with_clock(fen, clock):
    parts = fen.split()
    parts[4] = str(clock)
    return ' '.join(parts)


def squeeze(board, moves, rng):
    """The move that leaves the opponent fewest legal replies (mates first), ties at random."""
    best, best_n = [], None
    for m in moves:
        board.push(m)
        n = board.legal_moves.count()
        if n == 0 and not board.is_check():
            n = 0.5  # stalemate: tempting, but after mate
        board.pop()
        if best_n is None or n < best_n:
            best, best_n = [m], n
        elif n == best_n:
            best.append(m)
    return rng.choice(best)


def generate(rng, max_plies):
    """A random game that likes to move the last-moved piece back (how much varies by game);
    some start from mating material with a high clock and squeeze towards mate or stalemate."""
    kind = rng.random()
    squeeze_rate = 0.0
    if kind < 0.2:
        board = chess.Board(rng.choice(ENDGAMES))
    elif kind < 0.55:
        fen = rng.choice(MATING)
        clock = rng.choice([0, rng.randrange(60, 100), rng.randrange(90, 150), rng.randrange(130, 150)])
        board = chess.Board(with_clock(fen, clock))
        squeeze_rate = rng.choice([0.2, 0.4, 0.7])
    else:
        board = chess.Board()
    undo_rate = rng.choice([0.0, 0.2, 0.5, 0.7, 0.9])
    last = {chess.WHITE: None, chess.BLACK: None}
    while len(board.move_stack) < max_plies and not board.is_game_over(claim_draw=False):
        moves = list(board.legal_moves)
        back = last[board.turn]
        undo = chess.Move(back.to_square, back.from_square) if back else None
        if squeeze_rate and rng.random() < squeeze_rate:
            move = squeeze(board, moves, rng)
        elif undo in moves and rng.random() < undo_rate:
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


def end_of(board, occurrences):
    """The automatic end of `board` (seen `occurrences` times), in the arbiter's order."""
    if board.is_checkmate():
        return 'checkmate'
    if board.is_stalemate():
        return 'stalemate'
    if occurrences >= 5:
        return 'fivefold'
    if board.halfmove_clock >= 150:
        return 'seventy-five'
    if board.is_insufficient_material():
        return 'insufficient_material'
    return None


# python-chess's names for the ends, and the rule each one is.
PC_NAMES = {
    chess.Termination.CHECKMATE: 'checkmate',
    chess.Termination.STALEMATE: 'stalemate',
    chess.Termination.INSUFFICIENT_MATERIAL: 'insufficient_material',
    chess.Termination.SEVENTYFIVE_MOVES: 'seventy-five',
    chess.Termination.FIVEFOLD_REPETITION: 'fivefold',
}


def holds(board, rule, occurrences):
    """Whether `rule` holds for `board` by itself (to accept python-chess naming another end
    when two hold at once)."""
    return {
        'checkmate': board.is_checkmate(),
        'stalemate': board.is_stalemate(),
        'fivefold': occurrences >= 5,
        'seventy-five': board.halfmove_clock >= 150 and not board.is_checkmate(),
        'insufficient_material': board.is_insufficient_material(),
    }[rule]


def expected(board_end):
    """What the rules say about the game in `board_end`, computed with python-chess; also the
    ways python-chess's own game-end and fifty-move functions disagree with that."""
    moves = list(board_end.move_stack)
    board = board_end.root()
    counts, plies_of = {}, {}
    claims, end = {}, None
    internal = []

    def after(m):
        """How often the position after `m` would then have occurred, and whether `m` would
        end the game by itself."""
        board.push(m)
        n = counts.get(key(board), 0) + 1
        ends = end_of(board, n) is not None
        board.pop()
        return n, ends

    def arrive(ply):
        nonlocal end
        k = key(board)
        counts[k] = counts.get(k, 0) + 1
        plies_of.setdefault(k, []).append(ply)
        if end is not None:
            return
        e = end_of(board, counts[k])
        pc = board.outcome()
        pc_name = PC_NAMES.get(pc.termination) if pc else None
        if (e is None) != (pc is None) or (e and pc_name != e and not holds(board, pc_name, counts[k])):
            internal.append(f'ply {ply}: python-chess outcome {pc_name} but the rules say {e}')
        if e is not None:
            end = (e, ply)
            return
        side = 'white' if board.turn == chess.WHITE else 'black'
        if ('threefold', side) not in claims:
            if counts[k] >= 3:
                claims[('threefold', side)] = (ply, False)
            elif any(c >= 2 for c in counts.values()):
                for m in board.legal_moves:
                    n, ends = after(m)
                    if n >= 3 and not ends:
                        claims[('threefold', side)] = (ply, True)
                        break
        fifty = None
        if board.halfmove_clock >= 100:
            fifty = (ply, False)
        elif board.halfmove_clock == 99:
            for m in board.legal_moves:
                if board.is_zeroing(m):
                    continue
                _, ends = after(m)
                if not ends:
                    fifty = (ply, True)
                    break
        if board.halfmove_clock >= 99 and (fifty is not None) != board.can_claim_fifty_moves():
            internal.append(f'ply {ply}: python-chess can_claim_fifty_moves {not fifty} but the rules say {fifty}')
        if fifty and ('fifty', side) not in claims:
            claims[('fifty', side)] = fifty

    arrive(0)
    for i, m in enumerate(moves):
        if board.is_zeroing(m):
            counts.clear()
        board.push(m)
        arrive(i + 1)
    reps = sorted(p for p in plies_of.values() if len(p) >= 3)
    return reps, claims, end, internal


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
        reps, claims, end, internal = expected(b)
        stats['plies'] += len(b.move_stack)
        stats['repetitions'] += len(reps)
        stats['claims'] += len(claims)
        stats['ends'] += end is not None
        for (rule, _side), (_ply, announced) in claims.items():
            k = f'{rule} {"by announcing" if announced else "now"}'
            kinds[k] = kinds.get(k, 0) + 1
        if end:
            kinds[end[0]] = kinds.get(end[0], 0) + 1
            if any(c[0] == end[1] for c in claims.values()):
                kinds['claim at the end ply (must not happen)'] = kinds.get('claim at the end ply (must not happen)', 0) + 1
            board_at_end = b.copy()
            for _ in range(len(b.move_stack) - end[1]):
                board_at_end.pop()
            if end[0] in ('checkmate', 'stalemate') and board_at_end.halfmove_clock >= 95:
                k = f'{end[0]} at halfmove clock >= 95'
                kinds[k] = kinds.get(k, 0) + 1
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
        problems += internal
        if problems:
            bad += 1
            if bad <= 10:
                print(f'game {g["game"]} ({b.root().fen()}): ' + '; '.join(problems))
    print(f'{len(boards)} games, {stats["plies"]} plies, {stats["repetitions"]} positions seen 3+ times, '
          f'{stats["claims"]} first claims, {stats["ends"]} automatic ends: {bad} disagreements '
          f'({time.time() - t0:.0f} s)')
    print('by kind: ' + ', '.join(f'{k} {v}' for k, v in sorted(kinds.items())))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()

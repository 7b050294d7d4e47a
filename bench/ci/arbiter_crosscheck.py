#!/usr/bin/env python3
"""Cross-checks `threefold arbiter --json` against python-chess, an independent implementation
of position identity, on generated games full of repetitions and game ends.

  python3 bench/ci/arbiter_crosscheck.py [--games 10000] [--seed 1] [--engine target/release/threefold]
                                         [--keep games.pgn] [--jobs N]

Games are random but shuffle a lot: a side often moves the piece it just moved back, so
positions recur, threefolds and fivefolds happen, and the fifty- and seventy-five-move rules
come into play. A share of the games start from mating material (K+Q, K+R, K+P, two bishops...)
with the halfmove clock already high, and the strong side often squeezes (plays the move that
leaves the other side fewest replies), so checkmates and stalemates land near and on the 100th
and 150th halfmove, where claims and automatic ends meet. Another share starts next to a pawn
that is pinned (on a file, a diagonal, or with its king on the rank) and seeks the double push
beside it: en passant is then pseudo-legal but illegal, so the position after the push is the
same as the one after the next shuffle back and forth (the rule a pseudo-legal en passant key
gets wrong). Games go on past a fivefold, the seventy-five-move rule or a dead position for a
few moves, or stop there; after a checkmate or stalemate some get a move or two written on
(void); the Result tag is the right one or a random one.

For every game the script computes with python-chess, following FIDE rules and the arbiter's
documented order of precedence (checkmate, stalemate, fivefold, seventy-five moves,
insufficient material): the plies of every position seen three or more times, the first
threefold and fifty-move claim of each side (now, or by announcing a move that does not itself
end the game), and the first automatic end; once the game has ended nothing can be claimed.
python-chess's own `outcome()` and `can_claim_fifty_moves()` are checked against this too (they
may differ only in naming an end when two rules hold at once). It then compares everything with
the arbiter's JSON: the plies and FEN of every repetition, each claim's ply and announced move
(one of the moves python-chess finds, with its numbered SAN), the automatic end, the plies read,
`void_moves`, `result_consistent`, no error, and the arbiter's exit status. Exit status 1 on any
disagreement, and when the games contain no pinned en passant position that repeats (the
generator must reach them); 2 for bad arguments. Needs `pip install chess`; uses all CPU cores.
"""
import argparse, json, multiprocessing, os, random, subprocess, sys, time
import chess, chess.pgn

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
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


# A pawn pinned (file, diagonal, king on the rank) beside the double push the side to move has:
# after the push en passant is pseudo-legal but illegal.
PINS = [
    '1n2r1k1/3p4/8/4P3/8/8/8/1N2K3 b - - 0 1',
    'kn5b/3p1p2/8/4P3/8/8/1K6/1N6 b - - 0 1',
    '6nk/3p4/8/K3P2r/8/8/8/1N6 b - - 0 1',
    '3k2n1/8/8/8/3p4/8/2P1P3/1N1R2K1 w - - 0 1',
    '7K/8/8/8/k2p3R/8/2P1P3/1N4n1 w - - 0 1',
]

# Written after a checkmate or stalemate (void; any SAN will do).
VOID_MOVES = ['Kf2', 'Qxf2', 'a3', 'Nc3', 'O-O', 'Rd1+']

RESULTS = ['1-0', '0-1', '1/2-1/2', '*']


def pinned_en_passant(board):
    """En passant is pseudo-legal but not legal here."""
    return (board.ep_square is not None and board.has_pseudo_legal_en_passant()
            and not board.has_legal_en_passant())


def pin_push(board, moves):
    """A double pawn push after which en passant is pseudo-legal but illegal, if any."""
    for m in moves:
        if board.piece_type_at(m.from_square) == chess.PAWN and abs(m.to_square - m.from_square) == 16:
            board.push(m)
            pinned = pinned_en_passant(board)
            board.pop()
            if pinned:
                return m
    return None


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
    some start from mating material with a high clock and squeeze towards mate or stalemate,
    some beside pinned pawns and seek the double push that makes en passant pseudo-legal only.
    Returns the board and the number of void moves to write after a checkmate or stalemate."""
    kind = rng.random()
    squeeze_rate = seek_pins = 0.0
    if kind < 0.15:
        board = chess.Board(rng.choice(ENDGAMES))
    elif kind < 0.45:
        fen = rng.choice(MATING)
        clock = rng.choice([0, rng.randrange(60, 100), rng.randrange(90, 150), rng.randrange(130, 150)])
        board = chess.Board(with_clock(fen, clock))
        squeeze_rate = rng.choice([0.2, 0.4, 0.7])
    elif kind < 0.6:
        board = chess.Board(rng.choice(PINS))
        seek_pins = 0.8
    else:
        board = chess.Board()
        seek_pins = 0.05
    undo_rate = rng.choice([0.0, 0.2, 0.5, 0.7, 0.9])
    if seek_pins >= 0.5:
        undo_rate = rng.choice([0.7, 0.9])
    last = {chess.WHITE: None, chess.BLACK: None}
    stop_at = max_plies
    while len(board.move_stack) < stop_at:
        moves = list(board.legal_moves)
        if not moves:
            break
        if stop_at == max_plies and board.is_game_over(claim_draw=False):
            # The first automatic end: stop here, or record a few more (void) moves.
            if rng.random() < 0.5:
                break
            stop_at = min(max_plies, len(board.move_stack) + rng.randrange(1, 12))
        back = last[board.turn]
        undo = chess.Move(back.to_square, back.from_square) if back else None
        pin = pin_push(board, moves) if seek_pins and rng.random() < seek_pins else None
        if pin:
            move = pin
        elif squeeze_rate and rng.random() < squeeze_rate:
            move = squeeze(board, moves, rng)
        elif undo in moves and rng.random() < undo_rate:
            move = undo
        else:
            quiet = [m for m in moves if not board.is_capture(m) and board.piece_type_at(m.from_square) != chess.PAWN]
            pool = quiet if quiet and rng.random() < 0.8 else moves
            move = rng.choice(pool)
        last[board.turn] = move
        board.push(move)
    void = 0
    if not any(board.generate_legal_moves()) and rng.random() < 0.3:
        void = rng.randrange(1, 3)
    return board, void


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


def fen_of(board):
    """The FEN without the move counters, en passant only when legal (the arbiter's)."""
    return ' '.join(board.fen(en_passant='legal').split()[:4])


def label(board, m):
    """A move as the arbiter names it: number, dots, SAN ("34.Qe2", "26...Ra4")."""
    dots = '.' if board.turn == chess.WHITE else '...'
    return f'{board.fullmove_number}{dots}{board.san(m)}'


def consistent(result, end, loser):
    """Whether a Result tag agrees with the automatic end."""
    if end is None:
        return True
    if end[0] == 'checkmate':
        return result == ('0-1' if loser == chess.WHITE else '1-0')
    return result == '1/2-1/2'


def expected(board_end, void, result):
    """What the rules say about the game in `board_end` (with `void` moves written after a
    checkmate or stalemate, tagged `result`), computed with python-chess; also the ways
    python-chess's own game-end and fifty-move functions disagree with that, and counts."""
    moves = list(board_end.move_stack)
    board = board_end.root()
    counts, plies_of, fens = {}, {}, {}
    claims, end, loser = {}, None, None
    internal = []
    pinned_keys = set()

    def after(m):
        """How often the position after `m` would then have occurred, and whether `m` would
        end the game by itself."""
        board.push(m)
        n = counts.get(key(board), 0) + 1
        ends = end_of(board, n) is not None
        board.pop()
        return n, ends

    def arrive(ply):
        nonlocal end, loser
        k = key(board)
        counts[k] = counts.get(k, 0) + 1
        plies_of.setdefault(k, []).append(ply)
        if counts[k] == 2:
            fens[k] = fen_of(board)
        if pinned_en_passant(board):
            pinned_keys.add(k)
        if end is not None:
            return
        e = end_of(board, counts[k])
        pc = board.outcome()
        pc_name = PC_NAMES.get(pc.termination) if pc else None
        if (e is None) != (pc is None) or (e and pc_name != e and not holds(board, pc_name, counts[k])):
            internal.append(f'ply {ply}: python-chess outcome {pc_name} but the rules say {e}')
        if e is not None:
            end = (e, ply)
            loser = board.turn if e == 'checkmate' else None
            return
        side = 'white' if board.turn == chess.WHITE else 'black'
        if ('threefold', side) not in claims:
            if counts[k] >= 3:
                claims[('threefold', side)] = (ply, None)
            elif any(c >= 2 for c in counts.values()):
                announced = {}
                for m in board.legal_moves:
                    n, ends = after(m)
                    if n >= 3 and not ends:
                        announced[m.uci()] = label(board, m)
                if announced:
                    claims[('threefold', side)] = (ply, announced)
        fifty = None
        # python-chess allows a claim by announcing a move that ends the game by itself.
        only_ending_moves = False
        if board.halfmove_clock >= 100:
            fifty = (ply, None)
        elif board.halfmove_clock == 99:
            announced = {}
            for m in board.legal_moves:
                if board.is_zeroing(m):
                    continue
                _, ends = after(m)
                if not ends:
                    announced[m.uci()] = label(board, m)
                only_ending_moves = True  # (moot once a move that does not end is found)
            if announced:
                fifty = (ply, announced)
        pc_fifty = board.can_claim_fifty_moves()
        if board.halfmove_clock >= 99 and (fifty is not None) != pc_fifty and not (pc_fifty and only_ending_moves):
            internal.append(f'ply {ply}: python-chess can_claim_fifty_moves {not fifty} but the rules say {fifty}')
        if fifty and ('fifty', side) not in claims:
            claims[('fifty', side)] = fifty

    arrive(0)
    for i, m in enumerate(moves):
        if board.is_zeroing(m):
            counts.clear()
        board.push(m)
        arrive(i + 1)
    reps = sorted((p, fens[k]) for k, p in plies_of.items() if len(p) >= 3)
    plies = len(moves) + void
    return {
        'reps': reps,
        'claims': claims,
        'end': end,
        'plies': plies,
        'void': plies - end[1] if end else 0,
        'consistent': consistent(result, end, loser),
        'internal': internal,
        'pinned': len(pinned_keys),
        'pinned_repeated': sum(1 for k in pinned_keys if len(plies_of[k]) >= 3),
    }


def make_game(job):
    """Generates game `index` of the run with `seed`: its PGN text and what the rules say."""
    seed, index, max_plies = job
    rng = random.Random(f'{seed}/{index}')
    board, void = generate(rng, max_plies)
    result = board.result(claim_draw=False)
    if rng.random() < 0.4:
        result = rng.choice(RESULTS)
    game = chess.pgn.Game.from_board(board)
    game.headers['Event'] = f'crosscheck {seed}/{index + 1}'
    game.headers['Result'] = result
    text = str(game)
    if void:
        # Moves written after the mate or stalemate, before the result token.
        head, tail = text.rsplit(result, 1)
        text = head + ' '.join(rng.choice(VOID_MOVES) for _ in range(void)) + ' ' + result + tail
    return text, expected(board, void, result), board.root().fen()


def compare(g, exp):
    """The ways the arbiter's JSON object `g` disagrees with what the rules say."""
    problems = []
    mine_reps = sorted((r['occurrences'], r['fen']) for r in g['repetitions'])
    if mine_reps != exp['reps']:
        problems.append(f'repetitions {mine_reps} != {exp["reps"]}')
    mine_claims = {(c['rule'], c['side']): c for c in g['claims']}
    if set(mine_claims) != set(exp['claims']):
        problems.append(f'claims {sorted(mine_claims)} != {sorted(exp["claims"])}')
    for k, (ply, announced) in exp['claims'].items():
        c = mine_claims.get(k)
        if c is None:
            continue
        move = c['by_announcing_move']
        if c['ply'] != ply:
            problems.append(f'{k} claim at ply {c["ply"]} != {ply}')
        elif (move is None) != (announced is None):
            problems.append(f'{k} claim by announcing {move} != {announced}')
        elif move is not None and announced.get(move) != c['by_announcing_san']:
            problems.append(f'{k} claim announces {move} ({c["by_announcing_san"]}), '
                            f'valid: {sorted(announced.items())}')
    e = g['automatic_end']
    mine_end = (e['rule'], e['ply']) if e else None
    if mine_end != exp['end']:
        problems.append(f'automatic end {mine_end} != {exp["end"]}')
    for field, theirs in [('plies', 'plies'), ('void_moves', 'void'), ('result_consistent', 'consistent')]:
        if g[field] != exp[theirs]:
            problems.append(f'{field} {g[field]} != {exp[theirs]}')
    if g['error']:
        problems.append(f'error {g["error"]}')
    return problems + exp['internal']


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--games', type=int, default=10000)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--max-plies', type=int, default=300)
    ap.add_argument('--engine', default=ENGINE)
    ap.add_argument('--keep', help='also write the generated PGN here')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1, help='processes generating games')
    a = ap.parse_args()
    if a.games < 1 or a.jobs < 1:
        ap.error('--games and --jobs must be at least 1')
    for fen in PINS:
        board = chess.Board(fen)
        assert pin_push(board, list(board.legal_moves)), f'no pinned en passant push in {fen}'
    t0 = time.time()
    jobs = [(a.seed, i, a.max_plies) for i in range(a.games)]
    with multiprocessing.Pool(a.jobs) as pool:
        made = pool.map(make_game, jobs, chunksize=max(1, a.games // (8 * a.jobs)))
    text = '\n\n'.join(t for t, _, _ in made) + '\n'
    if a.keep:
        with open(a.keep, 'w') as f:
            f.write(text)
    out = subprocess.run([a.engine, 'arbiter', '--json'], input=text, capture_output=True, text=True)
    got = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    if len(got) != len(made):
        print(f'arbiter judged {len(got)} games of {len(made)}: {out.stderr[:500]}')
        sys.exit(1)
    bad = 0
    stats = {'repetitions': 0, 'claims': 0, 'ends': 0, 'plies': 0}
    kinds = {}

    def count(k, n=1):
        kinds[k] = kinds.get(k, 0) + n

    faults = False
    for (_, exp, root), g in zip(made, got):
        stats['plies'] += exp['plies']
        stats['repetitions'] += len(exp['reps'])
        stats['claims'] += len(exp['claims'])
        stats['ends'] += exp['end'] is not None
        for (rule, _side), (_ply, announced) in exp['claims'].items():
            count(f'{rule} {"by announcing" if announced else "now"}')
        if exp['end']:
            count(exp['end'][0])
            if any(c[0] == exp['end'][1] for c in exp['claims'].values()):
                count('claim at the end ply (must not happen)')
        count('games with void moves', exp['void'] > 0)
        count('inconsistent results', not exp['consistent'])
        count('pinned en passant positions', exp['pinned'])
        count('pinned en passant positions seen 3+ times', exp['pinned_repeated'])
        faults |= exp['void'] > 0 or not exp['consistent']
        problems = compare(g, exp)
        if problems:
            bad += 1
            if bad <= 10:
                print(f'game {g["game"]} ({root}): ' + '; '.join(problems))
    status = 1 if faults else 0
    if out.returncode != status:
        bad += 1
        print(f'arbiter exit status {out.returncode}, expected {status}: {out.stderr[-300:]}')
    print(f'{len(made)} games, {stats["plies"]} plies, {stats["repetitions"]} positions seen 3+ times, '
          f'{stats["claims"]} first claims, {stats["ends"]} automatic ends: {bad} disagreements '
          f'({time.time() - t0:.0f} s)')
    print('by kind: ' + ', '.join(f'{k} {v}' for k, v in sorted(kinds.items())))
    if a.games >= 1000 and not kinds.get('pinned en passant positions seen 3+ times'):
        print('the games reached no repeated position with a pinned en passant: the check is blind there')
        bad += 1
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()

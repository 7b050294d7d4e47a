#!/usr/bin/env python3
"""Harvests perpetual-check positions (and false perpetuals) from game records for the proof suite.

    python3 bench/suites/harvest_perpetuals.py games.pgn [more.pgn ...] --out bench/data/perpetuals.jsonl \
        [--stockfish /usr/games/stockfish] [--movetime 3000] [--append]
    python3 bench/suites/harvest_perpetuals.py --verify --out bench/data/perpetuals.jsonl [--ids ID,ID]

Every run of three or more consecutive checks by a side that is two pawns or more behind in
material is a candidate: the position before the first check of the run (the checking side to
move), the one before its second check, and the one before the first check's previous move
when that was a capture (a sacrifice followed by checks); and in a game that ended by
repetition, every position of its last ten plies. Stockfish 15.1 (MultiPV 3, one thread, 64 MiB)
first takes a quick look (`--prefilter` ms); a candidate that may qualify is then judged from its
bare FEN at `--movetime` ms:

- perpetual: the best line scores exactly 0.00, its moves repeat a position (the draw is a
  repetition, not a level evaluation), and the second best line scores -200 or worse (so only
  the draw saves the side to move); and the side drawn against cannot leave the repetition
  at no cost: along Stockfish's drawing line, at each of that side's moves up to the repetition,
  Stockfish (MultiPV 4, `--escape-ms`) scores none of its other moves within 0.50 of the draw,
  0.00 itself aside (another way to the draw). A case that fails only this last test is kept as
  *escapable*, with the escape found: its 0.00 rests on evaluating the escape a little below
  the draw, which a proof-speed suite cannot ask of every evaluation;
- false perpetual: the side to move gives check with its best move, but the score is 1.50 or
  more away from 0.00 either way, short of a mate (the checks run out, or the side is better
  off playing on).

Everything else is dropped. Each kept case is one JSON line: the bare FEN, the game's start
position and moves up to the case (its history), the drawing moves (Stockfish's lines at 0.00),
Stockfish's scores, its settle time (when its best line reached 0.00 to stay) and the source.
Positions already in the output (same FEN without counters) are skipped, so the suite grows by
rerunning this on new games with `--append`. Needs `pip install chess`.
"""
import argparse
import json
import os
import sys

import chess
import chess.engine
import chess.pgn

MIN_CHECKS = 3
# A run of checks is a candidate only when the checking side is at least this far behind in
# material (a perpetual saves a lost side; the winning side's checks are usually a mating attack).
MATERIAL_BEHIND = 200
# In a game that ended by repetition, the positions of the last this many plies are candidates.
REPETITION_PLIES = 10
LOST = -200
FAR = 150
# The side drawn against escapes when one of its moves along the drawing line scores within this
# many centipawns of the draw, and not 0.00 (another way to a draw is no escape). A move far
# better than the draw says only that the line went wrong there (Stockfish's line is not all
# best play), not that the draw can be avoided at no cost.
ESCAPE_MARGIN = 50
# Scores at or beyond this are mates (or as good as): a mating attack is no false perpetual.
NOT_MATE = 3000


def board_key(board):
    return ' '.join(board.fen().split()[:4])


VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900}


def behind(game, moves, ply):
    """Material of the side to move at `ply` less the opponent's, in centipawns (at that ply or
    the one before, so a sacrifice just made counts)."""
    worst = None
    for at in (ply, ply - 2):
        if at < 0:
            continue
        board = game.board()
        for m in moves[:at]:
            board.push(m)
        mover = game.board().turn if at % 2 == 0 else not game.board().turn
        diff = sum(v * (len(board.pieces(p, mover)) - len(board.pieces(p, not mover)))
                   for p, v in VALUES.items())
        # After a sacrifice the checking side may be behind only at the later ply.
        worst = diff if worst is None else min(worst, diff)
    return worst


def candidates(game, source):
    """(ply, why) pairs of the positions worth judging in one game."""
    board = game.board()
    moves = list(game.mainline_moves())
    gives_check = []
    captures = []
    for m in moves:
        captures.append(board.is_capture(m))
        board.push(m)
        gives_check.append(board.is_check())
    found = []
    ply = 0
    while ply < len(moves):
        if not gives_check[ply]:
            ply += 1
            continue
        run = 0
        p = ply
        while p < len(moves) and gives_check[p]:
            run += 1
            p += 2
        if run >= MIN_CHECKS and behind(game, moves, ply) <= -MATERIAL_BEHIND:
            ends_game = p >= len(moves)
            found.append((ply, 'checks to the end' if ends_game else 'checks that stop'))
            # The position before the run's second check is another of the same kind.
            found.append((ply + 2, 'second check of the run'))
            if ply >= 2 and captures[ply - 2]:
                found.append((ply - 2, 'capture then checks'))
        ply = p if run >= MIN_CHECKS else ply + 1
    # A game that ended in a repetition: each position of its last cycle, either side to move.
    if board.is_repetition(3):
        for at in range(max(0, len(moves) - REPETITION_PLIES), len(moves)):
            found.append((at, 'in the closing repetition'))
    return [(ply, why, source) for ply, why in found]


def settle_ms(infos):
    """The time of the first multipv-1 report from which every later one scores 0.00."""
    settled = None
    for info in infos:
        score = info['score']
        if score == 0:
            if settled is None:
                settled = info['time']
        else:
            settled = None
    return settled


def pv_repeats(board, pv):
    """True when Stockfish's line, played from `board`, repeats a position, or stops one move
    short of that (its lines are often cut there): its 0.00 is a repetition, not an evaluation
    that happens to be level."""
    board = board.copy()
    for text in pv:
        move = chess.Move.from_uci(text)
        if move not in board.legal_moves:
            return False
        board.push(move)
        if board.is_repetition(2):
            return True
    for move in board.legal_moves:
        board.push(move)
        repeats = board.is_repetition(2)
        board.pop()
        if repeats:
            return True
    return False


def find_escape(engine, board, pv, movetime_ms):
    """Walks Stockfish's drawing line `pv` from `board`; at every node of the side drawn against
    (the opponent of the side to move at `board`), until the line repeats a position, looks at
    that side's moves (MultiPV 4). Returns the first escape, a dict of ply, FEN, move and score,
    or None when the draw is forced: no other move scores within `ESCAPE_MARGIN` of the draw for
    that side, other than 0.00 itself (another repetition, or a draw of another kind). An escape
    scores near the draw by the evaluation alone: the case's 0.00 is then no proof."""
    board = board.copy()
    drawn_against = not board.turn
    for ply, text in enumerate(pv):
        move = chess.Move.from_uci(text)
        if move not in board.legal_moves:
            return None
        if board.turn == drawn_against:
            engine.protocol.send_line('ucinewgame')
            infos = engine.analyse(board, chess.engine.Limit(time=movetime_ms / 1000), multipv=4)
            for info in infos:
                if not info.get('pv') or info['pv'][0] == move:
                    continue
                score = info['score'].pov(board.turn)
                cp = score.score(mate_score=100000)
                if -ESCAPE_MARGIN < cp < ESCAPE_MARGIN and cp != 0:
                    return {'ply': ply, 'fen': board.fen(), 'move': info['pv'][0].uci(),
                            'score': cp, 'pv': [m.uci() for m in info['pv'][:8]]}
        board.push(move)
        if board.is_repetition(2):
            break
    return None


def promising(lines, board):
    """After the quick look: could this be a perpetual or a false perpetual at all?"""
    if 1 not in lines:
        return False
    best, pv = lines[1]
    second = lines.get(2, (None, []))[0]
    if best is not None and abs(best) <= 30 and second is not None and second <= LOST + 50:
        return True
    return board.gives_check(chess.Move.from_uci(pv[0])) and best is not None and abs(best) >= FAR - 50


def judge(engine, board, movetime_ms):
    """Stockfish's final MultiPV lines and the settle time of its best line."""
    history = []
    lines = {}
    with engine.analysis(board, chess.engine.Limit(time=movetime_ms / 1000), multipv=3) as analysis:
        for info in analysis:
            if 'score' not in info or 'pv' not in info:
                continue
            k = info.get('multipv', 1)
            score = info['score'].pov(board.turn)
            cp = None if score.is_mate() else score.score()
            if score.is_mate():
                cp = 100000 if score.mate() > 0 else -100000
            lines[k] = (cp, [m.uci() for m in info['pv']])
            if k == 1:
                history.append({'time': int(info.get('time', 0) * 1000), 'score': cp})
    return lines, settle_ms(history)


def verify(args):
    """Looks for escapes along the line of every perpetual (or escapable) case in `args.out` and
    rewrites the file with the kinds found; other cases are kept as they are."""
    with open(args.out) as f:
        cases = [json.loads(line) for line in f if line.strip()]
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({'Threads': 1, 'Hash': 64})
    ids = {i for i in args.ids.split(',') if i}
    for case in cases:
        if case['kind'] not in ('perpetual', 'escapable') or (ids and case['id'] not in ids):
            continue
        escape = find_escape(engine, chess.Board(case['fen']), case['sf_pv'], args.escape_ms)
        case.pop('escape', None)
        case['kind'] = 'escapable' if escape else 'perpetual'
        if escape:
            case['escape'] = escape
            print(f"{case['id']}: escapable at ply {escape['ply']}: {escape['move']} "
                  f"{escape['score']:+d} ({escape['fen']})", file=sys.stderr)
        else:
            print(f"{case['id']}: forced", file=sys.stderr)
    engine.quit()
    with open(args.out, 'w') as out:
        for case in cases:
            out.write(json.dumps(case) + '\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('pgn', nargs='*')
    ap.add_argument('--out', required=True)
    ap.add_argument('--append', action='store_true')
    ap.add_argument('--stockfish', default='/usr/games/stockfish')
    ap.add_argument('--movetime', type=int, default=3000)
    ap.add_argument('--limit', type=int, default=0, help='judge at most this many candidates')
    ap.add_argument('--prefilter', type=int, default=300,
                    help='ms of a quick look first; only promising candidates get --movetime')
    ap.add_argument('--max-false', type=int, default=40,
                    help='stop keeping false perpetuals once the output holds this many')
    ap.add_argument('--escape-ms', type=int, default=1000,
                    help='ms of each look for an escape along a perpetual\'s line')
    ap.add_argument('--verify', action='store_true',
                    help='look for escapes in the perpetuals already in --out and rewrite it')
    ap.add_argument('--ids', default='', help='with --verify: only these cases (ID,ID)')
    args = ap.parse_args()
    if args.verify:
        verify(args)
        return
    if not args.pgn:
        ap.error('give the PGN files to harvest (or --verify)')

    seen = set()
    next_id = {'perpetual': 1, 'false': 1}
    if args.append and os.path.exists(args.out):
        with open(args.out) as f:
            for line in f:
                case = json.loads(line)
                seen.add(' '.join(case['fen'].split()[:4]))
                # Ids number the harvest's two findings; an escapable case keeps its perpetual id.
                prefix, number = case['id'].rsplit('-', 1)
                next_id[prefix] = max(next_id[prefix], int(number) + 1)

    todo = []
    for path in args.pgn:
        with open(path, encoding='utf-8', errors='replace') as f:
            number = 0
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                number += 1
                if game.errors:
                    continue
                todo.extend((game, c) for c in candidates(game, f'{os.path.basename(path)}#{number}'))
    print(f'{len(todo)} candidates', file=sys.stderr)

    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({'Threads': 1, 'Hash': 64})
    kept = {'perpetual': 0, 'false': 0}
    judged = 0
    with open(args.out, 'a' if args.append else 'w') as out:
        for game, (ply, why, source) in todo:
            if args.limit and judged >= args.limit:
                break
            board = game.board()
            start_fen = board.fen()
            moves = list(game.mainline_moves())[:ply]
            for m in moves:
                board.push(m)
            key = board_key(board)
            if key in seen:
                continue
            seen.add(key)
            judged += 1
            bare = chess.Board(board.fen())
            if args.prefilter:
                engine.protocol.send_line('ucinewgame')
                quick, _ = judge(engine, bare, args.prefilter)
                if not promising(quick, bare):
                    continue
            engine.protocol.send_line('ucinewgame')
            lines, settled = judge(engine, bare, args.movetime)
            if 1 not in lines:
                continue
            best, pv = lines[1]
            second = lines.get(2, (None, []))[0]
            drawing = sorted({ln[1][0] for ln in lines.values() if ln[0] == 0 and ln[1]})
            first = chess.Move.from_uci(pv[0])
            checks = board.gives_check(first)
            escape = None
            if best == 0 and second is not None and second <= LOST and pv_repeats(bare, pv):
                kind = 'perpetual'
                escape = find_escape(engine, bare, pv, args.escape_ms)
            elif (checks and best is not None and FAR <= abs(best) < NOT_MATE
                  and next_id['false'] <= args.max_false):
                kind = 'false'
            else:
                continue
            case = {
                'id': f'{kind}-{next_id[kind]:03d}',
                'kind': 'escapable' if escape else kind,
                'fen': board.fen(),
                'start_fen': start_fen,
                'moves': [m.uci() for m in moves],
                'drawing_moves': drawing if kind == 'perpetual' else [],
                'sf_best': pv[0],
                'sf_pv': pv,
                'sf_score': best,
                'sf_second': second,
                'sf_settle_ms': settled,
                'source': f'{source} ply {ply} ({why})',
            }
            if escape:
                case['escape'] = escape
            next_id[kind] += 1
            kept[kind] += 1
            out.write(json.dumps(case) + '\n')
            out.flush()
            print(f"{case['id']}: {case['fen']}  sf {best} / {second}  {case['source']}", file=sys.stderr)
    engine.quit()
    print(f"judged {judged}, kept {kept['perpetual']} perpetuals and {kept['false']} false perpetuals",
          file=sys.stderr)


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Audits `threefold analyse` on real games from outside the engine: its move marks against
lichess's rules on the same scores, its draw verdicts against deeper searches, and its mate
annotations against python-chess.

    python3 bench/measure/analyse_audit.py [--engine target/release/threefold] [--nodes 100000]
        [--threads 2] [--recheck 8] [--games N] FILE.pgn [FILE.pgn ...]

1. Runs `analyse` twice on the games, for the annotated PGN and for `--json` (same options; the
   analysis is deterministic at a node limit with one search thread a game).
2. Marks: counts `?!`, `?` and `??` as analyse gave them, and as lichess's rules (lila's
   `Advice`: the winning-chances drop between centipawn scores, its mate rules) give them, both
   on the scores analyse used (the best move's score and the played move's) and on the
   evaluations before and after each move (what lichess itself compares).
3. Verdicts: every `forced_draw` is searched again, with the game's history, at --recheck times
   the nodes, and holds if that search scores exactly 0.00; every `drawn_while_winning` holds if
   the opponent may claim a draw after the move (python-chess), or else a search at --recheck
   times the nodes scores the position after it 0.00, and in both cases the mover's other moves
   (`go searchmoves`, the same deeper search) still score +1.50 or better.
4. Mates: every `[%eval #N]` python-chess reads from the PGN must equal the JSON's mate, and the
   best line after the move must end in checkmate after as many plies as the mate says (a line
   that stops before counts as "short", not as a contradiction).

Prints the counts; exit status 1 if a mark differs from lichess's rules on the same scores or a
mate annotation contradicts python-chess. Needs `pip install chess`.
"""
import argparse
import io
import json
import math
import os
import subprocess
import sys
import tempfile

import chess
import chess.engine
import chess.pgn

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from paths import ENGINE

MARKS = ('?!', '?', '??')
WINNING = 150  # +1.50, the analyse verdicts' threshold for "winning"


def chances(cp):
    """lichess's winning chances, -1 to 1, of a centipawn score."""
    cp = max(-1000, min(1000, cp))
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


def lichess_mark(before, after):
    """lila's judgement of a move from the mover's score before it to the score after it;
    each is ('cp', N) or ('mate', N) from the mover's point of view."""
    if before[0] == 'cp' and after[0] == 'cp':
        drop = chances(before[1]) - chances(after[1])
        for threshold, mark in ((0.3, '??'), (0.2, '?'), (0.1, '?!')):
            if drop >= threshold:
                return mark
        return None

    def by_margin(margin):
        return '?!' if margin > 999 else '?' if margin > 700 else '??'

    mate_before = before[1] if before[0] == 'mate' else None
    mate_after = after[1] if after[0] == 'mate' else None
    if mate_before is None and mate_after is not None and mate_after < 0:
        return by_margin(-before[1])
    if mate_before is not None and mate_before > 0:
        if mate_after is None:
            return by_margin(after[1])
        if mate_after < 0:
            return '??'
    return None


def mover_view(score, side):
    """A JSON score ({"cp": N} or {"mate": N}, White's view) as ('cp'|'mate', N), mover's view."""
    sign = 1 if side == 'white' else -1
    if 'mate' in score:
        return ('mate', sign * score['mate'])
    return ('cp', sign * score['cp'])


def run_analyse(args, files, json_mode):
    command = [args.engine, 'analyse', '--nodes', str(args.nodes), '--threads', str(args.threads),
               '--quiet'] + (['--json'] if json_mode else []) + files
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode not in (0, 1):
        sys.exit(f'analyse failed ({run.returncode}): {run.stderr}')
    return run.stdout


def board_before(game, ply):
    """The python-chess board of a game after `ply` plies, with its move stack."""
    board = game.board()
    for move in list(game.mainline_moves())[:ply]:
        board.push(move)
    return board


def search(engine, board, nodes, root_moves=None):
    info = engine.analyse(board, chess.engine.Limit(nodes=nodes), root_moves=root_moves)
    return info['score'].relative


def check_mate_line(board, line, mate):
    """'ok', 'short' or 'wrong': whether the SAN line from `board` (side to move's turn) ends in
    the mate `mate` (White's view) after the plies it takes."""
    mover_mates = (mate > 0) == (board.turn == chess.WHITE)
    plies = 2 * abs(mate) - 1 if mover_mates else 2 * abs(mate)
    board = board.copy()
    for number, san in enumerate(line, 1):
        try:
            board.push_san(san)
        except ValueError:
            return 'wrong'
        if board.is_checkmate():
            loser_white = board.turn == chess.WHITE
            return 'ok' if number == plies and loser_white == (mate < 0) else 'wrong'
    return 'short' if len(line) < plies else 'wrong'


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('files', nargs='+')
    parser.add_argument('--engine', default=ENGINE)
    parser.add_argument('--nodes', type=int, default=100000)
    parser.add_argument('--threads', type=int, default=2)
    parser.add_argument('--recheck', type=int, default=8, help='the deeper searches: this many times --nodes')
    parser.add_argument('--games', type=int, help='only the first N games of the files')
    args = parser.parse_args()

    games_in = []
    for path in args.files:
        with open(path, encoding='utf-8', errors='replace') as f:
            while (game := chess.pgn.read_game(f)) is not None:
                games_in.append(game)
    if args.games:
        games_in = games_in[:args.games]
    with tempfile.NamedTemporaryFile('w', suffix='.pgn', delete=False) as f:
        for game in games_in:
            print(game, file=f, end='\n\n')
        joined = f.name
    try:
        pgn_text = run_analyse(args, [joined], False)
        json_text = run_analyse(args, [joined], True)
    finally:
        os.unlink(joined)
    annotated = []
    stream = io.StringIO(pgn_text)
    while (game := chess.pgn.read_game(stream)) is not None:
        annotated.append(game)
    objects = [json.loads(line) for line in json_text.splitlines() if line.strip()]
    if not (len(games_in) == len(annotated) == len(objects)):
        sys.exit(f'{len(games_in)} games in, {len(annotated)} annotated, {len(objects)} in JSON')

    problems = []
    marks = {name: {m: 0 for m in MARKS} for name in ('analyse', 'same scores', 'eval to eval')}
    mates = {'annotations': 0, 'read back the same': 0, 'line mates': 0, 'line short': 0}
    verdicts = {}
    plies = 0
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    deep = args.nodes * args.recheck
    try:
        for number, (game, pgn_game, obj) in enumerate(zip(games_in, annotated, objects), 1):
            title = f"game {number} ({game.headers.get('White', '?')}-{game.headers.get('Black', '?')})"
            nodes = list(pgn_game.mainline())
            for record in obj['plies']:
                plies += 1
                side = record['side']
                if record['class']:
                    marks['analyse'][record['class']] += 1
                before = mover_view(record['before']['score'], side)
                same = lichess_mark(before, mover_view(record['played_score'], side))
                if same:
                    marks['same scores'][same] += 1
                if same != record['class']:
                    problems.append(f"{title}, ply {record['ply']} {record['move']}: analyse "
                                    f"{record['class']}, lichess's rules {same}")
                after_eval = record['after']['score']
                if record['after']['end'] is None:
                    consecutive = lichess_mark(before, mover_view(after_eval, side))
                    if consecutive:
                        marks['eval to eval'][consecutive] += 1
                if 'mate' in after_eval and record['after']['end'] is None:
                    mates['annotations'] += 1
                    node = nodes[record['ply'] - 1] if record['ply'] - 1 < len(nodes) else None
                    read = node.eval().white().mate() if node is not None and node.eval() else None
                    if read == after_eval['mate']:
                        mates['read back the same'] += 1
                    else:
                        problems.append(f"{title}, ply {record['ply']}: JSON mate "
                                        f"{after_eval['mate']}, python-chess reads {read}")
                    verdict = check_mate_line(board_before(game, record['ply']),
                                              record['after']['line'], after_eval['mate'])
                    if verdict == 'ok':
                        mates['line mates'] += 1
                    elif verdict == 'short':
                        mates['line short'] += 1
                    else:
                        problems.append(f"{title}, ply {record['ply']}: the line after it does "
                                        f"not mate as #{after_eval['mate']} says")
            for verdict in obj['verdicts']:
                kind = verdict['kind']
                if kind not in ('forced_draw', 'drawn_while_winning'):
                    verdicts.setdefault(kind, [0, 0])[0] += 1
                    continue
                tally = verdicts.setdefault(kind, [0, 0])
                tally[0] += 1
                if kind == 'forced_draw':
                    board = board_before(game, verdict['ply'])
                    score = search(engine, board, deep)
                    held = score.score() == 0
                    detail = f'{score} at {deep} nodes'
                else:
                    board = board_before(game, verdict['ply'] - 1)
                    played = list(game.mainline_moves())[verdict['ply'] - 1]
                    others = [m for m in board.legal_moves if m != played]
                    rest = search(engine, board, deep, others) if others else None
                    board.push(played)
                    if board.can_claim_draw():
                        draw, detail = True, 'a claim'
                    else:
                        after = search(engine, board, deep)
                        draw, detail = after.score() == 0, f'{after} after the move'
                    winning = rest is not None and rest.score(mate_score=100000) >= WINNING
                    held = draw and winning
                    detail += f', other moves {rest}'
                tally[1] += held
                print(f"{title}: {kind} at ply {verdict['ply']} {'holds' if held else 'does NOT hold'} ({detail})")
    finally:
        engine.quit()

    print(f'{len(objects)} games, {plies} plies analysed at {args.nodes} nodes')
    for name, counts in marks.items():
        print(f"marks, {name:>12}: " + ', '.join(f'{m} {counts[m]}' for m in MARKS)
              + f' (all {sum(counts.values())})')
    for kind, (found, held) in sorted(verdicts.items()):
        rechecked = kind in ('forced_draw', 'drawn_while_winning')
        print(f'verdicts, {kind}: {found}' + (f', {held} hold at {deep} nodes' if rechecked else ''))
    print('mates: ' + ', '.join(f'{k} {v}' for k, v in mates.items()))
    for problem in problems:
        print('PROBLEM', problem)
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()

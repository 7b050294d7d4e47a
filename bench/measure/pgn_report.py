#!/usr/bin/env python3
"""What a match's PGN says about one engine: results per opponent, how the draws ended, the
repetition draws with the engine's scores before them, how close its clock came to zero, where
the clock was spent (seconds a move by phase of the game, the clock left at the end), and the
games lost by a time forfeit, an illegal move or a crash.

  python3 bench/measure/pgn_report.py games.pgn [more.pgn ...] [--engine Threefold]

Reads PGNs as fastchess and cutechess-cli write them: each move's comment starts with
`score/depth time` (`{+0.35/12 0.123s}`), the `TimeControl` header is `base+increment` in
seconds. The clock is rebuilt move by move (base, plus the increment, minus each move's time:
fastchess's order), so it is as exact as the times the tournament manager wrote down; a game
lost on time shows up as a clock below zero (under cutechess-cli, which adds the increment
after the move, the lowest clock reads one increment high). The games lost by failing are
counted from the `Termination` tag as fastchess writes it (`time forfeit`, `illegal move`, and
`abandoned` for an engine that disconnected or stalled), charged to the player that lost.
bench/measure/gauntlet.py and calibrate_elo.py read their matches through `match_summary`.
Needs `pip install chess`.
"""
import argparse, collections, math, re

import chess, chess.pgn

MOVE_COMMENT = re.compile(r'\s*([+-]?(?:\d+\.\d+|M\d+))/\d+\s+([\d.]+)s')

# The `Termination` tags of a game lost by failing, and what the failure is.
FAILURES = {'time forfeit': 'time loss', 'illegal move': 'illegal move', 'abandoned': 'crash'}

# What a set of games says about one engine: `results` maps each opponent to [wins, draws,
# losses]; `draws` counts how the drawn games ended; `repetitions` lists (opponent, round, mean
# and highest of the engine's last six scores) per repetition draw; `lowest_clocks` holds the
# engine's lowest clock of each game with a time control; `failures` counts the games lost by
# failing, by (loser, failure); `move_times` maps each phase of PHASES to the seconds of every
# move the engine played in it; `final_clocks` holds its clock at the end of each game with a
# time control.
Report = collections.namedtuple(
    'Report', 'results draws repetitions lowest_clocks failures move_times final_clocks')

# The phases of a game by the engine's move number (first, last): the opening out of the book,
# the middlegame, the long middlegame, the ending.
PHASES = ((1, 9), (10, 19), (20, 39), (40, 59), (60, None))


def phase_name(phase):
    first, last = phase
    return f'moves {first}-{last}' if last else f'moves {first}+'


def phase_of(move_number):
    """The phase of PHASES that a move number falls in."""
    return next(p for p in PHASES if move_number >= p[0] and (p[1] is None or move_number <= p[1]))


def elo(score):
    """Elo difference for a score fraction (None at 0 or 1)."""
    return -400 * math.log10(1 / score - 1) if 0 < score < 1 else None


def elo_interval(w, d, l):
    """Elo and the ends of its 95% interval (normal approximation over the games' scores); each
    is None where the score (or that end of its interval) is 0 or 1 or beyond."""
    n = w + d + l
    mean = (w + d / 2) / n
    variance = (w * (1 - mean) ** 2 + d * (0.5 - mean) ** 2 + l * mean ** 2) / n
    margin = 1.96 * math.sqrt(variance / n)
    return tuple(elo(x) for x in (mean, mean - margin, mean + margin))


def elo_text(w, d, l):
    """Elo with its 95% interval, as `+23 [-60, +110]`."""
    value, low, high = elo_interval(w, d, l)
    if value is None:
        return 'n/a'
    low = f'{low:+.0f}' if low is not None else '-inf'
    high = f'{high:+.0f}' if high is not None else '+inf'
    return f'{value:+.0f} [{low}, {high}]'


def time_control(headers):
    """(base, increment) in seconds, or None for a time control this does not read."""
    m = re.fullmatch(r'(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)', headers.get('TimeControl', ''))
    return (float(m.group(1)), float(m.group(2))) if m else None


def draw_kind(board, headers):
    """How a drawn game ended, from the final position (or the PGN's termination)."""
    if board.is_repetition(3):
        return 'repetition'
    if board.is_fifty_moves():
        return 'fifty moves'
    if board.is_insufficient_material():
        return 'material'
    if board.is_stalemate():
        return 'stalemate'
    return headers.get('Termination', 'other')


def read(paths, engine):
    """What the finished games of the PGN files `paths` in which `engine` plays say about it."""
    results = collections.defaultdict(lambda: [0, 0, 0])
    draws = collections.Counter()
    repetitions = []
    lowest_clocks = []
    failures = collections.Counter()
    move_times = {phase: [] for phase in PHASES}
    final_clocks = []
    for path in paths:
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                h = game.headers
                if engine not in (h.get('White'), h.get('Black')):
                    continue
                ours = chess.WHITE if h['White'] == engine else chess.BLACK
                opponent = h['Black'] if ours == chess.WHITE else h['White']
                points = {'1-0': 1, '0-1': -1}.get(h.get('Result'), 0)
                if h.get('Result') not in ('1-0', '0-1', '1/2-1/2'):
                    continue
                if ours == chess.BLACK:
                    points = -points
                results[opponent][1 - points] += 1
                failure = FAILURES.get(h.get('Termination'))
                if failure and points != 0:
                    failures[(h['Black'] if h['Result'] == '1-0' else h['White'], failure)] += 1
                tc = time_control(h)
                clock = tc[0] if tc else None
                lowest = clock
                scores = []
                board = game.board()
                for node in game.mainline():
                    mover = board.turn
                    board.push(node.move)
                    m = MOVE_COMMENT.match(node.comment or '')
                    if not m or mover != ours:
                        continue
                    if not m.group(1).lstrip('+-').startswith('M'):
                        scores.append(float(m.group(1)))
                    # The move number the engine just played (the board has moved on).
                    number = board.fullmove_number - (1 if mover == chess.BLACK else 0)
                    move_times[phase_of(number)].append(float(m.group(2)))
                    if clock is not None:
                        # fastchess credits the increment when the move starts (its "34 ms
                        # overrun" messages match this order); cutechess-cli after the move.
                        clock += tc[1] - float(m.group(2))
                        lowest = min(lowest, clock)
                if lowest is not None:
                    lowest_clocks.append(lowest)
                    final_clocks.append(clock)
                if points == 0:
                    kind = draw_kind(board, h)
                    draws[kind] += 1
                    if kind == 'repetition' and scores:
                        last = scores[-6:]
                        repetitions.append((opponent, h.get('Round', '?'), sum(last) / len(last),
                                            max(last)))
    return Report(results, draws, repetitions, lowest_clocks, failures, move_times, final_clocks)


def match_summary(path, engine):
    """One match's PGN summed up for `engine`: (wins, draws, losses, {failure: games lost so by
    either player}), the failures keyed as in FAILURES' values."""
    report = read([path], engine)
    w, d, l = (sum(column) for column in zip(*report.results.values())) if report.results else (0, 0, 0)
    failed = collections.Counter()
    for (_, failure), games in report.failures.items():
        failed[failure] += games
    return w, d, l, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('pgn', nargs='+')
    ap.add_argument('--engine', default='Threefold', help='the player name in the PGN')
    args = ap.parse_args()
    results, draws, repetitions, lowest, failures, move_times, final = read(args.pgn, args.engine)
    print(f'{args.engine} (wins / draws / losses, score, Elo [95% interval]):')
    for opponent, (w, d, l) in sorted(results.items()):
        n = w + d + l
        print(f'  {opponent:16} +{w} ={d} -{l}  {n} games  {(w + d / 2) / n:.3f}  '
              f'{elo_text(w, d, l)}')
    print(f'draws: {dict(draws)}')
    if repetitions:
        print('repetition draws (mean and highest of its last six scores, its own view):')
        for opponent, rnd, mean, high in repetitions:
            print(f'  {opponent:16} round {rnd:>5}  mean {mean:+.2f}  highest {high:+.2f}')
    print('games lost by failing: ' + ('; '.join(
        f'{player} {failure} {games}' for (player, failure), games in sorted(failures.items()))
        or 'none'))
    if lowest:
        lowest.sort()
        n = len(lowest)
        print(f'lowest clock in a game: min {lowest[0]:.3f} s, median {lowest[n // 2]:.3f} s; '
              f'below 0 (lost on time): {sum(c < 0 for c in lowest)}, '
              f'below 0.3 s: {sum(c < 0.3 for c in lowest)} of {n} games')
        final.sort()
        print(f'clock left at the end of a game: median {final[n // 2]:.3f} s, '
              f'quartiles {final[n // 4]:.3f} / {final[3 * n // 4]:.3f} s')
    print('seconds a move by phase (mean, median, moves played):')
    for phase in PHASES:
        times = sorted(move_times[phase])
        if times:
            print(f'  {phase_name(phase):12} {sum(times) / len(times):.3f} '
                  f'{times[len(times) // 2]:.3f}  {len(times)}')


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Stress run: many fast games against long-lived engine processes, as a tournament would play.

  python3 bench/measure/stress.py --a target/release/threefold --b target/release/threefold \
      --b-opt Threads=2 --games 500 --tc 2+0.02 --concurrency 1
  python3 bench/measure/stress.py --a target/release/threefold --b /usr/games/glaurung \
      --b-opt Threads=1 --games 500 --tc 2+0.02 --concurrency 2
  python3 bench/measure/stress.py --a target/release/threefold --b /usr/games/glaurung \
      --b-opt Threads=1 --b-opt OwnBook=false --games 100 --tc 10+0.1 --ponder --hash-cycle ''

Each worker starts its two engines once and plays all its games with them (as fastchess does
in bench/measure/gauntlet.py's matches): `ucinewgame` before every game (python-chess sends it
when the game changes) and, what a match does not, engine A's `Hash` changed between games
(cycling through --hash-cycle). So a leak, a stale state after `ucinewgame` or a bad resize
shows up.

Counts wins/draws/losses for A, illegal moves, crashes and time losses (either side), and
reports the resident memory (VmRSS) of every A process after its first, second and last game
at each Hash size: the allocator keeps some freed table memory after the first round of resizes,
so the second and the last show whether memory grows over the run.
Openings from the match book (bench/lib/paths.py: THREEFOLD_BOOK), each played with both colours. Exit status 1 on any
illegal move, crash or time loss by A. Needs `pip install chess`.

With --ponder both engines get `Ponder=true` and think on the opponent's time: after each
`bestmove ... ponder M` python-chess sends `go ponder`, then `ponderhit` when the opponent played M,
or `stop` and a new search when it did not; the clock runs from the moment the move is asked for.
Pondering engines keep a core busy each, so run it with --concurrency 1 on a 2-core machine.
The ponder hits and misses of A are counted.
"""
import argparse, concurrent.futures as cf, math, os, random, sys, threading, time

import chess, chess.engine

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from paths import BOOK


def rss_kib(pid):
    try:
        with open(f'/proc/{pid}/status') as f:
            for line in f:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def options(pairs):
    return dict(p.split('=', 1) for p in pairs)


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.w = self.d = self.l = 0
        self.events = {'A': {'illegal': 0, 'crash': 0, 'time': 0}, 'B': {'illegal': 0, 'crash': 0, 'time': 0}}
        self.memory = []  # (worker, rss after first game KiB, rss at end KiB)
        self.games = 0
        self.ponders = {'hit': 0, 'miss': 0}  # A's predictions of B's replies


def start(cmd, opts):
    engine = chess.engine.SimpleEngine.popen_uci(cmd.split(), timeout=20)
    if opts:
        engine.configure(opts)
    return engine


def play(engines, a_white, fen, tc, margin_ms, max_plies, ponder=False, ponders=None):
    """One game; returns (score for A, reason, blame 'A'/'B'/None, kind)."""
    base, inc = tc
    board = chess.Board(fen)
    clock = {chess.WHITE: base, chess.BLACK: base}
    game_id = object()
    names = {chess.WHITE: 'A' if a_white else 'B', chess.BLACK: 'B' if a_white else 'A'}
    expected = {}  # the reply each engine predicted with its last move (its ponder move)
    while True:
        if board.is_checkmate():
            winner = not board.turn
            return (1.0 if names[winner] == 'A' else 0.0), 'checkmate', None, None
        if board.is_game_over(claim_draw=True) or len(board.move_stack) >= max_plies:
            return 0.5, 'draw', None, None
        side = board.turn
        who = names[side]
        limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        t0 = time.monotonic()
        try:
            result = engines[who].play(board, limit, game=game_id, ponder=ponder)
        except chess.engine.EngineTerminatedError:
            return (0.0 if who == 'A' else 1.0), 'crash', who, 'crash'
        except (chess.engine.EngineError, chess.IllegalMoveError, ValueError) as e:
            return (0.0 if who == 'A' else 1.0), f'illegal ({e})', who, 'illegal'
        clock[side] -= time.monotonic() - t0
        if clock[side] < -margin_ms / 1000:
            return (0.0 if who == 'A' else 1.0), 'time forfeit', who, 'time'
        clock[side] += inc
        if result.move is None or result.move not in board.legal_moves:
            return (0.0 if who == 'A' else 1.0), f'illegal move {result.move}', who, 'illegal'
        if ponders is not None and who == 'B' and board.move_stack and expected.get('A'):
            ponders['hit' if expected['A'] == result.move else 'miss'] += 1
        expected[who] = result.ponder
        board.push(result.move)


def worker(index, jobs, args, tally, hash_cycle):
    engines = {'A': start(args.a, options(args.a_opt)), 'B': start(args.b, options(args.b_opt))}
    rss_by_hash = {}  # Hash size -> [VmRSS after the 1st game with it, after the 2nd, after the last]
    played = 0
    size = int(options(args.a_opt).get('Hash', 16))
    try:
        for fen, a_white in jobs:
            if played and hash_cycle:
                size = hash_cycle[played % len(hash_cycle)]
                engines['A'].configure({'Hash': size})
            ponders = {'hit': 0, 'miss': 0}
            score, reason, blame, kind = play(engines, a_white, fen, args.tc, args.margin, args.max_plies,
                                              args.ponder, ponders)
            played += 1
            rss = rss_kib(engines['A'].transport.get_pid())
            seen = rss_by_hash.setdefault(size, [rss, None, rss])
            if seen[1] is None and played > len(hash_cycle or [0]):
                seen[1] = rss
            seen[2] = rss
            with tally.lock:
                tally.games += 1
                for k in ponders:
                    tally.ponders[k] += ponders[k]
                if score == 1.0: tally.w += 1
                elif score == 0.0: tally.l += 1
                else: tally.d += 1
                if blame:
                    tally.events[blame][kind] += 1
                    print(f'  event: {blame} {reason} (worker {index}, game {played})', flush=True)
                if tally.games % 50 == 0:
                    print(f'{tally.games} games: A +{tally.w} ={tally.d} -{tally.l}', flush=True)
            if kind == 'crash':
                # Start the crashed engine again so the run goes on.
                engines[blame] = start(args.a if blame == 'A' else args.b,
                                       options(args.a_opt if blame == 'A' else args.b_opt))
        with tally.lock:
            tally.memory.append((index, rss_by_hash, played))
    finally:
        for e in engines.values():
            try:
                e.quit()
            except Exception:
                pass


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--a', required=True)
    ap.add_argument('--b', required=True)
    ap.add_argument('--a-opt', action='append', default=[])
    ap.add_argument('--b-opt', action='append', default=[])
    ap.add_argument('--games', type=int, default=1000)
    ap.add_argument('--tc', default='2+0.02')
    ap.add_argument('--book', default=BOOK)
    ap.add_argument('--concurrency', type=int, default=1)
    ap.add_argument('--margin', type=int, default=100, help='ms past zero before a flag falls')
    ap.add_argument('--max-plies', type=int, default=400)
    ap.add_argument('--hash-cycle', default='16,32,8,64', help='Hash sizes for A, one per game in turn')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--ponder', action='store_true', help='both engines ponder (Ponder=true)')
    args = ap.parse_args()
    base, _, inc = args.tc.partition('+')
    args.tc = (float(base), float(inc or 0))
    rnd = random.Random(args.seed)
    fens = []
    for line in open(args.book):
        f = line.split()
        if len(f) >= 4:
            fens.append(' '.join(f[:4]) + ' 0 1')
    jobs = []
    for _ in range((args.games + 1) // 2):
        fen = rnd.choice(fens)
        jobs += [(fen, True), (fen, False)]
    hash_cycle = [int(h) for h in args.hash_cycle.split(',') if h]
    per_worker = [jobs[i::args.concurrency] for i in range(args.concurrency)]
    tally = Tally()
    started = time.monotonic()
    with cf.ThreadPoolExecutor(max_workers=args.concurrency) as ex:
        futures = [ex.submit(worker, i, per_worker[i], args, tally, hash_cycle) for i in range(args.concurrency)]
        for f in futures:
            f.result()
    n = tally.w + tally.d + tally.l
    score = (tally.w + 0.5 * tally.d) / n
    var = (tally.w * (1 - score) ** 2 + tally.d * (0.5 - score) ** 2 + tally.l * score ** 2) / n
    se = math.sqrt(var / n)
    print(f'A vs B: {n} games +{tally.w} ={tally.d} -{tally.l}  score {score:.3f}  '
          f'Elo {elo(score):+.0f} [{elo(score - 1.96 * se):+.0f}, {elo(score + 1.96 * se):+.0f}]  '
          f'in {time.monotonic() - started:.0f} s')
    if args.ponder:
        hits, misses = tally.ponders['hit'], tally.ponders['miss']
        print(f'A ponder moves: {hits} hits, {misses} misses '
              f'({100 * hits / max(1, hits + misses):.0f}% predicted)')
    for who in ('A', 'B'):
        ev = tally.events[who]
        print(f'{who}: illegal {ev["illegal"]} crashes {ev["crash"]} time-losses {ev["time"]}')
    for index, rss_by_hash, played in tally.memory:
        sizes = ', '.join(f'Hash {h}: {a} / {b} / {c}' for h, (a, b, c) in sorted(rss_by_hash.items()))
        print(f'A process of worker {index} ({played} games), VmRSS KiB after its 1st / 2nd / last '
              f'game at each Hash size: {sizes}')
    return 1 if any(tally.events['A'].values()) else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""What a GUI or a python-chess script does with an engine, checked end to end.

  python3 bench/ci/gui_compat.py [--engine target/release/threefold]

Uses python-chess (a real UCI client, `pip install chess`) the way GUIs and tournament managers
do, in the order of a fastchess `--compliance` run: handshake and option list, `isready`,
`ucinewgame`, every option set to a legal value, `position` + `go` with each kind of limit,
`analyse(..., multipv=3)`, a pondering game (`go ponder`, `ponderhit`, `stop` during ponder),
UCI_ShowWDL, Chess960 castling, and `quit`. Exits 1 at the first failure; CI runs it.
"""
import argparse, logging, os, signal, sys

import chess, chess.engine

# The modules bench's scripts share live in bench/lib.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from paths import ENGINE, TEST_DATA

FAILURES = []


class Sent(logging.Handler):
    """Keeps the lines python-chess sends to the engine (it logs each as `...: << line`)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        message = record.getMessage()
        if ': << ' in message:
            self.lines.append(message.split(': << ', 1)[1])


SENT = Sent()

# The pondering game's moves take a few seconds at most; this is the most it may take.
PONDER_GAME_SECONDS = 60


def ponder_hung(signum, frame):
    print(f'FAIL the pondering game did not finish in {PONDER_GAME_SECONDS} s '
          f'(last sent: {SENT.lines[-3:]})', flush=True)
    os._exit(1)


def check(condition, what):
    print(('ok   ' if condition else 'FAIL ') + what, flush=True)
    if not condition:
        FAILURES.append(what)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--engine', default=ENGINE)
    args = ap.parse_args()
    logger = logging.getLogger('chess.engine')
    logger.setLevel(logging.DEBUG)
    logger.addHandler(SENT)
    logger.propagate = False
    engine = chess.engine.SimpleEngine.popen_uci(args.engine, timeout=20)
    try:
        run(engine)
    finally:
        engine.quit()
    code = engine.protocol.returncode.result() if engine.protocol.returncode.done() else None
    check(code == 0, f'quit ends the engine with status 0 (got {code})')
    return 1 if FAILURES else 0


def run(engine):
    check(engine.id.get('name', '').startswith('Threefold'), f"id name: {engine.id.get('name')}")
    wanted = {'Hash', 'Threads', 'MultiPV', 'Ponder', 'UCI_Chess960', 'UCI_ShowWDL', 'SyzygyPath',
              'SyzygyProbeDepth', 'Move Overhead', 'Clear Hash', 'UCI_AnalyseMode', 'Contempt'}
    check(wanted <= set(engine.options), f'options announced: {sorted(wanted - set(engine.options)) or "all"}')
    engine.ping()
    check(True, 'isready answered')

    # Every option to a legal value, as a GUI's option dialog would send them.
    engine.configure({'Hash': 32, 'Threads': 2, 'Move Overhead': 20, 'Contempt': 10,
                      'SyzygyProbeDepth': 2})
    engine.configure({'Clear Hash': None})
    tables = os.path.join(TEST_DATA, 'syzygy')
    engine.configure({'SyzygyPath': os.path.normpath(tables)})
    engine.ping()
    check(True, 'options set')

    board = chess.Board()
    for limit in (chess.engine.Limit(depth=6), chess.engine.Limit(nodes=20000),
                  chess.engine.Limit(time=0.2),
                  chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.05, black_inc=0.05),
                  chess.engine.Limit(white_clock=3, black_clock=3, remaining_moves=10)):
        result = engine.play(board, limit, game='limits')
        check(result.move in board.legal_moves, f'play with {limit}: {result.move}')

    infos = engine.analyse(chess.Board('r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3'),
                           chess.engine.Limit(depth=7), multipv=3)
    check(len(infos) == 3, f'analyse multipv=3 gives {len(infos)} lines')
    scores = [i['score'].relative.score(mate_score=100000) for i in infos]
    check(scores == sorted(scores, reverse=True), f'multipv lines sorted: {scores}')
    check(len({i['pv'][0] for i in infos}) == 3, 'multipv lines start with different moves')

    engine.configure({'UCI_ShowWDL': True})
    info = engine.analyse(chess.Board('8/8/4k3/8/8/3BK3/8/8 w - - 0 1'), chess.engine.Limit(depth=5))
    wdl = info.get('wdl')
    check(wdl is not None and sum(wdl.relative) == 1000 and wdl.relative.draws == 1000,
          f'wdl of a dead draw: {wdl}')
    engine.configure({'UCI_ShowWDL': False})

    info = engine.analyse(chess.Board('4k3/8/8/8/8/8/8/4K2Q w - - 0 1'), chess.engine.Limit(depth=5))
    check('tbhits' in info and info['score'].relative.score(mate_score=100000) > 20000,
          f"tablebase win scored {info['score']} (tbhits {info.get('tbhits')})")
    # Kxd3 leaves K+P v K, a draw the tables settle by a probe after the capture.
    info = engine.analyse(chess.Board('8/8/4k3/8/4P3/3r4/3K4/8 w - - 0 1'), chess.engine.Limit(depth=5))
    check(info.get('tbhits', 0) > 0 and info['score'].relative.score() == 0,
          f"probes after a capture: tbhits {info.get('tbhits')}, score {info['score']}")

    # A pondering game: python-chess sends `go ponder` on the predicted reply after each move,
    # then `ponderhit` when the opponent plays that reply, `stop` when it plays another. The
    # opponent here plays the predicted reply on even moves and another one on odd moves, so
    # both are exercised; every answer must be a legal move.
    board = chess.Board()
    clock = chess.engine.Limit(white_clock=3, black_clock=3, white_inc=0.05, black_inc=0.05)
    before = len(SENT.lines)
    # python-chess sets no time-out on a move under a clock: an engine that never answers
    # `ponderhit` would hang the run, so a watchdog fails it instead.
    signal.signal(signal.SIGALRM, ponder_hung)
    signal.alarm(PONDER_GAME_SECONDS)
    for turn in range(8):
        result = engine.play(board, clock, ponder=True, game='ponder')
        if result.move is None:
            break
        check(result.move in board.legal_moves, f'ponder game move {result.move} (ponder {result.ponder})')
        board.push(result.move)
        if board.is_game_over():
            break
        replies = list(board.legal_moves)
        reply = result.ponder if result.ponder in replies else replies[0]
        if turn % 2 == 1:
            reply = next((m for m in replies if m != result.ponder), reply)
        board.push(reply)
        if board.is_game_over():
            break
    signal.alarm(0)
    sent = SENT.lines[before:]
    check(sent.count('ponderhit') >= 2, f"ponderhit sent and answered {sent.count('ponderhit')} times")
    check(sum(1 for l in sent if l == 'stop') >= 2, 'stop during ponder sent and answered')

    # python-chess sets Ponder, MultiPV and UCI_Chess960 itself, from the call and the board.
    board = chess.Board('rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1', chess960=True)
    infos = engine.analyse(board, chess.engine.Limit(depth=3), root_moves=[chess.Move.from_uci('b1e1')])
    check(infos['pv'][0] == chess.Move.from_uci('b1e1'), f"Chess960 castling round trip: {infos['pv'][0]}")


if __name__ == '__main__':
    sys.exit(main())

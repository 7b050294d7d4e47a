"""Where the bench scripts find things, relative to the repository (not the working directory).

Every script in bench/'s folders puts bench/lib/ (this folder) on `sys.path` in its first lines
and imports what it needs from here.

The match openings are not in the repository: by default they are looked for in the team's
shared folder beside it (../shared/books/2moves_v1.epd); THREEFOLD_BOOK names another file
(docs/benchmarks.md). The match runner, fastchess, is found by lib/fastchess.py."""
import os

LIB = os.path.dirname(os.path.abspath(__file__))
# bench/ itself, and the repository root above it.
BENCH = os.path.dirname(LIB)
ROOT = os.path.dirname(BENCH)
# The engine as `cargo build --release` leaves it.
ENGINE = os.path.join(ROOT, 'target', 'release', 'threefold')
# Tables, PGNs and logs of the measuring scripts (ignored by git).
OUT = os.path.join(BENCH, 'out')
# The perpetual-proof suite.
PERPETUALS = os.path.join(BENCH, 'data', 'perpetuals.jsonl')
# The test data of tests/*.rs that some scripts read or write.
TEST_DATA = os.path.join(ROOT, 'tests', 'data')
# The match openings.
BOOK = os.environ.get('THREEFOLD_BOOK') or os.path.normpath(
    os.path.join(ROOT, '..', 'shared', 'books', '2moves_v1.epd'))

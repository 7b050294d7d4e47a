"""Where the bench scripts find things, relative to this folder (not the working directory).

The match runner and the openings are not in the repository: by default they are looked for in
the team's shared folder beside it (../shared/tools/match.py, ../shared/books/2moves_v1.epd);
THREEFOLD_MATCH and THREEFOLD_BOOK name other files (README, "Benchmarks and matches")."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
# The engine as `cargo build --release` leaves it.
ENGINE = os.path.normpath(os.path.join(HERE, '..', 'target', 'release', 'threefold'))
# The match runner and the match openings.
MATCH = os.environ.get('THREEFOLD_MATCH') or os.path.normpath(
    os.path.join(HERE, '..', '..', 'shared', 'tools', 'match.py'))
BOOK = os.environ.get('THREEFOLD_BOOK') or os.path.normpath(
    os.path.join(HERE, '..', '..', 'shared', 'books', '2moves_v1.epd'))

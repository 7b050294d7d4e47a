"""Where the bench scripts find things, relative to this folder (not the working directory)."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
# The engine as `cargo build --release` leaves it.
ENGINE = os.path.normpath(os.path.join(HERE, '..', 'target', 'release', 'threefold'))
# The shared tools and the match openings, beside the repository.
MATCH = os.path.normpath(os.path.join(HERE, '..', '..', 'shared', 'tools', 'match.py'))
BOOK = os.path.normpath(os.path.join(HERE, '..', '..', 'shared', 'books', '2moves_v1.epd'))

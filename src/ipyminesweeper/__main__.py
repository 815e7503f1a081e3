"""``python -m ipyminesweeper``: the command line (see :mod:`ipyminesweeper.arena.cli`)."""

import sys

from .arena.cli import main

sys.exit(main())

"""``python -m ipyminesweeper``: the command line (see :mod:`ipyminesweeper.play.cli`)."""

import sys

from .play.cli import main

sys.exit(main())

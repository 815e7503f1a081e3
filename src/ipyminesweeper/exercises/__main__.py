"""``python -m ipyminesweeper.exercises tournament FOLDER``: a class tournament (see :mod:`.classroom`)."""

from __future__ import annotations

import sys

from .classroom import main

if __name__ == "__main__":
    sys.exit(main())

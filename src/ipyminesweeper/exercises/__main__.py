"""``python -m ipyminesweeper.exercises tournament FOLDER``: a class tournament (see :mod:`.classroom`);
``... serve``: the site and the hand-in, to the classroom network (see :mod:`.serve`)."""

from __future__ import annotations

import sys

from .classroom import main
from .serve import main as serve

if __name__ == "__main__":
    sys.exit(serve(sys.argv[2:]) if sys.argv[1:2] == ["serve"] else main())

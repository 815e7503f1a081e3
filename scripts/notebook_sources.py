"""Which notebooks a script's ``--notebooks`` sources name: the one rule of scripts/build_lite.py (the
offline site) and scripts/export_html.py (the static pages)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def notebook_paths(sources: Sequence[Path], fail: type[Exception], purpose: str) -> list[Path]:
    """Each ``.ipynb`` file of ``sources`` as given, and each folder's ``*.ipynb`` files in name order.

    Raises ``fail`` naming a source that is neither, or when no notebook is found (``purpose`` says
    what they were for: ``"to export"``).
    """
    found: list[Path] = []
    for source in sources:
        if source.is_dir():
            found.extend(sorted(source.glob("*.ipynb")))
        elif source.suffix == ".ipynb" and source.is_file():
            found.append(source)
        else:
            raise fail(f"not a notebook or a folder of notebooks: {source}")
    if not found:
        looked = ", ".join(str(s) for s in sources)
        raise fail(f"no notebooks {purpose} (looked in {looked}); pass --notebooks")
    return found

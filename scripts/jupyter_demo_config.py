"""JupyterLab's configuration for `make demo`: the teaching notebooks are saved in their committed form.

JupyterLab writes the kernel's whole ``language_info`` into a notebook as soon as its kernel starts, and
the outputs of the cells that ran: a notebook opened from ``notebooks/`` would show up in ``git status``.
This pre-save hook saves ``notebooks/*.ipynb`` as ``scripts/normalize_notebooks.py`` writes them (no
outputs, no added metadata), so the tracked files stay as committed. Any other notebook is saved as it is.

    jupyter lab --config=scripts/jupyter_demo_config.py
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from normalize_notebooks import normal_notebook


def save_committed_form(model: dict[str, Any], path: str, **kwargs: Any) -> None:
    """Pre-save hook: a teaching notebook (``notebooks/NAME.ipynb``) is saved in its committed form."""
    where = PurePosixPath(path.lstrip("/"))
    if model.get("type") == "notebook" and where.parent == PurePosixPath("notebooks"):
        model["content"] = normal_notebook(model["content"])


c = get_config()  # type: ignore[name-defined]  # noqa: F821
c.FileContentsManager.pre_save_hook = save_committed_form

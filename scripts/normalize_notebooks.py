"""Keep the notebooks in the form they are committed in, so that opening one leaves `git status` clean.

JupyterLab writes back what it learnt while a notebook was open: the kernel's whole `language_info`
(version, mimetype, codemirror mode...), the outputs and execution counts of the cells that ran, the
widgets' state, and cell metadata such as `execution` timings, `scrolled` or `collapsed`. The committed
form keeps none of that: no outputs, no execution counts, the notebook metadata `kernelspec` and
`language_info.name` only, and of each cell's metadata only what the author set (`jupyter.source_hidden`
for a folded solution, the course's exercise and solution marks under `ipyminesweeper`, `tags`,
`editable`, `deletable`, `slideshow`), written as nbformat writes it.

    python scripts/normalize_notebooks.py            # rewrite notebooks/*.ipynb in that form (make notebooks)
    python scripts/normalize_notebooks.py --check    # list those that are not; exit 1 if any
    python scripts/normalize_notebooks.py --filter   # stdin to stdout: git's clean filter

Two things keep the tracked files in that form:

- `make demo` starts JupyterLab with `scripts/jupyter_demo_config.py`, whose pre-save hook saves
  `notebooks/*.ipynb` in this form: opening, running and saving a teaching notebook leaves `git status`
  clean (its outputs are not kept: "Save As" a copy elsewhere to keep them);
- `make setup` registers this script as git's clean filter (`git config filter.notebook.clean ...`), which
  `.gitattributes` applies to `notebooks/*.ipynb`: whatever saved a notebook, `git diff` and a commit
  see its committed form. (Git may still list a saved file as modified, by its size, until `git add`.)

`tests/test_notebook_form.py` checks that every committed notebook is in that form.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
CELL_METADATA = ("deletable", "editable", "ipyminesweeper", "jupyter", "slideshow", "tags")  # an author's
JUPYTER_METADATA = ("source_hidden",)  # of `jupyter`: `outputs_hidden` goes with the outputs


def normal_cell(cell: dict[str, Any]) -> dict[str, Any]:
    """``cell`` without outputs, execution count or the metadata a front end adds."""
    out = dict(cell)
    meta = {k: v for k, v in cell.get("metadata", {}).items() if k in CELL_METADATA}
    if "jupyter" in meta:
        meta["jupyter"] = {k: v for k, v in meta["jupyter"].items() if k in JUPYTER_METADATA}
        if not meta["jupyter"]:
            del meta["jupyter"]
    out["metadata"] = meta
    source = cell.get("source", [])
    out["source"] = source.splitlines(keepends=True) if isinstance(source, str) else source
    if cell.get("cell_type") == "code":
        out["outputs"] = []
        out["execution_count"] = None
    return out


def normal_notebook(nb: dict[str, Any]) -> dict[str, Any]:
    """The committed form of the notebook ``nb`` (its JSON as a dict; ``nb`` is left as it is)."""
    out = dict(nb)
    meta = nb.get("metadata", {})
    kept: dict[str, Any] = {}
    if "kernelspec" in meta:
        kept["kernelspec"] = meta["kernelspec"]
    if "name" in meta.get("language_info", {}):
        kept["language_info"] = {"name": meta["language_info"]["name"]}
    out["metadata"] = kept
    out["cells"] = [normal_cell(c) for c in nb.get("cells", [])]
    return out


def normalize(text: str) -> str:
    """The committed form of the notebook ``text`` (JSON), as nbformat writes it."""
    return json.dumps(normal_notebook(json.loads(text)), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def notebooks() -> list[Path]:
    """The teaching notebooks."""
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="list the notebooks not in committed form")
    parser.add_argument("--filter", action="store_true", help="normalize stdin to stdout (git clean filter)")
    parser.add_argument("paths", nargs="*", type=Path, help="notebooks (default: notebooks/*.ipynb)")
    args = parser.parse_args(argv)
    if args.filter:
        sys.stdout.write(normalize(sys.stdin.read()))
        return 0
    stale = []
    for path in args.paths or notebooks():
        text = path.read_text(encoding="utf-8")
        normal = normalize(text)
        if normal != text:
            stale.append(path)
            if not args.check:
                path.write_text(normal, encoding="utf-8")
    for path in stale:
        print(f"{'not in committed form' if args.check else 'normalized'}: {path}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())

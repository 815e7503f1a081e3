#!/usr/bin/env python
"""Export the notebooks, executed and with widget state, to static HTML pages (`make export`).

The pages render the widgets with no kernel and no network: every script they load sits next to them
in dist/html/static/ (fetched once with `npm pack` and cached in build/export-cache/):

- require.js (npm `requirejs`) and @jupyter-widgets/html-manager's `dist/embed-amd.js` (with the
  icon fonts it references), instead of the public CDNs nbconvert's template points at;
- anywidget's AMD front end, `anywidget/nbextension/index.js` from the installed Python package
  (the same anywidget that ran the notebook), mapped with `require.config({paths: {anywidget}})`;
- MathJax 3 (`es5/tex-svg-full.js`, self-contained) for the formulas in the prose.

Mermaid diagrams are not rendered (nbconvert would load mermaid.js from a CDN).

The notebooks are executed in a kernel of this environment with nbclient's `store_widget_state`:
the stored state is what the kernel sent when each widget opened, so it keeps `_esm` (the widget's
JavaScript) and every other trait, defaults included.

Usage: python scripts/export_html.py [--output dist/html] [--notebooks PATH ...] [--timeout 600]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import nbformat
from nbclient.exceptions import CellExecutionError
from nbconvert import HTMLExporter
from nbconvert.preprocessors import ExecutePreprocessor

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lite_versions as pins
from notebook_sources import notebook_paths

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "export-cache"
DEFAULT_OUTPUT = ROOT / "dist" / "html"
DEFAULT_NOTEBOOKS = ROOT / "notebooks"
STATE_MIME = "application/vnd.jupyter.widget-state+json"
VIEW_MIME = "application/vnd.jupyter.widget-view+json"

# nbconvert's lab template, with every script it would load from a CDN replaced by a local copy.
TEMPLATE = """{%- extends 'index.html.j2' -%}
{%- block html_head_js_requirejs -%}
<script src="static/require.js"></script>
<script>require.config({paths: {anywidget: "static/anywidget"}});</script>
{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}
<script>
window.MathJax = {
  tex: {inlineMath: [["$", "$"], ["\\\\(", "\\\\)"]], processEscapes: true},
  svg: {fontCache: "global"},
  options: {enableMenu: false},
};
</script>
<script src="static/mathjax/tex-svg-full.js" defer></script>
{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}
{%- endblock html_head_js_mermaidjs -%}
"""


class ExportError(Exception):
    """The export cannot be done; the message says why."""


def log(message: str) -> None:
    print(f"[export] {message}", flush=True)


def npm_package(name: str, version: str) -> Path:
    """The unpacked npm package name@version (cached under build/export-cache/)."""
    folder = CACHE / f"{name.replace('/', '-').lstrip('@')}-{version}"
    unpacked = folder / "package"
    if (unpacked / "package.json").is_file():
        return unpacked
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    log(f"npm pack {name}@{version}")
    proc = subprocess.run(
        ["npm", "pack", "--silent", f"{name}@{version}"],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    tgz = sorted(folder.glob("*.tgz"))
    if proc.returncode != 0 or not tgz:
        raise ExportError(f"npm pack {name}@{version} failed:\n{proc.stdout}\n{proc.stderr}")
    with tarfile.open(tgz[0]) as tar:
        tar.extractall(folder, filter="data")
    return unpacked


def anywidget_amd() -> Path:
    import anywidget

    path = Path(anywidget.__file__).parent / "nbextension" / "index.js"
    if not path.is_file():
        raise ExportError(f"anywidget {anywidget.__version__} has no AMD front end at {path}")
    return path


def write_static(output: Path) -> None:
    """Copy the scripts the pages load into output/static/."""
    static = output / "static"
    static.mkdir(parents=True, exist_ok=True)
    manager = npm_package("@jupyter-widgets/html-manager", pins.HTML_MANAGER) / "dist"
    for f in manager.iterdir():
        # embed-amd.js, plus the icon fonts its CSS refers to by relative URL
        if f.name == "embed-amd.js" or f.suffix in {".woff", ".woff2", ".ttf", ".eot", ".svg"}:
            shutil.copy2(f, static / f.name)
    shutil.copy2(npm_package("requirejs", pins.REQUIREJS) / "require.js", static / "require.js")
    shutil.copy2(anywidget_amd(), static / "anywidget.js")
    mathjax = npm_package("mathjax", pins.MATHJAX) / "es5" / "tex-svg-full.js"
    (static / "mathjax").mkdir(exist_ok=True)
    shutil.copy2(mathjax, static / "mathjax" / mathjax.name)


def widget_views(nb: Any) -> list[str]:
    """Model ids of the widget views in a notebook's outputs."""
    ids: list[str] = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(VIEW_MIME)
            if view:
                ids.append(view["model_id"])
    return ids


def execute(path: Path, timeout: int, kernel: str) -> Any:
    """The notebook, executed in its own folder, with the widget state in its metadata."""
    nb = nbformat.read(path, as_version=4)
    processor = ExecutePreprocessor(timeout=timeout, kernel_name=kernel, store_widget_state=True)
    try:
        processor.preprocess(nb, {"metadata": {"path": str(path.parent)}})
    except CellExecutionError as error:
        raise ExportError(f"{path.name} failed to execute:\n{error}") from error
    views = widget_views(nb)
    state = nb.metadata.get("widgets", {}).get(STATE_MIME, {}).get("state", {})
    missing = [v for v in views if v not in state]
    if missing:
        raise ExportError(f"{path.name}: widget views without stored state: {missing}")
    for model_id in views:
        model = state[model_id]
        if model["model_module"] == "anywidget" and not model["state"].get("_esm"):
            raise ExportError(f"{path.name}: anywidget {model_id} was stored without its _esm")
    return nb


def offline_exporter(template_dir: Path) -> HTMLExporter:
    """nbconvert's lab HTML exporter, pointed at the local scripts (writes its template there)."""
    (template_dir / "ipyms_offline.html.j2").write_text(TEMPLATE)
    return HTMLExporter(
        template_name="lab",
        template_file="ipyms_offline.html.j2",
        extra_template_paths=[str(template_dir)],
        widget_renderer_url="static/embed-amd.js",
        require_js_url="static/require.js",
        mathjax_url="static/mathjax/tex-svg-full.js",
        embed_images=True,
    )


def render(exporter: HTMLExporter, nb: Any, name: str) -> str:
    """The page of an executed notebook; fails if it would still load anything from a CDN."""
    body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": name}})
    cdns = [c for c in ("cdn.jsdelivr.net", "unpkg.com", "cdnjs.") if c in body]
    if cdns:
        raise ExportError(f"{name}: the page still refers to {cdns}")
    return str(body)


def export(output: Path, sources: Sequence[Path], timeout: int = 600, kernel: str = "python3") -> list[Path]:
    started = time.monotonic()
    notebooks = notebook_paths(sources, ExportError, "to export")
    write_static(output)
    pages: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="ipyminesweeper-export-") as tmp:
        exporter = offline_exporter(Path(tmp))
        for path in notebooks:
            t0 = time.monotonic()
            nb = execute(path, timeout, kernel)
            body = render(exporter, nb, path.stem)
            page = output / f"{path.stem}.html"
            page.write_text(body, encoding="utf-8")
            pages.append(page)
            log(
                f"{page.relative_to(output.parent)}: {len(widget_views(nb))} widget view(s), "
                f"{time.monotonic() - t0:.1f} s"
            )
    (output / "index.html").write_text(index_page(pages), encoding="utf-8")
    log(
        f"exported {len(pages)} page(s) into {output} in {time.monotonic() - started:.1f} s "
        f"(anywidget {importlib.metadata.version('anywidget')}, "
        f"html-manager {pins.HTML_MANAGER})"
    )
    return pages


def index_page(pages: Sequence[Path]) -> str:
    items = "\n".join(f'<li><a href="{p.name}">{p.stem}</a></li>' for p in pages)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>ipyminesweeper notebooks</title></head>\n"
        f"<body><h1>ipyminesweeper notebooks</h1>\n<ul>\n{items}\n</ul></body></html>\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="default: dist/html")
    parser.add_argument(
        "--notebooks",
        type=Path,
        nargs="+",
        default=[DEFAULT_NOTEBOOKS],
        help="notebooks or folders of notebooks (default: notebooks/)",
    )
    parser.add_argument("--timeout", type=int, default=600, help="per cell, in seconds")
    parser.add_argument("--kernel", default="python3", help="kernel name (default python3)")
    args = parser.parse_args(argv)
    try:
        export(
            args.output.resolve(),
            [p.resolve() for p in args.notebooks],
            timeout=args.timeout,
            kernel=args.kernel,
        )
    except ExportError as error:
        print(f"\nexport_html: FAILED: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

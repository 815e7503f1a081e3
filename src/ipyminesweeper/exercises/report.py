"""What a check says: a :class:`Check` value, its counterexample, and how both are drawn.

A check is truthy when the student's function agreed everywhere it was tried. Otherwise it holds the
smallest :class:`Counterexample` Hypothesis shrank to: the inputs, what the function gave, what was
expected, as :class:`Panel` pictures side by side with the differing cells marked. Jupyter shows it as
HTML (``_repr_html_``); ``str()`` is the same as plain text for a terminal.
"""

from __future__ import annotations

import html
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from ..engine import Board, Position, View, format_position

__all__ = [
    "Check",
    "Counterexample",
    "Panel",
    "PropertyResult",
    "Raised",
    "board_panel",
    "count",
    "note_panel",
    "numbers_panel",
    "view_panel",
]

LEGEND = ". covered   * mine   f flag on a safe cell   F flag on a mine   X the exploded mine   0-8 revealed"


@dataclass(frozen=True)
class Panel:
    """One picture: a caption, a grid of cell texts (or none), the cells marked as different, and the
    cell in focus (where the move was made), with an optional note under it."""

    caption: str
    grid: tuple[tuple[str, ...], ...] = ()
    marked: frozenset[Position] = frozenset()
    focus: Position | None = None
    note: str = ""


def board_panel(
    caption: str,
    board: Board,
    marked: frozenset[Position] = frozenset(),
    focus: Position | None = None,
    note: str = "",
) -> Panel:
    """A board in the text notation (mines shown), with its status under it."""
    lines = board.to_text().splitlines()[0 if board.placed else 1 :]
    status = board.status if board.placed else f"{board.status}, mines not placed yet"
    return Panel(caption, tuple(tuple(line) for line in lines), marked, focus, note or status)


def view_panel(
    caption: str,
    view: View,
    marked: frozenset[Position] = frozenset(),
    focus: Position | None = None,
    note: str = "",
) -> Panel:
    """What a player sees, one character per cell."""
    rows = tuple(tuple(view.cells[r * view.cols : (r + 1) * view.cols]) for r in range(view.rows))
    return Panel(caption, rows, marked, focus, note or f"{view.mines} mines, {view.status}")


def numbers_panel(
    caption: str,
    view: View,
    numbers: Mapping[Position, float],
    marked: frozenset[Position] = frozenset(),
    note: str = "",
) -> Panel:
    """A view with a percentage in each cell of ``numbers`` (a cell missing from it shows ``?``)."""
    grid = []
    for r in range(view.rows):
        row = []
        for c in range(view.cols):
            ch = view.cells[r * view.cols + c]
            if ch not in ".f":
                row.append(ch)
            elif (r, c) in numbers:
                row.append(_percent(numbers[(r, c)]))
            else:
                row.append("?")
        grid.append(tuple(row))
    return Panel(caption, tuple(grid), marked, None, note)


def note_panel(caption: str, note: str) -> Panel:
    """A panel with words only (an exception, a value that is not a board)."""
    return Panel(caption, note=note)


def _percent(value: object) -> str:
    try:
        return f"{float(value):.0%}"  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "!"


@dataclass(frozen=True)
class Raised:
    """An error and its frames from the function called down (``first``; None where it was raised at
    the call): its traceback's text, written when first shown. Most failing calls are never shown, and
    writing a traceback reads source files."""

    error: BaseException
    first: TracebackType | None

    def __str__(self) -> str:
        return "".join(traceback.format_exception(type(self.error), self.error, self.first))

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        """Pickled as its text (frames are not pickled)."""
        return str, (str(self),)


@dataclass(frozen=True)
class Counterexample:
    """The smallest input found where the function disagreed, and the pictures that show it.

    ``call`` is the call that went wrong (``my_chord(board, (0, 2))``), ``summary`` what was wrong with
    it, ``inputs`` the arguments (to call the function again yourself), ``got`` and ``expected`` the two
    results, ``trace`` the function's traceback when it raised (:attr:`traceback` as text).
    """

    call: str
    summary: str
    panels: tuple[Panel, ...]
    inputs: tuple[Any, ...] = ()
    got: Any = None
    expected: Any = None
    trace: str | Raised = ""
    marks: str = "the cells that differ"
    """What the marked cells are (the legend under the pictures says it)."""

    @property
    def traceback(self) -> str:
        """The function's traceback when it raised (else empty), as text."""
        return str(self.trace)

    @property
    def board(self) -> Board | View | None:
        """The first board or view among the inputs (the start position)."""
        return next((x for x in self.inputs if isinstance(x, (Board, View))), None)

    def __str__(self) -> str:
        """The call, what was wrong, the pictures side by side, their legend and the traceback."""
        lines = [f"{self.call}: {self.summary}", ""]
        lines += _text_panels(self.panels)
        if any(p.marked for p in self.panels):
            lines.append(f"[x] marks {self.marks}, <x> the cell of the move.")
        if any(p.grid and p.caption != "probabilities" for p in self.panels):
            lines.append(LEGEND)
        if self.traceback:
            lines += ["", self.traceback.rstrip()]
        return "\n".join(lines)


def count(n: int, noun: str, plural: str = "") -> str:
    """``"1 board"``, ``"2 boards"``: a number and its noun, in the singular for one."""
    return f"{n} {noun}" if n == 1 else f"{n} {plural or noun + 's'}"


@dataclass(frozen=True)
class PropertyResult:
    """One property of a check: how many examples put it to the test, and the first that broke it.
    It *holds* when it was tried and never broken (the unit of partial credit)."""

    name: str
    tried: int
    counterexample: Counterexample | None = None

    @property
    def held(self) -> bool:
        return self.tried > 0 and self.counterexample is None

    @property
    def mark(self) -> str:
        """✓ held, ✗ broken, ? never tried."""
        return "✓" if self.held else "✗" if self.counterexample is not None else "?"


@dataclass(frozen=True)
class Check:
    """The verdict of a check: truthy when ``function`` agreed with the reference on all ``tried``
    examples, else falsy with the smallest :attr:`counterexample`. :attr:`properties` says which of the
    check's properties held (partial credit); :attr:`output` is what the function printed."""

    exercise: str
    function: str
    tried: int
    counterexample: Counterexample | None = None
    counts: tuple[tuple[str, int], ...] = ()
    """How many of the examples tried were of each interesting kind (e.g. "chord changed the board")."""
    notes: tuple[str, ...] = field(default=())
    illustration: Counterexample | None = None
    """For a passing check, an example worth seeing (e.g. the smallest board on which a property
    catches a broken rule)."""
    properties: tuple[PropertyResult, ...] = ()
    output: str = ""
    """The start of what the student's function printed during the check."""
    printed_lines: int = 0
    stopped: str = ""
    """Why the check tried fewer examples than it asks for (the function's time ran out...), or ``""``."""

    def __bool__(self) -> bool:
        return self.counterexample is None and all(p.held for p in self.properties)

    @property
    def score(self) -> tuple[int, int]:
        """``(properties held, properties)``: the check's partial credit."""
        return sum(p.held for p in self.properties), len(self.properties)

    @property
    def headline(self) -> str:
        if self:
            tried = count(self.tried, "example")
            return f"✓ {self.function} passes the {self.exercise} check: {tried} tried."
        held, total = self.score
        of = f": {held} of {count(total, 'property', 'properties')} hold" if total > 1 else ""
        return f"✗ {self.function} fails the {self.exercise} check{of}."

    @property
    def printed(self) -> str:
        """A sentence on the printing, or ``""`` when the function printed nothing."""
        if not self.printed_lines:
            return ""
        return f"{self.function} printed {count(self.printed_lines, 'line')} during the check (kept aside)."

    def __str__(self) -> str:
        lines = [self.headline]
        if len(self.properties) > 1:
            lines += [f"  {p.mark} {p.name}" for p in self.properties]
        if self.counterexample is None:
            lines += [f"  {n} {label}" for label, n in self.counts]
        else:
            lines.append(str(self.counterexample))
        lines += list(self.notes)
        if self.illustration is not None:
            lines += [f"{self.illustration.call}: {self.illustration.summary}", ""]
            lines += _text_panels(self.illustration.panels)
        if self.printed:
            shown = self.output.splitlines()[:5]
            lines += ["", self.printed, *(f"  | {line}" for line in shown)]
            if self.printed_lines > len(shown):
                lines.append("  | ...")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        colour = "#1e7b34" if self else "#b42318"
        parts = [
            '<div class="ipyms-check" style="font:13px/1.45 system-ui,sans-serif;margin:4px 0">',
            f'<div style="font-weight:600;color:{colour}">{html.escape(self.headline)}</div>',
        ]
        if len(self.properties) > 1:
            items = "".join(f"<li>{p.mark} {html.escape(p.name)}</li>" for p in self.properties)
            parts.append(f'<ul style="margin:2px 0 0 0;list-style:none;padding-left:1em">{items}</ul>')
        if self.counterexample is None:
            if self.counts:
                items = "".join(f"<li>{n} {html.escape(label)}</li>" for label, n in self.counts)
                parts.append(f'<ul style="margin:2px 0 0 0">{items}</ul>')
        else:
            ex = self.counterexample
            parts.append(
                f"<div><code>{html.escape(ex.call)}</code>: {html.escape(ex.summary)}</div>"
                '<div style="display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start;margin:6px 0">'
                + "".join(_html_panel(p) for p in ex.panels)
                + "</div>"
            )
            if any(p.marked for p in ex.panels):
                parts.append(
                    f'<div style="opacity:.75">Red: {html.escape(ex.marks)}. Blue: the cell of the move. '
                    f"{html.escape(LEGEND)}</div>"
                )
            if ex.traceback:
                parts.append(
                    "<details open><summary>the traceback of your function</summary>"
                    '<pre style="font-size:12px;white-space:pre-wrap;margin:4px 0">'
                    f"{html.escape(ex.traceback)}</pre></details>"
                )
        parts += [f'<div style="white-space:pre-wrap">{html.escape(note)}</div>' for note in self.notes]
        if self.illustration is not None:
            shown = self.illustration
            parts.append(
                f"<div><code>{html.escape(shown.call)}</code>: {html.escape(shown.summary)}</div>"
                '<div style="display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start;margin:6px 0">'
                + "".join(_html_panel(p) for p in shown.panels)
                + "</div>"
            )
        if self.printed:
            parts.append(
                f"<details><summary>{html.escape(self.printed)}</summary>"
                '<pre style="font-size:12px;white-space:pre-wrap;margin:4px 0;max-height:20em;overflow:auto">'
                f"{html.escape(self.output)}</pre></details>"
            )
        parts.append("</div>")
        return "".join(parts)


def _cell_text(text: str, pos: Position, panel: Panel) -> str:
    if pos in panel.marked:
        return f"[{text}]"
    if pos == panel.focus:
        return f"<{text}>"
    return f" {text} "


def _text_panels(panels: Sequence[Panel]) -> list[str]:
    """Panels side by side as plain text, one cell 3+ characters wide."""
    if not panels:
        return []
    blocks = []
    for panel in panels:
        width = max((len(t) for row in panel.grid for t in row), default=1)
        lines = [
            "".join(_cell_text(t.rjust(width), (r, c), panel) for c, t in enumerate(row))
            for r, row in enumerate(panel.grid)
        ]
        lines += _wrap(panel.note, max(24, max((len(line) for line in lines), default=0)))
        blocks.append([panel.caption, *lines])
    widths = [max(len(line) for line in block) for block in blocks]
    height = max(len(block) for block in blocks)
    out = []
    for i in range(height):
        row = [(block[i] if i < len(block) else "").ljust(w) for block, w in zip(blocks, widths, strict=True)]
        out.append("   ".join(row).rstrip())
    return out


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.splitlines():
        line = ""
        for word in paragraph.split(" "):
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return lines


def _html_panel(panel: Panel) -> str:
    cell = (
        "min-width:1.7em;height:1.7em;padding:0 2px;text-align:center;font:12px ui-monospace,monospace;"
        "border:1px solid rgba(128,128,128,.55);"
    )
    rows = []
    for r, row in enumerate(panel.grid):
        tds = []
        for c, text in enumerate(row):
            style = cell
            if text in (".", "f", "*", "F") or text.endswith("%") or text == "?":
                style += "background:rgba(128,128,128,.22);"
            if text == "X":
                style += "background:rgba(240,68,56,.55);"
            if (r, c) in panel.marked:
                style += "outline:2px solid #d92d20;outline-offset:-2px;background:rgba(217,45,32,.22);"
            elif (r, c) == panel.focus:
                style += "outline:2px solid #2563eb;outline-offset:-2px;"
            tds.append(f'<td style="{style}">{html.escape(text)}</td>')
        rows.append("<tr>" + "".join(tds) + "</tr>")
    table = f'<table style="border-collapse:collapse;margin:2px 0">{"".join(rows)}</table>' if rows else ""
    note = (
        f'<div style="max-width:28em;white-space:pre-wrap;opacity:.85">{html.escape(panel.note)}</div>'
        if panel.note
        else ""
    )
    return (
        f'<figure style="margin:0"><figcaption style="font-weight:600">{html.escape(panel.caption)}'
        f"</figcaption>{table}{note}</figure>"
    )


def where(pos: Position) -> str:
    """A position as the reasons write it, ``(r,c)``."""
    return format_position(pos)

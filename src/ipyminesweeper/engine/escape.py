"""A user's string shown as text, never as markup: one function per target (terminal, Markdown, HTML).

A strategy's name, a student's file name or the text of an exception is data. Every table and bar that
shows one passes it through the function of its target, so a name such as ``<img src=x onerror=...>``
or ``ada\\n| 1 | fake |`` shows as those characters and adds no element, no row and no colour:

- :func:`terminal_text`: control and format characters (newlines, escape sequences, bidirectional
  overrides, invalid bytes of a file name) become visible escapes such as ``\\n`` and ``\\x1b``;
- :func:`markdown_text`: that, and the characters Markdown (with its tables, HTML and maths) would read
  as markup are escaped, for inline text such as a table cell;
- :func:`html_text`: that, and ``&``, ``<``, ``>`` and quotes as entities.

>>> print(markdown_text("ada | <b>x</b>"))
ada \\| &lt;b&gt;x&lt;/b&gt;
"""

from __future__ import annotations

import html
import re
import unicodedata

__all__ = ["html_text", "markdown_text", "terminal_text"]

_HIDDEN = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
"""Unicode categories a terminal or a page does not show as a glyph: controls, format characters (such
as bidirectional overrides), lone surrogates (undecodable bytes of a file name), private, unassigned,
and the line and paragraph separators."""

_MARKDOWN_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_MARKDOWN_PUNCTUATION = frozenset("\\`*_[]|~$")
"""Inline Markdown: code spans, emphasis, links and images, table cells, strikethrough, maths."""
_BLOCK_START = re.compile(r"^(?:[#+\-=]|\d+[.)])")
"""What would start a heading, a list or a rule at the start of a line."""


def _visible(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def terminal_text(text: str) -> str:
    """``text`` with every character a terminal would act on or not show (newlines, escape sequences,
    bidirectional overrides, undecodable bytes) written as a visible escape: one line, printable."""
    if text.isprintable():
        return text
    return "".join(
        {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch) or _visible(ch)
        if unicodedata.category(ch) in _HIDDEN
        else ch
        for ch in text
    )


def markdown_text(text: str) -> str:
    """``text`` as inline Markdown that renders as exactly its characters (after :func:`terminal_text`):
    no HTML, link, emphasis, code span, maths or table cell boundary of its own."""
    shown = terminal_text(text)
    out = "".join(
        _MARKDOWN_ENTITIES.get(ch) or (f"\\{ch}" if ch in _MARKDOWN_PUNCTUATION else ch) for ch in shown
    )
    start = _BLOCK_START.match(out)
    if start:
        end = start.end() - 1
        out = f"{out[:end]}\\{out[end:]}"
    return out


def html_text(text: str) -> str:
    """``text`` as HTML text (after :func:`terminal_text`): ``&``, ``<``, ``>`` and quotes as
    entities, so it is safe in an element and in a quoted attribute."""
    return html.escape(terminal_text(text), quote=True)

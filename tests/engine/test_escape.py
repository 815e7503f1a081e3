"""A user's string shows as its characters in a terminal, in Markdown and in HTML: never as markup.

The Markdown is rendered by a real CommonMark parser with tables (markdown-it-py, which JupyterLab's
server brings): whatever the string, the table row has one cell, and the cell's text is the string.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ipyminesweeper.engine.escape import html_text, markdown_text, terminal_text

HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "ada\n| 1 | fake | 100 / 100 |",
    "<script>alert(1)</script>",
    "`code` *bold* _it_ [link](javascript:alert(1)) ![i](x) ~~s~~ $x$",
    "# heading",
    "- item",
    "1. item",
    "&lt;b&gt; &amp;",
    "red\x1b[31m bell\x07 back\x08 cr\r tab\t",
    "bidi \u202eevil\u202c line\u2028sep",
    "bad bytes \udcff\udc80",
    "a\\|b \\`c",
    '" onmouseover="alert(1)',
]


class _Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: dict[str, str] = {}
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.tags.append(tag)
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.open and self.open[-1] == tag:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.open:
            self.text[self.open[-1]] = self.text.get(self.open[-1], "") + data


def _rendered_cell(markdown: str) -> _Cells:
    markdown_it = pytest.importorskip("markdown_it")
    html = markdown_it.MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(markdown)
    cells = _Cells()
    cells.feed(html)
    return cells


@pytest.mark.parametrize("text", HOSTILE)
def test_terminal_text_is_one_printable_line(text: str) -> None:
    shown = terminal_text(text)
    assert shown.isprintable() and "\n" not in shown
    shown.encode("utf-8")  # no lone surrogate left to raise when printed


def test_terminal_text_keeps_what_shows_as_it_is() -> None:
    assert terminal_text("Ada Lovelace, émile, 北京, 👍") == "Ada Lovelace, émile, 北京, 👍"
    assert terminal_text("a\nb\x1b") == "a\\nb\\x1b"


@given(st.text())
@example("x")
def test_markdown_text_renders_as_exactly_the_characters_in_one_table_cell(text: str) -> None:
    row = f"x{markdown_text(text)}x"
    cells = _rendered_cell(f"| head |\n|---|\n| {row} |\n")
    assert [tag for tag in cells.tags if tag not in ("table", "thead", "tbody", "tr", "th")] == ["td"]
    assert cells.text["td"] == f"x{terminal_text(text)}x"


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_text_has_no_markup_of_its_own(text: str) -> None:
    shown = markdown_text(text)
    assert "<" not in shown and ">" not in shown and "\n" not in shown
    cells = _rendered_cell(f"| head |\n|---|\n| {shown} |\n")
    assert cells.tags.count("td") == 1 and cells.text["td"] == terminal_text(text).strip()


@given(st.text())
@example('" onmouseover="alert(1)')
def test_html_text_is_text_in_an_element_and_an_attribute(text: str) -> None:
    cells = _Cells()
    cells.feed(f'<td title="{html_text(text)}">{html_text(text)}</td>')
    assert cells.tags == ["td"]
    assert cells.text.get("td", "") == terminal_text(text)

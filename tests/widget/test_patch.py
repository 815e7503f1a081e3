"""Board patches (widget/board_wire.py): a view's changes as bytes, about 2 bytes per changed cell at most
on a cascade, and the front end's decoder (js/wire.js) reads exactly what Python writes."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipyminesweeper import new_board, reveal
from ipyminesweeper.widget.board_wire import (
    ALPHABET,
    PACKED_FROM,
    PatchError,
    apply,
    changed_runs,
    diff,
    varint,
    wire_cells,
)

JS = Path(__file__).resolve().parents[2] / "js" / "wire.js"

views = st.integers(1, 300).flatmap(
    lambda n: st.tuples(st.text(ALPHABET, min_size=n, max_size=n), st.text(ALPHABET, min_size=n, max_size=n))
)


@given(views)
@settings(max_examples=300)
def test_a_patch_turns_one_view_into_the_other(pair: tuple[str, str]) -> None:
    before, after = pair
    patch = diff(before, after)
    assert apply(before, patch) == after
    changed = sum(stop - start for start, stop in changed_runs(before, after))
    assert changed == sum(a != b for a, b in zip(before, after, strict=True))
    assert (patch == b"") == (before == after)


@given(
    st.integers(1, 3 * 4096 + 7).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, 5000), st.sampled_from(ALPHABET[1:]))),
        )
    )
)
@settings(max_examples=100)
def test_runs_across_chunks_are_found_whole(case: tuple[int, list[tuple[int, int, str]]]) -> None:
    """Views longer than the chunk the scan compares at once, with changes that cross its edges: the runs
    are those of a comparison cell by cell, and the patch is what packing each cell by hand gives."""
    n, changes = case
    before = "." * n
    cells = list(before)
    for start, length, ch in changes:
        cells[start : start + length] = ch * len(cells[start : start + length])
    after = "".join(cells)
    expected: list[tuple[int, int]] = []
    for i in (i for i in range(n) if before[i] != after[i]):
        if expected and expected[-1][1] == i:
            expected[-1] = (expected[-1][0], i + 1)
        else:
            expected.append((i, i + 1))
    assert changed_runs(before, after) == expected
    by_hand = bytearray()
    position = 0
    for start, stop in expected:
        codes = [ALPHABET.index(ch) for ch in after[start:stop]] + [0]
        by_hand += varint(start - position) + varint(stop - start)
        by_hand += bytes(codes[k] << 4 | codes[k + 1] for k in range(0, stop - start, 2))
        position = stop
    assert diff(before, after) == bytes(by_hand)
    assert apply(before, diff(before, after)) == after


def test_bytes_grow_with_the_changed_cells_not_the_board() -> None:
    one = {
        n: len(diff("." * n * n, "." * (n * n // 2) + "1" + "." * (n * n - n * n // 2 - 1)))
        for n in (16, 2000)
    }
    assert max(one.values()) <= 5, one  # a gap (1 to 3 bytes), a length, one state byte
    board = new_board(1000, 1000, 150_000, seed=7)
    opened = reveal(board, (500, 500))
    for pos in [(r, c) for r in range(480, 520) for c in range(480, 520)]:
        if opened.view[pos] == "." and not opened.is_mine(pos):
            after = reveal(opened, pos)
            cells = sum(a != b for a, b in zip(opened.view.cells, after.view.cells, strict=True))
            if cells > 20:  # a cascade
                assert len(diff(opened.view.cells, after.view.cells)) <= 2 * cells + 8, cells
                return
    pytest.fail("no cascade found near the opening")


def test_a_patch_that_does_not_fit_is_refused() -> None:
    with pytest.raises(PatchError, match="two views of one board"):
        diff("..", "...")
    with pytest.raises(PatchError, match="outside"):
        diff("....", ".?..")
    with pytest.raises(PatchError, match="does not fit"):
        apply("....", bytes([3, 2, 0x33]))
    with pytest.raises(PatchError, match="alphabet"):
        apply("....", bytes([0, 1, 0xF0]))
    with pytest.raises(PatchError, match="ends inside"):
        apply("....", bytes([0x80]))


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_front_end_reads_what_python_writes() -> None:
    before = "".join(ALPHABET[(i * 7) % 15] for i in range(5000))
    after = list(before)
    for i in [0, 1, 2, 130, 131, 4999, *range(1000, 1300)]:
        after[i] = ALPHABET[(ALPHABET.index(after[i]) + 3) % 15]
    expected = "".join(after)
    script = (
        f"import({json.dumps(JS.as_uri())}).then((m) => {{"
        "const [cells, hex] = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const out = m.applyPatch(cells, Uint8Array.from(Buffer.from(hex, 'hex')));"
        "process.stdout.write(JSON.stringify(out)); });"
    )
    payload = json.dumps([before, diff(before, expected).hex()])
    out = json.loads(
        subprocess.run(
            ["node", "-e", script], input=payload, capture_output=True, text=True, check=True
        ).stdout
    )
    assert out["cells"] == expected
    assert out["changed"] == [i for i in range(5000) if before[i] != expected[i]]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_front_end_reads_a_packed_view() -> None:
    """js/wire.js readCells turns what board_wire.wire_cells sends for a big board back into the view."""
    rows, cols = 150, 120
    board = reveal(new_board(rows, cols, 2_000, seed=4), (75, 60))
    views = [board.view.cells, "." * (rows * cols)]
    packed = [wire_cells(v) for v in views]
    assert rows * cols >= PACKED_FROM and all(p.startswith("~") for p in packed) and packed[1] == "~"
    script = (
        f"import({json.dumps(JS.as_uri())}).then((m) => {{"
        "const [rows, cols, packed] = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const out = packed.map((p) => m.readCells(p, rows, cols));"
        "process.stdout.write(JSON.stringify(out)); });"
    )
    payload = json.dumps([rows, cols, packed])
    out = json.loads(
        subprocess.run(
            ["node", "-e", script], input=payload, capture_output=True, text=True, check=True
        ).stdout
    )
    assert out == [{"cells": v, "problem": ""} for v in views]

"""The class on one laptop: a student's browser on another machine, over plain http, end to end.

The "other machine" is a network namespace joined to this one by a veth pair with addresses of the test's
own (10.213.N.1 for the laptop, 10.213.N.2 for the student). The laptop runs
``python -m ipyminesweeper.classroom serve`` on its address; Debian's Chromium runs *inside* the namespace
(``ip netns exec``), with no flag that fakes a secure context or ignores certificates, and opens the site
by the laptop's address. So the page is what a student's stock browser gets: not a secure context, no
service worker, no SharedArrayBuffer (asserted). Then, as a student:

1. the first page (two lines);
2. notebook 02: run all (its exercises' checks included), save;
3. notebook 03: run all, save;
4. ``%%writefile careful.py``, a cell that imports and opens it back (and checks it), and ``hand_in``
   from the kernel;
5. the hand-in page: both notebooks, from the browser's storage.

The teacher's side: the files are in the hand-in folder, and the tournament command reads the strategy.
A screenshot of each step goes to ``artifacts/classroom/``. Needs root (``ip netns``); skips without it.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from _lite_support import ROOT, SCREENSHOTS
from playwright.sync_api import Page, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_lite_site import run_all, wait_for_kernel

from chromium import BASE_ARGS, artifacts_dir, chromium_path
from ipyminesweeper.engine.escape import markdown_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CODE = "K7Q2"
STUDENT = "ada_lovelace"
ACTION_TIMEOUT_MS = 120_000
# JupyterLab reopens the tabs of the last visit (02's, when 03 opens): the notebook shown is the one
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook"

STRATEGY = '''from ipyminesweeper import Move, certain_moves, exact


def careful(view):
    """Reveal a certainly safe cell, else play exact's move."""
    known = certain_moves(view, complete=True)
    safe = sorted(pos for pos in known.safe if view[pos] == ".")
    if safe:
        return Move("reveal", safe[0], known.reasons[safe[0]], 0.0)
    return exact(view)


strategy = careful
'''
WRITEFILE_CELL = "%%writefile careful.py\n" + STRATEGY
READ_BACK_CELL = (
    "import careful as handed\n"
    'print("READBACK", open("careful.py").read().count("def careful"), bool(check_strategy(handed.strategy)))'
)
HAND_IN_CELL = (
    f'from ipyminesweeper.classroom import hand_in\n\nhand_in("careful.py", name="{STUDENT}", code="{CODE}")'
)


# --------------------------------------------------------------------------------------------------
# the classroom network


@dataclass
class Lan:
    """A student's machine: a namespace, the laptop's address seen from it, and a browser launcher."""

    namespace: str
    laptop: str
    chromium: Path


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check)


def free_subnet() -> int:
    """A 10.213.N.0/24 that no interface of this machine uses (other tests may run in parallel)."""
    used = ip("-4", "-o", "addr").stdout
    start = os.getpid() % 200 + 20
    return next(n for n in range(start, start + 200) if f"10.213.{n % 250}." not in used) % 250


@pytest.fixture
def lan(tmp_path: Path) -> Iterator[Lan]:
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("needs root and iproute2: the student's machine is a network namespace")
    path = chromium_path()
    assert path is not None
    tag, subnet = f"{os.getpid() % 100000}", free_subnet()
    namespace, laptop_if, student_if = f"ipyms-student-{tag}", f"ipymsl{tag}", f"ipymss{tag}"
    laptop, student = f"10.213.{subnet}.1", f"10.213.{subnet}.2"
    try:
        ip("netns", "add", namespace)
        ip("link", "add", laptop_if, "type", "veth", "peer", "name", student_if)
        ip("link", "set", student_if, "netns", namespace)
        ip("addr", "add", f"{laptop}/24", "dev", laptop_if)
        ip("link", "set", laptop_if, "up")
        ip("netns", "exec", namespace, "ip", "addr", "add", f"{student}/24", "dev", student_if)
        ip("netns", "exec", namespace, "ip", "link", "set", student_if, "up")
        ip("netns", "exec", namespace, "ip", "link", "set", "lo", "up")
        wrapper = tmp_path / "chromium-on-the-student-machine"
        wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {namespace} {path} "$@"\n')
        wrapper.chmod(0o755)
        yield Lan(namespace, laptop, wrapper)
    finally:
        ip("netns", "delete", namespace, check=False)  # takes the student's end of the pair with it
        ip("link", "delete", laptop_if, check=False)
        assert namespace not in ip("netns", "list").stdout


@pytest.fixture
def class_server(lan: Lan, lite_site: Path, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The teacher's command on the laptop's address; yields the URL it prints and the hand-in folder."""
    handin = tmp_path / "handin"
    command = [sys.executable, "-u", "-m", "ipyminesweeper.classroom", "serve", "--site", str(lite_site)]
    command += ["--handin", str(handin), "--class-code", CODE, "--host", lan.laptop, "--port", "0"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout is not None
        banner = [server.stdout.readline() for _ in range(4)]
        print("".join(banner))
        url = banner[2].strip()
        assert url.startswith(f"http://{lan.laptop}:"), banner
        assert banner[3].strip() == f"class code: {CODE}"
        yield url, handin
    finally:
        server.terminate()
        server.wait(timeout=10)


# --------------------------------------------------------------------------------------------------
# the student's browser


@dataclass
class Student:
    page: Page
    url: str
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)

    def screenshot(self, name: str) -> None:
        path = artifacts_dir("classroom") / f"{name}.png"
        self.page.screenshot(path=str(path))
        SCREENSHOTS.append(path)
        print(f"screenshot: {path}")

    def open_notebook(self, name: str) -> None:
        """From the first page, as a student: click the notebook's link, wait for the kernel, run all."""
        self.page.goto(self.url)
        self.page.get_by_role("link", name=name.removesuffix(".ipynb"), exact=True).click()
        self.page.wait_for_selector("#jp-main-statusbar")
        self.timings[f"{name}: kernel"] = wait_for_kernel(self.page)
        self.make_current(name)
        self.timings[f"{name}: run all"] = run_all(self.page)

    def make_current(self, name: str) -> None:
        """JupyterLab restores the browser's last layout as it starts; on a busy machine that can land
        after the link's notebook was opened, and show the notebook of before instead (seen at load 12:
        Run All then ran 02 again). Then the notebook is opened from the file browser, as a student would."""
        current = (
            "n => document.querySelector('.lm-TabBar-tab.jp-mod-current .lm-TabBar-tabLabel')"
            "?.textContent === n"
        )
        try:
            self.page.wait_for_function(current, arg=name, timeout=5_000)
        except PlaywrightTimeout:
            print(f"{name} was not the current tab after its link: opened from the file browser")
            self.page.locator(".jp-DirListing-item", has_text=name).dblclick()
            self.page.wait_for_function(current, arg=name, timeout=ACTION_TIMEOUT_MS)
            wait_for_kernel(self.page)

    def add_cell(self, source: str, output: str) -> str:
        """A new cell at the end, with ``source`` pasted in as it is; run it, return its output."""
        page = self.page
        last = page.locator(f"{NOTEBOOK} .jp-Cell").last
        last.click()
        page.keyboard.press("Escape")
        if last.locator(".cm-content").inner_text().strip():  # else: the empty cell Shift+Enter left
            page.keyboard.press("b")
        page.keyboard.press("Enter")
        page.keyboard.insert_text(source)  # no auto-indent, no closing brackets added
        page.keyboard.press("Shift+Enter")
        found = page.locator(f"{NOTEBOOK} .jp-OutputArea-output", has_text=output).last
        found.wait_for(timeout=ACTION_TIMEOUT_MS)
        return found.inner_text().strip()

    def save(self) -> None:
        """Ctrl+S, then wait until the tab is no longer marked as changed."""
        page = self.page
        page.locator(NOTEBOOK).click(position={"x": 5, "y": 5})
        page.keyboard.press("Escape")
        page.keyboard.press("Control+s")
        page.wait_for_function(
            "() => !document.querySelector('.lm-TabBar-tab.jp-mod-current.jp-mod-dirty')",
            timeout=ACTION_TIMEOUT_MS,
        )

    def check(self, origin: str) -> None:
        """No JavaScript error, and no request to anywhere but the laptop's server."""
        assert not self.errors, f"JavaScript errors: {self.errors}"
        elsewhere = [u for u in self.requests if not u.startswith((origin, "data:", "blob:"))]
        assert not elsewhere, f"requests that did not go to the laptop: {elsewhere[:10]}"


@pytest.fixture
def student(lan: Lan, class_server: tuple[str, Path]) -> Iterator[Student]:
    url, _ = class_server
    laptop = url.split("//")[1].split(":")[0]
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(lan.chromium),
            args=[*BASE_ARGS, f"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE {laptop}"],
        )
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        page = context.new_page()
        page.set_default_timeout(ACTION_TIMEOUT_MS)
        result = Student(page, url)
        context.on("request", lambda request: result.requests.append(request.url))
        page.on("pageerror", lambda error: result.errors.append(str(error)))
        yield result
        context.close()
        browser.close()


# --------------------------------------------------------------------------------------------------
# the teacher's side


def grade_reads_what_arrived(submissions: Path, tmp: Path) -> None:
    """The teacher's grade command on the notebooks that arrived: a row of the gradebook per notebook,
    recognised as the course's 02 and 03. The student ran the site's notebooks as they are, and this
    site's notebooks carry the folded solutions, which bind the exercises' names last: full marks, 14 and
    7, with no flag (a replay that calls the ``chord`` its moves hand it is not using the library's)."""
    for path in submissions.iterdir():
        student, _, notebook = path.name.partition("--")
        assert student == STUDENT and notebook.endswith(".ipynb"), path.name
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "ipyminesweeper.classroom"]
    course = subprocess.run(
        [*command, "course", str(ROOT / "notebooks"), str(tmp / "course")], env=env, timeout=120
    )
    assert course.returncode == 0
    out = tmp / "grades.csv"
    graded = subprocess.run(
        [
            *command,
            "grade",
            str(submissions),
            "--autograder",
            str(tmp / "course" / "autograder"),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert graded.returncode == 0, graded.stderr
    rows = {row["notebook"]: row for row in csv.DictReader(out.open(encoding="utf-8"))}
    assert sorted(rows) == ["02-boards-as-data", "03-autoplayer"], rows
    assert [(rows[n]["student"], rows[n]["total"], rows[n]["possible"]) for n in sorted(rows)] == [
        (STUDENT, "14", "14"),
        (STUDENT, "7", "7"),
    ], rows
    assert all(row["flags"] == row["problem"] == "" for row in rows.values()), rows


def tournament_reads(strategies: Path) -> str:
    """The teacher's tournament command on the strategies that arrived; returns its leaderboard."""
    done = subprocess.run(
        [sys.executable, "-m", "ipyminesweeper.classroom", "tournament", str(strategies), "--games", "20"],
        capture_output=True,
        text=True,
        timeout=600,
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]),
        },
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


# --------------------------------------------------------------------------------------------------
# the class


def first_page(student: Student) -> None:
    """1. The address on the board: the first page, and what the browser grants it."""
    page = student.page
    page.goto(student.url)
    steps = page.locator("ol.todo > li")
    assert steps.count() == 2
    assert "Work:" in steps.nth(0).inner_text() and "Hand in:" in steps.nth(1).inner_text()
    context = page.evaluate(
        "() => ({secure: isSecureContext, worker: 'serviceWorker' in navigator,"
        " shared: typeof SharedArrayBuffer !== 'undefined'})"
    )
    assert context == {"secure": False, "worker": False, "shared": False}, "not what a LAN student gets"
    student.screenshot("1-first-page")


def run_notebooks(student: Student) -> None:
    """2-3. Notebooks 02 and 03, every cell, the exercises' checks (Hypothesis) included; saved."""
    for step, name in [("2", "02-boards-as-data.ipynb"), ("3", "03-autoplayer.ipynb")]:
        student.open_notebook(name)
        checks = student.page.locator(f"{NOTEBOOK} .ipyms-check")
        assert checks.count() > 0, "no exercise check shown"
        student.save()
        student.screenshot(f"{step}-{name.removesuffix('.ipynb')}-ran")
        checks.last.scroll_into_view_if_needed()
        expect(checks.last).to_be_in_viewport()
        student.page.wait_for_timeout(1000)  # the notebook draws the cells scrolled into view
        student.screenshot(f"{step}-{name.removesuffix('.ipynb')}-a-check")


def write_and_hand_in_the_strategy(student: Student) -> None:
    """4. %%writefile, the file read back (import and open) and checked, then handed in from the kernel."""
    assert student.add_cell(WRITEFILE_CELL, "Writing careful.py") == "Writing careful.py"
    assert student.add_cell(READ_BACK_CELL, "READBACK") == "READBACK 1 True"
    receipt = student.add_cell(HAND_IN_CELL, "received")
    assert receipt == f"received: strategies/{STUDENT}.py", receipt
    student.save()
    student.screenshot("4-writefile-and-hand-in")


def hand_in_the_notebooks(student: Student) -> None:
    """5. The hand-in page: both notebooks, from this browser's storage."""
    page = student.page
    page.goto(student.url)
    page.get_by_role("link", name="the hand-in page").click()
    page.fill("#name", "Ada Lovelace")  # the page joins the words with _
    page.fill("#code", CODE.lower())
    for name in ("02-boards-as-data.ipynb", "03-autoplayer.ipynb"):
        page.get_by_label(name).check()
    page.click("#send")
    page.wait_for_function("() => document.querySelectorAll('#results li').length === 2")
    results = page.locator("#results li").all_inner_texts()
    assert results == [
        f"02-boards-as-data.ipynb: received: submissions/{STUDENT}--02-boards-as-data.ipynb",
        f"03-autoplayer.ipynb: received: submissions/{STUDENT}--03-autoplayer.ipynb",
    ], results
    student.screenshot("5-hand-in-page")


def what_arrived(handin: Path) -> None:
    """The teacher's side: the files, the student's own run of 03, and the commands that read them."""
    assert (handin / "strategies" / f"{STUDENT}.py").read_text(encoding="utf-8") == STRATEGY
    notebook = json.loads(
        (handin / "submissions" / f"{STUDENT}--03-autoplayer.ipynb").read_text(encoding="utf-8")
    )
    cells = {"".join(c["source"]): c for c in notebook["cells"] if c["cell_type"] == "code"}
    assert cells[WRITEFILE_CELL]["execution_count"], "not the student's run"
    assert cells[HAND_IN_CELL]["outputs"], "not the student's run"
    grade_reads_what_arrived(handin / "submissions", handin.parent)
    board = tournament_reads(handin / "strategies")
    print(board)
    shown = re.escape(markdown_text(STUDENT))  # "ada\_lovelace": names are escaped for Markdown
    assert re.search(rf"^\| 1 \| {shown} \| \d+ / 20 \|", board, re.MULTILINE), board


def test_a_student_machine_works_and_hands_in_over_plain_http(
    student: Student, class_server: tuple[str, Path]
) -> None:
    started = time.monotonic()
    first_page(student)
    run_notebooks(student)
    write_and_hand_in_the_strategy(student)
    hand_in_the_notebooks(student)
    student.check(student.url.rstrip("/"))
    browser_s = time.monotonic() - started
    what_arrived(class_server[1])
    timings = ", ".join(f"{k} {v:.1f} s" for k, v in student.timings.items())
    print(f"student's browser {browser_s:.1f} s ({timings}); whole test {time.monotonic() - started:.1f} s")

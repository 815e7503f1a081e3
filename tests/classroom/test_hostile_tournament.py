"""A tournament no student file can break (issue 30): a folder of hostile files, run as the teacher would.

Each file below reproduces an attack of the issue. The run must finish within the limits, rank the honest
entries exactly as a run without the hostile files does (and as a run in this process does), rank no
cheat above ``exact``, say for each hostile entry what it did and on which game, and show every name and
message as text: no ``<`` of theirs in the Markdown or the HTML, no extra row.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ipyminesweeper.arena.confine import landlock_abi
from ipyminesweeper.classroom.class_tournament import Entry, Leaderboard, Limits, class_tournament

GAMES = 6
SEED = 500
LIMITS = Limits(move_seconds=2.0, game_seconds=4.0, start_seconds=20.0, memory_mb=320, answer_bytes=4096)
BUILTINS = {"(simple)": "simple", "(exact)": "exact"}

SIMPLE = "from ipyminesweeper.strategies import STRATEGIES\n\nstrategy = STRATEGIES['simple']\n"
IMG_NAME = "<img src=x onerror=alert(1)>"
ROW_NAME = "evil\n| 1 | fake | 100 of 100 | 100.0% | x | 0.00 |"

HONEST = {
    "ada": SIMPLE,
    "grace": "from ipyminesweeper.strategies import STRATEGIES\n\nstrategy = STRATEGIES['exact']\n",
    IMG_NAME: SIMPLE,  # the name alone is the attack
    ROW_NAME: SIMPLE,
}

HOSTILE = {
    "script": "def strategy(view):\n    raise ValueError('<script>alert(1)</script>')\n",
    "exit_at_import": "import sys\n\nsys.exit(0)\n",
    "exit_in_strategy": "import sys\n\ndef strategy(view):\n    sys.exit(0)\n",
    "interrupt": "def strategy(view):\n    raise KeyboardInterrupt\n",
    "loop": "def strategy(view):\n    while True:\n        pass\n",
    "slow": (  # each move within the move limit, the game not within the game limit
        "import time\nfrom ipyminesweeper.strategies import STRATEGIES\n\n"
        "def strategy(view):\n    time.sleep(1.5)\n    return STRATEGIES['simple'](view)\n"
    ),
    "crash": "import ctypes\n\ndef strategy(view):\n    ctypes.string_at(0)\n",
    "peek": (  # the frame-reading cheat, and a search of every object for a board
        "import gc, sys\nfrom ipyminesweeper.engine import Board\n"
        "from ipyminesweeper.strategies import Move\n\n"
        "def cheat(board):\n"
        "    safe = [p for p in board.covered() if not board.is_mine(p)]\n"
        "    return Move('reveal', safe[0], 'I looked', probability=0.0)\n\n"
        "def strategy(view):\n"
        "    frame = sys._getframe(1)\n"
        "    while frame is not None:\n"
        "        for value in list(frame.f_locals.values()):\n"
        "            if isinstance(value, Board):\n"
        "                return cheat(value)\n"
        "        frame = frame.f_back\n"
        "    boards = [o for o in gc.get_objects() if isinstance(o, Board)]\n"
        "    if boards:\n"
        "        return cheat(boards[0])\n"
        "    raise LookupError('no board in this process')\n"
    ),
    "patcher": (  # loads first (sorted: 'aa'), replaces benchmark and exact for everyone in its process
        "import ipyminesweeper.arena as arena, ipyminesweeper.arena.bench as bench\n"
        "import ipyminesweeper.arena.referee as referee\n"
        "from ipyminesweeper.strategies import STRATEGIES, Move\n\n"
        "def fake(*args, **kwargs):\n    raise SystemExit(0)\n\n"
        "arena.benchmark = bench.benchmark = referee.referee = fake\n"
        "STRATEGIES['exact'] = lambda view: Move('reveal', view.covered()[0])\n\n"
        "def strategy(view):\n    return Move('reveal', view.covered()[0], probability=0.0)\n"
    ),
    "liar": (  # simple's moves, every one said to be safe
        "from ipyminesweeper.strategies import STRATEGIES, Move\n\n"
        "def strategy(view):\n"
        "    move = STRATEGIES['simple'](view)\n"
        "    return Move(move.action, move.pos, 'certainly safe', probability=0.0)\n"
    ),
    "bomb": (
        "from ipyminesweeper.strategies import STRATEGIES\n\n"
        "def strategy(view):\n"
        "    ballast = b'x' * (1 << 30)\n"
        "    return STRATEGIES['simple'](view)\n"
    ),
    "huge": (  # the student's code runs in the worker: it makes the worker's answer a megabyte
        "import ipyminesweeper.arena.worker as worker\nfrom ipyminesweeper.strategies import STRATEGIES\n\n"
        "class Flood:\n    @staticmethod\n    def dumps(obj):\n        return 'x' * 1_000_000\n\n"
        "def strategy(view):\n    worker.json = Flood\n    return STRATEGIES['simple'](view)\n"
    ),
    "flood": (  # a hundred thousand answers to each view: the referee keeps two and refuses the rest
        "import ipyminesweeper.arena.worker as worker\nfrom ipyminesweeper.strategies import STRATEGIES\n\n"
        "send = worker._send\n\n"
        "def flood(channel, answer):\n    for _ in range(100_000):\n        send(channel, answer)\n\n"
        "def strategy(view):\n    worker._send = flood\n    return STRATEGIES['simple'](view)\n"
    ),
}

SPY = (  # plays simple, unless it can read another student's file or what the referee was started with
    "import os\nfrom pathlib import Path\nfrom ipyminesweeper.strategies import STRATEGIES\n\n"
    "def strategy(view):\n"
    "    for path in {paths}:\n"
    "        try:\n"
    "            Path(path).read_bytes()\n"
    "        except OSError:\n"
    "            continue\n"
    "        raise RuntimeError(f'read {{path}}')\n"
    "    return STRATEGIES['simple'](view)\n"
)
SIGNALLER = (  # plays simple, unless it may signal the referee (signal 0 only checks: nothing is sent)
    "import os\nfrom ipyminesweeper.strategies import STRATEGIES\n\n"
    "def strategy(view):\n"
    "    try:\n"
    "        os.kill(os.getppid(), 0)\n"
    "    except PermissionError:\n"
    "        return STRATEGIES['simple'](view)\n"
    "    raise RuntimeError('I may signal the referee')\n"
)


def _write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir()
    for name, text in files.items():
        (folder / f"{name}.py").write_text(text, encoding="utf-8")
    return folder


def _spy(folder: Path) -> str:
    """The spy's paths: relative and beside its own copy always; absolute ones where Landlock hides them."""
    paths = ["'ada.py'", "str(Path(__file__).with_name('ada.py'))"]
    if landlock_abi():
        paths += [repr(str(folder / "ada.py")), "f'/proc/{os.getppid()}/cmdline'", "'/etc/hostname'"]
    return SPY.format(paths="[" + ", ".join(paths) + "]")


def _run(folder: Path, sandbox: bool = True) -> Leaderboard:
    sources: dict[str, object] = {**{p.stem: p for p in sorted(folder.glob("*.py"))}, **BUILTINS}
    return class_tournament(sources, "beginner", GAMES, SEED, limits=LIMITS, sandbox=sandbox)  # type: ignore[arg-type]


def played(entry: Entry) -> tuple[object, ...]:
    """What an entry did: the same in any process, on the same seeds (not the time it took)."""
    r = entry.result
    if r is None:
        return (entry.name, entry.kind, entry.problem)
    return (entry.name, r.wins, r.games, r.outcomes, r.mean_moves, r.mean_guesses)


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Leaderboard:
    return _run(_write(tmp_path_factory.mktemp("clean") / "strategies", HONEST))


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Leaderboard, float]:
    folder = tmp_path_factory.mktemp("hostile") / "strategies"
    files = {**HONEST, **HOSTILE, "spy": _spy(folder)}
    if landlock_abi() >= 6:  # without Landlock's signal scope, a file may signal the referee: see below
        files["signaller"] = SIGNALLER
    start = time.perf_counter()
    board = _run(_write(folder, files))
    return board, time.perf_counter() - start


def _by_name(board: Leaderboard) -> dict[str, Entry]:
    return {entry.name: entry for entry in board.entries}


def test_the_hostile_run_finishes_within_the_limits(hostile: tuple[Leaderboard, float]) -> None:
    board, seconds = hostile
    assert seconds < GAMES * LIMITS.game_seconds + 60
    assert not board.interrupted and len(board.entries) == len(HONEST) + len(HOSTILE) + len(BUILTINS) + 1 + (
        landlock_abi() >= 6
    )


def test_the_honest_entries_play_as_without_the_hostile_files(
    hostile: tuple[Leaderboard, float], clean: Leaderboard
) -> None:
    with_them, without = _by_name(hostile[0]), _by_name(clean)
    assert set(without) == {*HONEST, *BUILTINS}
    for name, entry in without.items():
        assert entry.result is not None, entry.problem
        assert played(with_them[name]) == played(entry)


def test_the_sandboxed_results_are_those_of_a_run_in_this_process(clean: Leaderboard, tmp_path: Path) -> None:
    """Same wins, games, moves and guesses as the referee playing the functions here, and the same wins
    and moves as the arena's benchmark (which counts the guesses a strategy says it makes)."""
    from ipyminesweeper.arena import benchmark

    here = _run(_write(tmp_path / "strategies", HONEST), sandbox=False)
    assert [played(e) for e in here.entries] == [played(e) for e in clean.entries]
    for entry in clean.ranked:
        assert entry.result is not None
        strategy = "exact" if entry.name in ("grace", "(exact)") else "simple"
        reference = benchmark(strategy, "beginner", GAMES, SEED, jobs=1)
        assert (entry.result.outcomes, entry.result.mean_moves) == (reference.outcomes, reference.mean_moves)


def test_each_hostile_entry_is_unranked_with_what_it_did_and_the_game(
    hostile: tuple[Leaderboard, float],
) -> None:
    entries = _by_name(hostile[0])
    game1 = f"game 1 (seed {SEED}): "
    expected = {
        "script": ("error", game1 + "your strategy 'strategy' raised ValueError: <script>alert(1)</script>"),
        "exit_at_import": ("exit", "before game 1: exit_at_import.py does not load: SystemExit: 0"),
        "exit_in_strategy": ("exit", game1 + "your strategy 'strategy' raised SystemExit: 0"),
        "interrupt": ("interrupt", game1 + "your strategy 'strategy' raised KeyboardInterrupt"),
        "loop": ("timeout", game1 + "gave no move within 2 s"),
        "slow": ("timeout", game1 + "used more than 4 s in one game"),
        "crash": ("crash", game1 + "its process ended (SIGSEGV: a crash)"),
        "peek": ("error", game1 + "your strategy 'strategy' raised LookupError: no board in this process"),
        "bomb": ("memory", game1 + "your strategy 'strategy' raised MemoryError"),
        "huge": ("too-large", game1 + "sent an answer of more than 4,096 bytes"),
        "flood": ("malformed", game1 + "answered before it was asked"),
    }
    assert {name: (entries[name].kind, entries[name].problem) for name in expected} == expected
    assert all(entries[name].result is None for name in expected)


def test_no_cheat_ranks_above_exact_and_the_liar_gets_its_real_guesses(
    hostile: tuple[Leaderboard, float],
) -> None:
    board = hostile[0]
    ranked = [entry.name for entry in board.ranked]
    for cheat in ("patcher", "liar", "spy", "peek"):
        assert cheat not in ranked or ranked.index(cheat) > ranked.index("(exact)")
    entries = _by_name(board)
    liar, simple = entries["liar"].result, entries["(simple)"].result
    assert liar is not None and simple is not None
    assert (liar.outcomes, liar.mean_guesses) == (
        simple.outcomes,
        simple.mean_guesses,
    ) and liar.mean_guesses > 0
    patcher = entries["patcher"].result  # its patches changed nothing outside its process
    assert patcher is not None and patcher.mean_guesses > 0


def test_no_file_reads_another_students_file_or_signals_the_referee(
    hostile: tuple[Leaderboard, float],
) -> None:
    """The spy plays simple unless it reads ada.py (relative, beside its copy, and, with Landlock, by
    its absolute path, or the referee's command line, or /etc): it must be ranked, as simple."""
    entries = _by_name(hostile[0])
    spy, simple = entries["spy"], entries["(simple)"]
    assert spy.result is not None, spy.problem
    assert simple.result is not None and spy.result.outcomes == simple.result.outcomes
    if landlock_abi() >= 6:
        assert entries["signaller"].result is not None, entries["signaller"].problem


def test_every_name_and_message_shows_as_text(hostile: tuple[Leaderboard, float]) -> None:
    board = hostile[0]
    markdown, html = board.to_markdown(), board.to_html()
    assert "<" not in markdown
    assert "<" not in re.sub(r"</?(table|tr|th|td|p)>", "", html)
    assert "&lt;img src=x onerror=alert(1)&gt;" in markdown and "&lt;script&gt;" in markdown
    rows = [line for line in markdown.splitlines() if line.startswith("|")]
    assert len(rows) == 2 + len(board.ranked) + 2 + len(board.problems)  # no fake row
    assert "| evil\\\\n\\| 1 \\| fake \\|" in markdown


def test_the_command_line_survives_the_hostile_folder(tmp_path: Path) -> None:
    folder = _write(
        tmp_path / "strategies", {"ada": SIMPLE, **{k: HOSTILE[k] for k in ("exit_at_import", "interrupt")}}
    )
    done = subprocess.run(
        [sys.executable, "-m", "ipyminesweeper.classroom", "tournament", str(folder), "--games", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "| 1 | ada | " in done.stdout and "| interrupt | game 1 (seed 0): " in done.stdout


def _children(pid: int) -> set[int]:
    found = set()
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
        except OSError:
            continue
        if re.search(rf"^PPid:\s+{pid}$", text, re.MULTILINE):
            found.add(int(status.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="finds the workers in /proc (Linux)")
def test_ctrl_c_stops_the_run_kills_the_workers_and_prints_the_partial_leaderboard(tmp_path: Path) -> None:
    slow = (
        "import time\nfrom ipyminesweeper.strategies import STRATEGIES\n\n"
        "def strategy(view):\n    time.sleep(0.05)\n    return STRATEGIES['simple'](view)\n"
    )
    folder = _write(tmp_path / "strategies", {"ada": SIMPLE, "bob": slow, "cy": SIMPLE})
    # Ctrl+C as in a terminal: a suite started in the background (`cmd &`) ignores SIGINT, and a child
    # that inherits that installs no KeyboardInterrupt; a handled SIGINT starts the child at its default
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        run = subprocess.Popen(
            [sys.executable, "-m", "ipyminesweeper.classroom", "tournament", str(folder), "--games", "400"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    finally:
        signal.signal(signal.SIGINT, before)
    workers: set[int] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and run.poll() is None:
        workers |= _children(run.pid)
        if len(workers) >= 2:  # ada's worker, then bob's: bob plays for minutes
            break
        time.sleep(0.1)
    time.sleep(1.0)
    run.send_signal(signal.SIGINT)
    out, _ = run.communicate(timeout=20)
    assert run.returncode == 130
    assert out.startswith("Stopped by Ctrl+C")
    assert "| 1 | ada | " in out
    assert re.search(r"\| bob \| interrupted by Ctrl\+C during game \d+ \(seed \d+\) \|", out)
    assert "| cy | not played: the run was stopped |" in out
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists() or "State:\tZ" in Path(f"/proc/{pid}/status").read_text()
    assert not any(os.path.exists(f"/proc/{pid}") for pid in _children(run.pid))

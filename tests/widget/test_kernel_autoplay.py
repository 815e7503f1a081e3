"""Autoplay always stops, in a real kernel driven through jupyter_client (as JupyterLab drives it).

The test is the front end: it runs cells, and sends the widget's Pause request as the browser does (a
``comm_msg`` that writes the ``requests`` traitlet). Figures, printed:

- a strategy that never returns: Pause takes effect within 1 s, and the kernel answers a new cell within
  2 s; the same for the kernel's interrupt;
- a 10 s strategy with delay 0: Pause within 1 s, the kernel answers within 2 s, and no move is played
  after the Pause (the JSON-era shell handled Pause after 39 s and played 3 more moves);
- a strategy past the time limit is stopped, and the widget says which one and for how long.
"""

from __future__ import annotations

import queue
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.manager import KernelManager, start_new_kernel

pytestmark = pytest.mark.slow

SETUP = """
import time
from ipyminesweeper import Minesweeper, STRATEGIES
exact = STRATEGIES["exact"]

def never(view):
    while True:
        pass

def ten_seconds(view):
    time.sleep(10)
    return exact(view)

w = Minesweeper("expert", seed=1)
w.register_strategy("never", never)
w.register_strategy("ten_seconds", ten_seconds)
w.reveal(8, 15)
print("MODEL", w.model_id)
"""


class Kernel:
    """A kernel and a client that plays the front end's part."""

    def __init__(self, manager: KernelManager, client: BlockingKernelClient) -> None:
        self.manager, self.client = manager, client
        self.model = ""
        self.request_id = 0

    def run(self, code: str, timeout: float = 60) -> str:
        """Run ``code`` in a cell; its printed output (fails on an error or no answer in ``timeout`` s)."""
        msg_id = self.client.execute(code)
        out: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                msg = self.client.get_iopub_msg(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no answer to {code!r} within {timeout} s") from None
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                out.append(content["text"])
            elif kind == "error":
                raise AssertionError("\n".join(content["traceback"]))
            elif kind == "status" and content["execution_state"] == "idle":
                return "".join(out)

    def answers_within(self, seconds: float) -> float:
        """How long the kernel takes to answer a new cell (fails past ``seconds``)."""
        start = time.monotonic()
        assert self.run("print(6 * 7)", timeout=seconds).strip() == "42"
        return time.monotonic() - start

    def request(self, action: str) -> None:
        """What the browser sends for a toolbar button: a new entry in the ``requests`` traitlet."""
        self.request_id += 1
        state = {"requests": [{"id": self.request_id, "action": action}]}
        msg = self.client.session.msg(
            "comm_msg",
            {"comm_id": self.model, "data": {"method": "update", "state": state, "buffer_paths": []}},
        )
        self.client.shell_channel.send(msg)

    def wait_for_state(self, key: str, value: Any, timeout: float) -> float:
        """Seconds until the widget syncs ``key = value`` to the front end (fails past ``timeout``)."""
        start = time.monotonic()
        while (left := start + timeout - time.monotonic()) > 0:
            try:
                msg = self.client.get_iopub_msg(timeout=left)
            except queue.Empty:
                break
            content = msg["content"]
            if msg["msg_type"] == "comm_msg" and content.get("comm_id") == self.model:
                state = content.get("data", {}).get("state", {})
                if key in state and state[key] == value:
                    return time.monotonic() - start
        raise AssertionError(f"the widget did not sync {key}={value!r} within {timeout} s")


@pytest.fixture
def kernel() -> Iterator[Kernel]:
    manager, client = start_new_kernel(kernel_name="python3", startup_timeout=120)
    k = Kernel(manager, client)
    try:
        out = k.run(SETUP, timeout=120)
        match = re.search(r"MODEL (\w+)", out)
        assert match, out
        k.model = match.group(1)
        yield k
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_pause_stops_a_strategy_that_never_returns(kernel: Kernel) -> None:
    kernel.run("w.autoplay('never', delay=0)")
    time.sleep(1.2)  # the strategy is running
    kernel.request("pause")
    paused = kernel.wait_for_state("autoplaying", False, timeout=5)
    answered = kernel.answers_within(5)
    print(
        f"never-returning strategy: Pause took effect in {paused:.2f} s, a cell answered in {answered:.2f} s"
    )
    assert paused < 1 and answered < 2
    assert kernel.run("print(len(w.history), w.autoplaying)").strip() == "2 False"
    assert re.match(r"the Pause stopped your strategy 'never' after \d+\.\d s", kernel.run("print(w.error)"))
    time.sleep(0.5)
    workers = "import threading; print([t.name for t in threading.enumerate() if 'ipyminesweeper' in t.name])"
    assert kernel.run(workers).strip() == "[]", "the stopped strategy's thread has ended: no CPU spent on it"


def test_the_kernel_interrupt_stops_a_strategy_that_never_returns(kernel: Kernel) -> None:
    kernel.run("w.autoplay('never', delay=0)")
    time.sleep(0.5)
    kernel.manager.interrupt_kernel()
    stopped = kernel.wait_for_state("autoplaying", False, timeout=5)
    answered = kernel.answers_within(5)
    print(
        f"never-returning strategy: the interrupt stopped it in {stopped:.2f} s, a cell in {answered:.2f} s"
    )
    assert stopped < 1 and answered < 2
    assert kernel.run("print(w.error)").startswith("interrupted while your strategy 'never' had run for")


def test_pause_stops_a_ten_second_strategy_at_delay_zero_and_no_move_follows(kernel: Kernel) -> None:
    kernel.run("w.autoplay('ten_seconds', delay=0)")
    time.sleep(1.2)
    kernel.request("pause")
    paused = kernel.wait_for_state("autoplaying", False, timeout=5)
    answered = kernel.answers_within(5)
    moves = kernel.run("print(len(w.history))").strip()
    time.sleep(10.5)  # the strategy's call ends: its move must not be played
    print(f"10 s strategy, delay 0: Pause took effect in {paused:.2f} s, a cell answered in {answered:.2f} s")
    assert paused < 1 and answered < 2
    assert re.match(
        r"the Pause stopped your strategy 'ten_seconds' after \d+\.\d s", kernel.run("print(w.error)")
    )
    assert kernel.run("print(len(w.history), w.autoplaying)").strip() == f"{moves} False"


def test_a_strategy_past_the_time_limit_is_stopped_and_named(kernel: Kernel) -> None:
    kernel.run("w.strategy_time_limit = 1.0\nw.autoplay('never', delay=0)")
    stopped = kernel.wait_for_state("autoplaying", False, timeout=5)
    error = kernel.run("print(w.error)")
    print(f"time limit 1 s: the strategy was stopped after {stopped:.2f} s: {error.strip()}")
    assert 0.9 < stopped < 2
    assert "never" in error and re.search(r"\b1(\.\d+)? s\b", error)
    assert kernel.answers_within(2) < 2

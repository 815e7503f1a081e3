"""A desktop with a real screen reader for the browser tests: Xvfb, a session bus, openbox, the AT-SPI bus,
speech-dispatcher (espeak-ng into ALSA's null device) and Orca, each started by this module and stopped by
its process id, in the reverse order.

What Orca says is read from its debug log (``--debug-file``), one ``SPEECH OUTPUT: '...'`` line per
utterance. Orca 43 opens that file block-buffered (8 KB: lines arrive late, or at exit), so Orca is started
through a small launcher that runs ``/usr/bin/orca`` with the debug file opened line-buffered. Keys are typed
with ``xdotool`` (XTEST): Orca sees them as a keyboard's, as it would a person's, and acts on its own keys
(Insert is its modifier). The facts behind each step are in ../shared/guides/browser-and-lite.md, "Orca".

Everything lives under one private folder: HOME (``~/.asoundrc``, speechd.conf), XDG_RUNTIME_DIR (the
speech-dispatcher socket), Orca's preferences and its log. ``--replace`` is not used: it kills every other
Orca of this user, which may be someone else's session on a shared machine.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

# Debian packages, and the program of each that must be on the machine.
PACKAGES = {
    "xvfb": "/usr/bin/Xvfb",
    "dbus-x11": "/usr/bin/dbus-launch",
    "at-spi2-core": "/usr/libexec/at-spi-bus-launcher",
    "orca": "/usr/bin/orca",
    "speech-dispatcher": "/usr/bin/speech-dispatcher",
    "speech-dispatcher-espeak-ng": "/usr/lib/speech-dispatcher-modules/sd_espeak-ng",
    "espeak-ng": "/usr/bin/espeak-ng",
    "xdotool": "/usr/bin/xdotool",
    "openbox": "/usr/bin/openbox",
}
SYSTEM_PYTHON = "/usr/bin/python3"  # Orca's (pyatspi and gi are Debian's, not the venv's)
SCREEN = (1280, 1024)
ORCA_INFO = 800  # orca.debug.LEVEL_INFO: its SPEECH OUTPUT lines (IPYMS_ORCA_DEBUG_ALL=1 keeps every level)

# Runs Orca's own script with its debug file opened line-buffered (argv: the debug file, the lowest level of
# Orca's debug module to keep, or "all", then Orca's arguments).
LAUNCHER = """\
import builtins, runpy, sys
debug_file = sys.argv[1]
level = None if sys.argv[2] == "all" else int(sys.argv[2])
_open = builtins.open
def _line_buffered(file, mode="r", buffering=-1, *args, **kwargs):
    if file == debug_file and "w" in mode:
        buffering = 1
    return _open(file, mode, buffering, *args, **kwargs)
builtins.open = _line_buffered
if level is not None:  # only Orca's INFO lines and above (its speech among them): a log 10 times smaller
    from orca import debug
    _println = debug.println
    def _println_from(wanted, text="", timestamp=False):
        if wanted >= level:
            _println(wanted, text, timestamp)
    debug.println = _println_from
sys.argv = ["/usr/bin/orca", "--debug-file", debug_file, *sys.argv[3:]]
runpy.run_path("/usr/bin/orca", run_name="__main__")
"""

# What Orca says; not its key echo (each key pressed, "tab ", "space ", "f ", written with a space before its
# "{"), which is Orca's own setting, not the page's.
SPEECH_LINE = re.compile(r"SPEECH OUTPUT: '(.*?)'(?: voice=\S+)?(?:\{.*)?$")


def missing_packages() -> list[str]:
    """The Debian packages of PACKAGES not installed here (``make orca`` installs them)."""
    return [name for name, program in PACKAGES.items() if not Path(program).exists()]


@dataclass
class Started:
    name: str
    proc: subprocess.Popen[bytes]


@dataclass
class OrcaDesktop:
    """Start with :meth:`start`, stop with :meth:`stop` (or use it as a context manager)."""

    base: Path
    env: dict[str, str] = field(default_factory=dict)  # for what runs on this desktop (Chromium)
    started: list[Started] = field(default_factory=list)
    display: str = ""
    _read: int = 0  # bytes of the log parsed into _said
    _said: list[str] = field(default_factory=list)

    @property
    def log_path(self) -> Path:
        return self.base / "orca-debug.log"

    # --- starting and stopping -------------------------------------------------------------------

    def __enter__(self) -> OrcaDesktop:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _spawn(self, name: str, cmd: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
        log = (self.base / f"{name}.out").open("wb")
        proc: subprocess.Popen[bytes] = subprocess.Popen(  # type: ignore[call-overload]
            cmd, env=self.env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, **kwargs
        )
        self.started.append(Started(name, proc))
        return proc

    def _check_alive(self) -> None:
        for item in self.started:
            if item.proc.poll() is not None:
                raise RuntimeError(
                    f"{item.name} exited with {item.proc.returncode}:\n{self.output(item.name)}"
                )

    def output(self, name: str, lines: int = 30) -> str:
        try:
            text = (self.base / f"{name}.out").read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def start(self, attempts: int = 2) -> None:
        """Start the desktop; once more if it fails (a shared machine: a display taken meanwhile, a slow
        start), the first failure printed."""
        for attempt in range(1, attempts + 1):
            try:
                self._start_once()
                return
            except RuntimeError as exc:
                if attempt == attempts:
                    raise
                print(f"Orca's desktop did not start ({exc}); once more")
                self.base = self.base / f"again{attempt}"
                self.base.mkdir()

    def _start_once(self) -> None:
        missing = missing_packages()
        if missing:
            raise RuntimeError(f"missing Debian packages: {' '.join(missing)} (make orca)")
        home, runtime, prefs = self.base / "home", self.base / "run", self.base / "orca-prefs"
        for path in (home, runtime, prefs):
            path.mkdir(parents=True, exist_ok=True)
        runtime.chmod(0o700)
        (home / ".asoundrc").write_text("pcm.!default { type null }\nctl.!default { type hw card 0 }\n")
        speechd = home / ".config/speech-dispatcher"
        speechd.mkdir(parents=True, exist_ok=True)
        (speechd / "speechd.conf").write_text(
            # no sound card: espeak-ng speaks into ALSA's null device (PulseAudio would hang every SPEAK)
            'AudioOutputMethod "alsa"\nDefaultModule espeak-ng\nAddModule "espeak-ng" "sd_espeak-ng" '
            '"espeak-ng.conf"\nLogLevel 3\n'
        )
        keep = ("PATH", "LANG", "LC_ALL", "TERM")
        self.env = {k: v for k, v in os.environ.items() if k in keep}
        self.env["PATH"] = "/usr/local/bin:/usr/bin:/bin"  # not the venv's python: Orca's is Debian's
        self.env.update(
            HOME=str(home),
            XDG_RUNTIME_DIR=str(runtime),
            XDG_CONFIG_HOME=str(home / ".config"),
            XDG_CACHE_HOME=str(home / ".cache"),
            XDG_DATA_HOME=str(home / ".local/share"),
            ACCESSIBILITY_ENABLED="1",
            GTK_MODULES="gail:atk-bridge",
            NO_AT_BRIDGE="0",
            LANG=os.environ.get("LANG", "C.UTF-8"),
        )
        try:
            self._start_x()
            self._start_bus()
            self._spawn("openbox", ["openbox"])
            self._spawn("at-spi-bus-launcher", ["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"])
            time.sleep(0.5)
            self._spawn(
                "speech-dispatcher",
                ["speech-dispatcher", "--run-single", "--timeout", "0", "--config-dir", str(speechd)],
            )
            self._wait_for(lambda: (runtime / "speech-dispatcher/speechd.sock").exists(), "speechd's socket")
            launcher = self.base / "orca_launcher.py"
            launcher.write_text(LAUNCHER)
            level = "all" if os.environ.get("IPYMS_ORCA_DEBUG_ALL") else str(ORCA_INFO)
            self._spawn(
                "orca", [SYSTEM_PYTHON, str(launcher), str(self.log_path), level, f"--user-prefs={prefs}"]
            )
            self._wait_for(lambda: bool(self.said()), "Orca to speak", 60)
            self._check_alive()
        except BaseException:
            self.stop()
            raise

    def _wait_for(self, ready: object, what: str, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not ready():  # type: ignore[operator]
            self._check_alive()
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}")
            time.sleep(0.1)

    def _start_x(self) -> None:
        read, write = os.pipe()
        width, height = SCREEN
        try:
            self._spawn(
                "Xvfb",
                [
                    "Xvfb",
                    "-displayfd",
                    str(write),
                    "-screen",
                    "0",
                    f"{width}x{height}x24",
                    "-nolisten",
                    "tcp",
                ],
                pass_fds=(write,),
            )
        finally:
            os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()  # Xvfb picks a free display and writes its number
        if not number:
            self._check_alive()
            raise RuntimeError("Xvfb gave no display number")
        self.display = f":{number}"
        self.env["DISPLAY"] = self.display
        self._wait_for(self._x_answers, f"the X server on {self.display} to answer")

    def _x_answers(self) -> bool:
        probe = ["xdotool", "getdisplaygeometry"]
        return subprocess.run(probe, env=self.env, capture_output=True, timeout=10).returncode == 0

    def _start_bus(self) -> None:
        read, write = os.pipe()
        try:
            self._spawn(
                "dbus-daemon",
                ["dbus-daemon", "--session", "--nofork", "--nopidfile", f"--print-address={write}"],
                pass_fds=(write,),
            )
        finally:
            os.close(write)
        with os.fdopen(read) as pipe:
            address = pipe.readline().strip()
        if not address:
            self._check_alive()
            raise RuntimeError("dbus-daemon gave no address")
        self.env["DBUS_SESSION_BUS_ADDRESS"] = address

    def stop(self) -> None:
        """Stop what was started, newest first (Orca before speech-dispatcher, which Orca would start
        again), each by its pid, and then what each of them started (its children, by pid)."""
        while self.started:
            item = self.started.pop()
            children = _descendants(item.proc.pid)
            if item.proc.poll() is None:
                item.proc.send_signal(signal.SIGTERM)
                try:
                    item.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    item.proc.kill()
                    item.proc.wait(timeout=5)
            for pid in children:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGTERM)

    def versions(self) -> str:
        """Orca's and speech-dispatcher's versions, as they say them."""
        out = []
        for cmd in (["orca", "--version"], ["speech-dispatcher", "--version"]):
            text = subprocess.run(cmd, env=self.env, capture_output=True, text=True, timeout=30).stdout
            out.append(f"{cmd[0]} {_first_version(text)}")
        return ", ".join(out)

    # --- keys ------------------------------------------------------------------------------------

    def key(self, *keys: str, delay_ms: int = 80) -> None:
        """Press keys (xdotool's names: "Tab", "Down", "space", "Insert+a", "ctrl+c") one after the other."""
        subprocess.run(
            ["xdotool", "key", "--delay", str(delay_ms), *keys], env=self.env, check=True, timeout=60
        )

    def type_text(self, text: str) -> None:
        subprocess.run(["xdotool", "type", "--delay", "80", text], env=self.env, check=True, timeout=60)

    # --- what Orca said --------------------------------------------------------------------------

    def said(self) -> list[str]:
        """Every utterance so far, in order (the log is read on from where it was last read)."""
        try:
            with self.log_path.open("rb") as log:
                log.seek(self._read)
                chunk = log.read()
        except OSError:
            return list(self._said)
        complete = chunk[: chunk.rfind(b"\n") + 1]  # a line still being written is read next time
        self._read += len(complete)
        for line in complete.decode(errors="replace").splitlines():
            match = SPEECH_LINE.search(line)
            if match:
                self._said.append(match.group(1))
        return list(self._said)

    def speak_log(self) -> str:
        """Every utterance so far, one a line (what the artifact keeps)."""
        return "\n".join(self.said())

    def mark(self) -> int:
        """A place in the speech: pass it to :meth:`said_since` or :meth:`wait_for_phrase`."""
        return len(self.said())

    def said_since(self, mark: int) -> list[str]:
        return self.said()[mark:]

    def wait_for_phrase(self, pattern: str, timeout: float = 20, since: int = 0) -> str:
        """The first utterance after ``since`` that matches ``pattern`` (re.search), waiting for it;
        fails with what was said instead."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            for text in self.said_since(since):
                if regex.search(text):
                    return text
            if time.monotonic() > deadline:
                self._check_alive()
                heard = "\n  ".join(self.said_since(since)) or "(nothing)"
                raise AssertionError(f"Orca did not say {pattern!r} in {timeout:.0f} s; it said:\n  {heard}")
            time.sleep(0.1)

    def settle(self, quiet: float = 0.8, timeout: float = 8) -> None:
        """Wait until Orca has said nothing new for ``quiet`` seconds (at most ``timeout``)."""
        deadline = time.monotonic() + timeout
        count, since = self.mark(), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.1)
            now = self.mark()
            if now != count:
                count, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet:
                return

    def save_log(self, path: Path) -> None:
        """The speech (one utterance a line) to ``path``, and Orca's whole debug log beside it."""
        path.write_text(self.speak_log() + "\n")
        shutil.copyfile(self.log_path, path.with_suffix(".debug.log"))


def _first_version(text: str) -> str:
    match = re.search(r"\d+\.\d+(?:\.\d+)?", text)
    return match.group(0) if match else "?"


def _descendants(pid: int) -> list[int]:
    """The processes under ``pid`` (children first level first), read from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(0), []):
            out.append(child)
            todo.append(child)
    return out

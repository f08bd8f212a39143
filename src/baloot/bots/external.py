"""Bots in any language: a program that speaks ``baloot-bot/1`` on its standard input and output.

The protocol is normative in ``seat-view.md`` §3. One :class:`ExternalBot` is one seat of one
match: its process is started at the seat's first decision (``hello``, answered by ``ready``
within 10 s), asked each decision with a new ``id`` (``act``, answered by ``action`` within its
clock plus a grace of 1 s), told of each finished hand (``over``), and told ``bye`` when the
match is over, then ended 2 s later. Whatever the program does, the engine's state is never at
its mercy: an answer that is not one of the legal actions, a malformed line, a wrong ``id``,
silence, or an exit is a :class:`BotFailure` that names the bot, what it said, and the actions
of the view it was asked about; the process is ended at once.

Each process runs in a session of its own, so a Ctrl-C at the terminal reaches pybaloot only;
pybaloot ends the whole process group, also when it exits (no orphans). The program's standard
error is its log: given line by line to ``log``, or discarded.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from itertools import count
from pathlib import Path
from typing import IO, Any, Final

from baloot.bots.clock import current_clock
from baloot.bots.failure import BotFailure as BotFailure
from baloot.bots.failure import FailureKind as FailureKind
from baloot.bots.names import COMMAND_PREFIX, Program, UnknownBotError
from baloot.core.actions import Action
from baloot.view.seat_view import SeatView

PROTOCOL: Final = "baloot-bot/1"
#: Seconds a program has to answer ``hello``.
READY_SECONDS: Final = 10.0
#: Seconds beyond its clock before a silent program has failed.
GRACE_SECONDS: Final = 1.0
#: Seconds a program has to exit after ``bye``.
BYE_SECONDS: Final = 2.0
#: The clock an external bot is told when the caller sets none (``seat-view.md`` §3).
DEFAULT_CLOCK_MS: Final = 1000
#: The longest line a program may write (a longer one is malformed).
MAX_LINE: Final = 1 << 20
#: How much of what a program said a report quotes.
QUOTED: Final = 200


class _Gone(Exception):
    """The program closed its input: it is gone (found out at its next decision)."""


def find_program(program: Program) -> str:
    """The file ``program`` runs, found now; an :class:`UnknownBotError` when there is none."""
    if not program.name.startswith(COMMAND_PREFIX):  # a path
        path = Path(program.name)
        if not path.is_file():
            raise UnknownBotError(f"bot program {program.name!r}: no such file")
        if path.suffix != ".py" and not os.access(path, os.X_OK):
            raise UnknownBotError(f"bot program {program.name!r} is not executable (chmod +x)")
        return program.name
    first = program.argv[0]
    found = shutil.which(first)
    if found is None:
        raise UnknownBotError(f"bot command {program.name!r}: {first!r} is not found")
    return found


class ExternalBot:
    """One seat of one match played by an external program (see the module).

    ``name`` is how reports and records name it (the name it was given by, unless a server's
    operator names it); ``log`` gets its standard error, line by line (None: discarded);
    ``ready_seconds``, ``grace`` and ``bye_seconds`` are the protocol's waits.
    """

    def __init__(
        self,
        program: Program,
        *,
        name: str | None = None,
        log: Callable[[bytes], None] | None = None,
        ready_seconds: float = READY_SECONDS,
        grace: float = GRACE_SECONDS,
        bye_seconds: float = BYE_SECONDS,
    ) -> None:
        find_program(program)
        self.program = program
        self.name = name if name is not None else program.name
        self.log = log
        self.ready_seconds = ready_seconds
        self.grace = grace
        self.bye_seconds = bye_seconds
        #: What the program said of itself in ``ready``.
        self.introduced: dict[str, Any] = {}
        self._process: subprocess.Popen[bytes] | None = None
        self._seat: str | None = None
        self._ids = count(1)
        self._read = bytearray()
        self._unsent: deque[bytes] = deque()
        self._lock = threading.RLock()
        self._log_thread: threading.Thread | None = None
        self._cpu_before = 0.0  # of the processes ended before this one

    def __repr__(self) -> str:
        return f"ExternalBot({self.name!r})"

    @property
    def cpu_seconds(self) -> float:
        """The CPU time the program's processes took so far (0 where the system does not say;
        read from ``/proc`` on Linux, in clock ticks)."""
        process = self._process
        return self._cpu_before + (0.0 if process is None else _cpu_of(process.pid))

    @property
    def running(self) -> bool:
        """True while the program's process is there (started and not ended by pybaloot)."""
        return self._process is not None

    # ------------------------------------------------------------------ the protocol

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """Ask the program; its answer, checked (a :class:`BotFailure` otherwise)."""
        with self._lock:
            data = view.to_json()
            if self._process is None:
                self._start(data)
            elif self._process.poll() is not None:
                raise self._failed(FailureKind.CRASHED, self._exit_text(), view=data)
            choices = {str(action): action for action in legal}
            milliseconds = current_clock().limit_ms(DEFAULT_CLOCK_MS)
            deadline = time.monotonic() + milliseconds / 1000 + self.grace
            number = next(self._ids)
            act = {"type": "act", "id": number, "view": data, "clock_ms": milliseconds}
            self._send(act, deadline, data)
            line = self._line(deadline, data, f"{milliseconds} ms + {self.grace:g} s grace")
            answer = self._message(line, data)
            if answer.get("type") != "action" or not isinstance(answer.get("action"), str):
                raise self._failed(
                    FailureKind.MALFORMED, "expected an action", said=line, view=data
                )
            if answer.get("id") != number:
                detail = f"answered id {answer.get('id')!r} to act {number}"
                raise self._failed(FailureKind.WRONG_ID, detail, said=line, view=data)
            chosen = choices.get(answer["action"])
            if chosen is None:
                detail = f"{answer['action']!r} is not a legal action"
                raise self._failed(FailureKind.ILLEGAL, detail, said=line, view=data)
            return chosen

    def hand_over(self, view: SeatView) -> None:
        """Tell the program the hand is over (``over``); never waits: what the pipe does not
        take now is sent before the next message."""
        if self._process is None:
            return
        self._unsent.append(_encode({"type": "over", "view": view.to_json()}))
        if self._lock.acquire(blocking=False):
            try:
                self._flush(None)
            except _Gone:
                pass  # found out at its next decision
            finally:
                self._lock.release()

    def close(self) -> None:
        """The match is over: ``bye``, then the process is ended 2 s later at most."""
        close_all([self])

    def kill(self) -> None:
        """End the process now (its whole process group), with the last lines of its log."""
        with self._lock:
            process, self._process = self._process, None
            log_thread, self._log_thread = self._log_thread, None
            self._unsent.clear()
            self._read.clear()
            if process is not None:
                self._cpu_before += _cpu_of(process.pid)
                _end(process)
                _running.discard(process)
        if log_thread is not None:  # its standard error ends with it: what it said last
            log_thread.join(1.0)

    # ------------------------------------------------------------------ inside

    def _start(self, view: dict[str, Any]) -> None:
        self._seat = view.get("seat")
        try:
            process = subprocess.Popen(
                self.program.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL if self.log is None else subprocess.PIPE,
                start_new_session=True,
                bufsize=0,
            )
        except OSError as error:
            raise self._failed(FailureKind.CANNOT_START, str(error), view=view) from None
        self._process = process
        _running.add(process)
        _bots.add(self)
        assert process.stdin is not None
        os.set_blocking(process.stdin.fileno(), False)
        if process.stderr is not None and self.log is not None:
            self._log_thread = threading.Thread(
                target=_forward, args=(process.stderr, self.log), daemon=True
            )
            self._log_thread.start()
        deadline = time.monotonic() + self.ready_seconds
        hello = {"type": "hello", "protocol": PROTOCOL, "seat": self._seat, "rules": view["rules"]}
        self._send(hello, deadline, view)
        allowed = f"{self.ready_seconds:g} s to answer hello"
        line = self._line(deadline, view, allowed, FailureKind.NOT_READY)
        ready = self._message(line, view)
        if ready.get("type") != "ready":
            raise self._failed(FailureKind.NOT_READY, "expected ready", said=line, view=view)
        self.introduced = {k: v for k, v in ready.items() if k in ("name", "author")}

    def _send(self, message: dict[str, Any], deadline: float, view: dict[str, Any]) -> None:
        self._unsent.append(_encode(message))
        try:
            self._flush(deadline, view)
        except _Gone:
            raise self._failed(FailureKind.CRASHED, self._exit_text(), view=view) from None

    def _flush(self, deadline: float | None, view: dict[str, Any] | None = None) -> None:
        """Write what waits to be sent; until ``deadline`` (None: only what the pipe takes
        now). :class:`_Gone` when the program no longer reads."""
        process = self._process
        assert process is not None and process.stdin is not None
        fd = process.stdin.fileno()
        while self._unsent:
            data = self._unsent[0]
            try:
                written = os.write(fd, data)
            except BlockingIOError:
                written = 0
            except OSError:  # the reading end is closed
                raise _Gone from None
            if written == len(data):
                self._unsent.popleft()
                continue
            self._unsent[0] = data[written:]
            if deadline is None:
                return
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._failed(FailureKind.TIMEOUT, "it does not read its input", view=view)
            select.select([], [fd], [], left)

    def _line(
        self,
        deadline: float,
        view: dict[str, Any],
        allowed: str,
        late: FailureKind = FailureKind.TIMEOUT,
    ) -> str:
        """The program's next line, waited for until ``deadline`` (a failure of kind
        ``late`` after it)."""
        process = self._process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        while True:
            end = self._read.find(b"\n")
            if end >= 0:
                raw = bytes(self._read[:end])
                del self._read[: end + 1]
                if raw.strip():
                    return raw.decode("utf-8", "replace").strip()
                continue  # blank lines are ignored
            if len(self._read) > MAX_LINE:
                said = bytes(self._read[:QUOTED]).decode("utf-8", "replace")
                raise self._failed(FailureKind.MALFORMED, "a line too long", said=said, view=view)
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._failed(late, f"no answer within {allowed}", view=view)
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise self._failed(FailureKind.CRASHED, self._exit_text(), view=view)
                self._read.extend(chunk)

    def _message(self, line: str, view: dict[str, Any]) -> dict[str, Any]:
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            raise self._failed(FailureKind.MALFORMED, "not a JSON object", said=line, view=view)
        return message

    def _exit_text(self) -> str:
        process = self._process
        if process is None:
            return "it is not running"
        try:
            status = process.wait(0.2)
        except subprocess.TimeoutExpired:
            return "it closed its output"
        if status < 0:
            return f"it was ended by signal {signal.Signals(-status).name}"
        return f"it exited with status {status}"

    def _failed(
        self,
        kind: FailureKind,
        detail: str,
        said: str | None = None,
        view: dict[str, Any] | None = None,
    ) -> BotFailure:
        """The failure to raise; the process is ended first."""
        self.kill()
        view = view or {}
        quoted = None if said is None else said[:QUOTED] + ("…" if len(said) > QUOTED else "")
        if quoted is not None:
            detail = f"{detail}; it said {quoted!r}"
        return BotFailure(
            self.name,
            self._seat or view.get("seat"),
            kind,
            detail,
            said=quoted,
            actions=view.get("actions", ()),
            legal=view.get("legal", ()),
        )


def close_all(bots: Iterable[object]) -> None:
    """Say ``bye`` to every external bot of ``bots`` (or that one of them guards) at once, then
    end each process when it has exited or 2 s later, whichever comes first."""
    externals = []
    for bot in bots:
        inner = getattr(bot, "bot", bot)  # a bot that guards a program: the program
        if isinstance(inner, ExternalBot) and inner.running:
            externals.append(inner)
    deadline = time.monotonic() + max((b.bye_seconds for b in externals), default=0.0)
    for bot in externals:
        with bot._lock:
            if bot._process is None:
                continue
            bot._unsent.append(_encode({"type": "bye"}))
            try:
                bot._flush(None)
            except (_Gone, BotFailure):
                continue
            assert bot._process.stdin is not None
            with contextlib.suppress(OSError):
                bot._process.stdin.close()
    for bot in externals:
        process = bot._process
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(max(0.0, deadline - time.monotonic()))
        bot.kill()


def _cpu_of(pid: int) -> float:
    """The user and system CPU seconds of process ``pid`` (0 when they cannot be read)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _encode(message: dict[str, Any]) -> bytes:
    return (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")


def _forward(stream: IO[bytes], log: Callable[[bytes], None]) -> None:
    """Give each line of a program's standard error to ``log`` until it is closed."""
    with contextlib.suppress(OSError, ValueError):
        for line in stream:
            log(line)


def _end(process: subprocess.Popen[bytes]) -> None:
    """End ``process`` and its process group, and reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(5)
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


_running: set[subprocess.Popen[bytes]] = set()
_bots: weakref.WeakSet[ExternalBot] = weakref.WeakSet()


def end_all() -> None:
    """End every process of an external bot still running, at once (a worker that stops)."""
    for process in list(_running):
        _end(process)
    _running.clear()


def _at_exit() -> None:
    """At exit, ``bye`` to the programs still running (2 s at most), then end what is left."""
    close_all(list(_bots))
    end_all()


atexit.register(_at_exit)

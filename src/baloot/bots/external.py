"""Bots in any language: a program that speaks ``baloot-bot/1`` on its standard input and output.

The protocol is normative in ``docs/bots.md``. One :class:`ExternalBot` is one seat of one
match: its process is started at the seat's first decision (``hello``, answered by ``ready``
within 10 s), asked each decision with a new ``id`` (``act``, answered by ``action`` within its
clock plus a grace of 1 s), told of each finished hand (``over``), and told ``bye`` when the
match is over, then ended 2 s later. Whatever the program does, the engine's state is never at
its mercy: an answer that is not one of the legal actions, a malformed line, a wrong ``id``,
silence, or an exit is a :class:`BotFailure` that names the bot, what it said, and the actions
of the view it was asked about; the process is ended at once.

Each process runs in a session of its own, so a Ctrl-C at the terminal reaches pybaloot only.
Ending a program ends every process it started, also those that moved to a session of their
own (:class:`_ProcessTree`), and pybaloot does so when it exits too (no orphans). The
program's standard error is its log: given line by line to ``log``, or discarded.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import math
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

import psutil

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
#: The clock an external bot is told when the caller sets none (``docs/bots.md``).
DEFAULT_CLOCK_MS: Final = 1000
#: The longest line a program may write (a longer one is malformed).
MAX_LINE: Final = 1 << 20
#: How much of what a program said a report quotes.
QUOTED: Final = 200
#: The shortest time, in seconds, between two looks for the processes a program started while
#: it plays (each look reads the table of every process of the machine).
LOOK_SECONDS: Final = 1.0


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
        self._tree: _ProcessTree | None = None
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
        """The CPU time the program's processes took so far (0 where the system does not say)."""
        tree = self._tree
        return self._cpu_before + (0.0 if tree is None else tree.cpu_seconds())

    @property
    def running(self) -> bool:
        """True while the program's process is there (started and not ended by pybaloot)."""
        return self._tree is not None

    @property
    def _process(self) -> subprocess.Popen[bytes] | None:
        return None if self._tree is None else self._tree.process

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
            assert self._tree is not None
            self._tree.look(every=LOOK_SECONDS)
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
        """End the process now, with every process it started, and the last lines of its
        log."""
        with self._lock:
            tree, self._tree = self._tree, None
            log_thread, self._log_thread = self._log_thread, None
            self._unsent.clear()
            self._read.clear()
            if tree is not None:
                self._cpu_before += tree.cpu_seconds()
                tree.end()
                _running.discard(tree)
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
        self._tree = _ProcessTree(process)
        _running.add(self._tree)
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
        self._tree.look()  # what it started to get ready, before any of it can leave its tree

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
            tree = bot._tree
            if tree is None:
                continue
            tree.look()  # while it runs: once it exits, what it started is no longer below it
            bot._unsent.append(_encode({"type": "bye"}))
            try:
                bot._flush(None)
            except (_Gone, BotFailure):
                continue
            assert tree.process.stdin is not None
            with contextlib.suppress(OSError):
                tree.process.stdin.close()
    for bot in externals:
        process = bot._process
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(max(0.0, deadline - time.monotonic()))
        bot.kill()


def _encode(message: dict[str, Any]) -> bytes:
    return (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")


def _forward(stream: IO[bytes], log: Callable[[bytes], None]) -> None:
    """Give each line of a program's standard error to ``log`` until it is closed."""
    with contextlib.suppress(OSError, ValueError):
        for line in stream:
            log(line)


class _ProcessTree:
    """A program's process and the processes it started, so that all of them end together.

    The program runs in a process group (and session) of its own, but what it starts may leave
    it: a child that calls ``setsid()`` is out of reach of ``killpg``. So the processes below
    the program are looked for (with psutil) while it runs: once after ``ready``, after an
    answer when the last look is :data:`LOOK_SECONDS` old, before ``bye``, and when it is
    ended; every one found is ended with it, also after it was re-parented (the program or its
    parent exited), and psutil's process identity (its pid and start time) keeps a pid used
    again by another process out of it. A process that leaves the tree before any look (a
    double fork done between two looks) is not found.

    This process does not make itself a child subreaper (Linux's ``PR_SET_CHILD_SUBREAPER``),
    which would keep every orphan below it: it would adopt the orphans of everything it runs,
    not only of the programs, and would have to reap them, which Python leaves to whoever
    started each process (waiting for any child takes the exit status a ``Popen`` waits for);
    and an adopted process would still not say which program it came from.
    """

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self._root: psutil.Process | None
        try:
            self._root = psutil.Process(process.pid)
        except psutil.Error:  # a system psutil cannot read: the process group alone
            self._root = None
        self._below: set[psutil.Process] = set()
        self._looked = -math.inf  # when it was last looked below

    def cpu_seconds(self) -> float:
        """The user and system CPU seconds of the program's process (0 when they cannot be
        read)."""
        if self._root is None:
            return 0.0
        try:
            times = self._root.cpu_times()
        except psutil.Error:
            return 0.0
        return times.user + times.system

    def look(self, every: float = 0.0) -> set[psutil.Process]:
        """Find the processes below the program now, and keep those found before that still
        run; the ones not known before. Nothing is done when the last look is less than
        ``every`` seconds old."""
        now = time.monotonic()
        if now - self._looked < every:
            return set()
        self._looked = now
        found = _descendants(self._root)
        for gone in self._below - found:  # found before, and out of the tree since
            with contextlib.suppress(psutil.Error):
                if gone.is_running():
                    found |= {gone, *_descendants(gone)}
        fresh = found - self._below
        self._below = found
        return fresh

    def end(self) -> None:
        """End the program and every process found below it, and reap it.

        They are stopped first, so that none starts another process while they are looked
        for, then killed.
        """
        pid = self.process.pid
        _signal_group(pid, signal.SIGSTOP)
        self.look()
        stopping = set(self._below)
        while stopping:
            for process in stopping:
                with contextlib.suppress(psutil.Error):
                    process.suspend()
            stopping = self.look()
        _signal_group(pid, signal.SIGKILL)
        for process in self._below:
            with contextlib.suppress(psutil.Error):
                process.kill()
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


def _descendants(process: psutil.Process | None) -> set[psutil.Process]:
    """The processes below ``process`` now (none when it is gone or cannot be read)."""
    if process is None:
        return set()
    try:
        return set(process.children(recursive=True))
    except psutil.Error:
        return set()


def _signal_group(pgid: int, signum: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


_running: set[_ProcessTree] = set()
_bots: weakref.WeakSet[ExternalBot] = weakref.WeakSet()


def end_all() -> None:
    """End every process of an external bot still running, at once (a worker that stops)."""
    for tree in list(_running):
        tree.end()
    _running.clear()


def _at_exit() -> None:
    """At exit, ``bye`` to the programs still running (2 s at most), then end what is left."""
    close_all(list(_bots))
    end_all()


atexit.register(_at_exit)

"""The clock of one decision: how much CPU time and wall time a bot may take for it.

Whoever asks a bot to decide (the arena, a table) starts a :class:`Clock` for that decision
and makes it current (:func:`deciding`); the bot reads it with :func:`current_clock`. A bot
whose strength is set by samples or nodes checks ``current_clock().expired()`` as a ceiling
only, so that its results do not depend on the machine's load. CPU time is the fairer budget:
wall time varies with whatever else the machine does. An external bot is told the clock as
``clock_ms``.

>>> clock = Clock(cpu=0.5)
>>> clock.expired(), clock.limit_ms()
(False, 500)
>>> with deciding(clock):
...     current_clock() is clock
True
>>> current_clock().limited
False
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar, Token
from dataclasses import dataclass


class Clock:
    """Ceilings for one decision, counted from when the clock was made: ``cpu`` seconds of
    CPU time (read by ``cpu_time``: the process's by default, the thread's at a table whose
    bots share a process) and ``wall`` seconds of real time; None is no ceiling."""

    def __init__(
        self,
        cpu: float | None = None,
        wall: float | None = None,
        *,
        cpu_time: Callable[[], float] = time.process_time,
        wall_time: Callable[[], float] = time.monotonic,
    ) -> None:
        self.cpu = cpu
        self.wall = wall
        self._cpu_time = cpu_time
        self._wall_time = wall_time
        self._cpu_start = cpu_time()
        self._wall_start = wall_time()

    def __repr__(self) -> str:
        return f"Clock(cpu={self.cpu!r}, wall={self.wall!r})"

    @property
    def limited(self) -> bool:
        """True when the clock has a ceiling."""
        return self.cpu is not None or self.wall is not None

    def cpu_used(self) -> float:
        """CPU seconds since the clock started."""
        return self._cpu_time() - self._cpu_start

    def wall_used(self) -> float:
        """Wall seconds since the clock started."""
        return self._wall_time() - self._wall_start

    def expired(self) -> bool:
        """True once either ceiling is reached: time to answer with the best found so far."""
        return (self.cpu is not None and self.cpu_used() >= self.cpu) or (
            self.wall is not None and self.wall_used() >= self.wall
        )

    def remaining(self) -> float | None:
        """Seconds left before the nearer ceiling (never below 0), or None without one."""
        left = []
        if self.cpu is not None:
            left.append(self.cpu - self.cpu_used())
        if self.wall is not None:
            left.append(self.wall - self.wall_used())
        return max(0.0, min(left)) if left else None

    def limit_ms(self, default: int = 1000) -> int:
        """The decision's budget in milliseconds, as an external bot is told it: the CPU
        ceiling, else the wall ceiling, else ``default``."""
        limit = self.cpu if self.cpu is not None else self.wall
        return default if limit is None else max(1, round(limit * 1000))


@dataclass(frozen=True)
class TimeLimit:
    """What each decision gets (seconds; None: no ceiling): a clock is started from it for
    every decision. Plain data, so that it travels to worker processes.

    >>> TimeLimit(cpu=0.2).start().cpu
    0.2
    """

    cpu: float | None = None
    wall: float | None = None

    def start(self, cpu_time: Callable[[], float] = time.process_time) -> Clock:
        """A clock for one decision, starting now."""
        return Clock(self.cpu, self.wall, cpu_time=cpu_time)


_CURRENT: ContextVar[Clock | None] = ContextVar("baloot_clock", default=None)


def current_clock() -> Clock:
    """The clock of the decision being made; outside of one, a clock without ceilings."""
    clock = _CURRENT.get()
    return Clock() if clock is None else clock


class deciding:  # a class, used as a function: ``with deciding(clock):``
    """Make ``clock`` the current one while inside (in this thread or task only)."""

    __slots__ = ("_token", "clock")
    _token: Token[Clock | None]

    def __init__(self, clock: Clock) -> None:
        self.clock = clock

    def __enter__(self) -> Clock:
        self._token = _CURRENT.set(self.clock)
        return self.clock

    def __exit__(self, *exc_info: object) -> None:
        _CURRENT.reset(self._token)

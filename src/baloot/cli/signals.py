"""Signals that stop a command cleanly: raised as an exception where the command can act.

``baloot play`` keeps its match when SIGTERM or SIGHUP arrives, ``baloot arena`` stops its
workers on SIGINT or SIGTERM: both turn the signal into :class:`Stopped` in the main thread,
where the command saves, cleans up and exits with ``128 + the signal``.

>>> import signal
>>> Stopped(signal.SIGTERM).status
143
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Final

#: The exit status after Ctrl-C (128 + SIGINT), as a shell gives it.
INTERRUPTED: Final = 128 + signal.SIGINT


class Stopped(BaseException):
    """A signal asked the command to stop; ``status`` is its exit status (128 + the signal).

    A ``BaseException``, like ``KeyboardInterrupt``, so that no ``except Exception`` on the
    way swallows it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        self.status = 128 + signum


@contextmanager
def stopping_on(*signums: int) -> Iterator[None]:
    """While inside, each of ``signums`` raises :class:`Stopped` in the main thread; the first
    one decides, later ones are ignored so that the clean-up is not cut short. Outside the
    main thread (where no handler can be set) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        for other in signums:
            signal.signal(other, signal.SIG_IGN)
        raise Stopped(signum)

    previous = {signum: signal.signal(signum, stop) for signum in signums}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def until_interrupted(command: Callable[[], int]) -> int:
    """Run ``command`` until Ctrl-C or SIGTERM stops it; then say so in one line and return
    130 or 143 (what it returns otherwise).

    >>> until_interrupted(lambda: 0)
    0
    """
    try:
        with stopping_on(signal.SIGINT, signal.SIGTERM):
            return command()
    except (Stopped, KeyboardInterrupt) as stop:
        status = stop.status if isinstance(stop, Stopped) else INTERRUPTED
        print("baloot: interrupted", file=sys.stderr)
        return status

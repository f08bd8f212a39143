"""What the long runs of bots (``baloot arena``, ``baloot selfplay``, ``baloot analyze``)
share: a progress bar on standard error, and the one line and status of a run that cannot go
on.

>>> with progress_bar("pairs", 2) as done:
...     done(1)
>>> run_failed(FolderError("out/ holds another run"))  # the line goes to standard error
2
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from baloot.bots.cluster import ClusterError
from baloot.records.atomic import FolderError
from baloot.table.players import BotError

#: What ends a run early, in one line (:func:`run_failed`): its folder, its cluster, a bot
#: that cannot play, a file that cannot be written.
RUN_ERRORS = (FolderError, ClusterError, BotError, OSError)


class Advance(Protocol):
    """What a progress bar is told: how many steps are done (and, once known, how many)."""

    def __call__(self, done: int, total: int | None = None) -> None: ...


@contextmanager
def progress_bar(description: str, total: int | None) -> Iterator[Advance]:
    """A bar of ``total`` steps (None: not known yet) on standard error while inside, gone
    when done (none when standard error is not a terminal). ``description`` is rich markup:
    escape any text of the user's."""
    err = Console(stderr=True)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as progress:
        task = progress.add_task(description, total=total)

        def advance(done: int, total: int | None = None) -> None:
            progress.update(task, completed=done, total=total)

        yield advance


def run_failed(error: BaseException) -> int:
    """Say on standard error in one line why a run stopped (one of :data:`RUN_ERRORS`), and
    give its exit status: 1 for a bot that could not play, else 2."""
    if isinstance(error, BotError):
        print(f"baloot: {error}", file=sys.stderr)
        return 1
    if isinstance(error, OSError):
        where = f" {error.filename}" if error.filename else ""
        print(f"baloot: cannot write{where}: {error.strerror or error}", file=sys.stderr)
        return 2
    print(f"baloot: {error}", file=sys.stderr)
    return 2

"""Where the terminal game keeps a match: checked save paths, atomic writes, autosave files.

A save never leaves a half-written file and never replaces a file unless asked: the record
is written to a temporary file in the same folder, flushed to disk and renamed over the
target (:func:`baloot.cli.files.write_atomic`).

>>> save_path("~nosuchuser_at_all/x.baloot")
Traceback (most recent call last):
...
baloot.cli.saving.SaveError: cannot save to ~nosuchuser_at_all/x.baloot: no such user
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from baloot.core.errors import BalootError

from .files import write_atomic


class SaveError(BalootError, ValueError):
    """A place where a match record cannot be saved, in one line."""


def save_path(text: str) -> Path:
    """The file that ``text`` names for a save, checked: raise :class:`SaveError` for a NUL,
    an unknown ``~user``, a folder, or a missing folder."""
    if "\x00" in text:
        raise SaveError("a file name cannot hold a NUL character")
    try:
        path = Path(text).expanduser()
    except RuntimeError:
        raise SaveError(f"cannot save to {text}: no such user") from None
    if path.is_dir():
        raise SaveError(f"cannot save to {text}: it is a folder; name a file in it")
    if not path.parent.is_dir():
        raise SaveError(f"cannot save to {text}: no folder {path.parent}")
    return path


def write_record(path: Path, text: str) -> None:
    """Write a record atomically (OSError on failure; the old file, if any, is untouched)."""
    write_atomic(path, text)


def autosave_path(seed: int, now: datetime.datetime | None = None) -> Path:
    """A new file for a match interrupted without ``--save``: in ``$XDG_STATE_HOME/pybaloot``
    (by default ``~/.local/state/pybaloot``), named by the time and the seed; never an
    existing file."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    folder = Path(base) / "pybaloot"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S")
    path = folder / f"match-{stamp}-seed{seed}.baloot"
    number = 2
    while path.exists():
        path = folder / f"match-{stamp}-seed{seed}-{number}.baloot"
        number += 1
    return path

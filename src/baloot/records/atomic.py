"""Writing a file atomically: whole or not at all, whatever interrupts it.

Records, arena folders and saved games all go through :func:`write_atomic`, so an interruption
at any moment (Ctrl-C, SIGTERM, a full disk) leaves the old file or the new one, never a part.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> write_atomic(folder / "game.baloot", 'format = "baloot/1"\\n')
>>> (folder / "game.baloot").read_text(encoding="utf-8")
'format = "baloot/1"\\n'
>>> sorted(p.name for p in folder.iterdir())  # no temporary file is left behind
['game.baloot']
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from typing import Final

from baloot.core.errors import BalootError

#: How a temporary file is opened: for writing, made new (never one that exists).
_NEW: Final = os.O_WRONLY | os.O_CREAT | os.O_EXCL
#: Names tried for a temporary file before giving up.
_TRIES: Final = 100


class FolderError(BalootError):
    """An output folder that cannot be used: a file is in the way, it cannot be written, or
    (an arena run's) it holds another run. Its message is the one line that says why."""


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write ``text`` (a str as UTF-8, or bytes) to ``path``: after it, ``path`` is as it was
    or complete.

    The text goes to a temporary file in the same folder, which is flushed, synced to disk and
    renamed over ``path`` (:func:`os.replace`); the folder is then synced where the system
    allows it. On any failure, an interruption included, the temporary file is removed and
    the error (an :class:`OSError` for the file system) is raised as it came.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    temporary = ""
    try:
        # The name is known before the file is made: an interruption just after it is made
        # still removes it.
        for _ in range(_TRIES):
            temporary = _temporary_name(path)
            try:
                fd = os.open(temporary, _NEW, 0o666)
                break
            except FileExistsError:
                temporary = ""
        else:
            raise FileExistsError(f"no free temporary name beside {path}")
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        if temporary:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise
    _sync_folder(path.parent)


def create_temporary(path: Path) -> tuple[int, str]:
    """A new file beside ``path``, hidden and named after it, opened for writing."""
    for _ in range(_TRIES):
        name = _temporary_name(path)
        try:
            return os.open(name, _NEW, 0o666), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


def _temporary_name(path: Path) -> str:
    return os.path.join(path.parent, f".{path.name}.{secrets.token_hex(4)}.tmp")


def _sync_folder(folder: Path) -> None:
    """Sync a folder's entries (the rename) to disk, where the system allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)

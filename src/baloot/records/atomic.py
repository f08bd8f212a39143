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

from baloot.core.errors import BalootError


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
    fd, temporary = create_temporary(path)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(path.parent)


def create_temporary(path: Path) -> tuple[int, str]:
    """A new file beside ``path``, hidden and named after it, opened for writing."""
    for _ in range(100):
        name = os.path.join(path.parent, f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


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

"""Files written safely: a temporary file in the same folder, flushed, renamed over the target.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomic(folder / "a.txt", "one")
>>> (folder / "a.txt").read_text(), sorted(p.name for p in folder.iterdir())
('one', ['a.txt'])
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path

from baloot.core.errors import RecordError


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` so that it holds either the old content or all of
    the new, never part of it: write a temporary file beside it, fsync, rename over it."""
    folder = path.parent
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    with contextlib.suppress(OSError):
        directory = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


#: The largest record file or standard input that is read, in bytes.
RECORD_LIMIT = 16 * 1024 * 1024


def read_record_text(path: str, limit: int = RECORD_LIMIT) -> str:
    """The text of a record file (``-``: standard input), at most ``limit`` bytes, UTF-8 with
    an optional BOM; a :class:`RecordError` in one line otherwise."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(path, "rb") as stream:
                data = stream.read(limit + 1)
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror}") from None
    if len(data) > limit:
        raise RecordError(f"{path} is larger than {limit // (1024 * 1024)} MiB")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not UTF-8 text") from None

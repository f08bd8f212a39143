"""The command line's files: reading a record within a size limit, writing one atomically,
checking an output folder, and showing text that came from a file safely on a terminal.

>>> printable("S play \\x1b[31mAs")
'S play \\\\x1b[31mAs'
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Final

from baloot.core.errors import RecordError
from baloot.records.atomic import FolderError, create_temporary
from baloot.records.atomic import write_atomic as write_atomic

RECORD_LIMIT: Final = 16 * 1024 * 1024
"""The largest record file (or standard input) that ``replay`` and ``validate`` read: 16 MiB."""
LIMIT_NOTE: Final = (
    f"A record file (or standard input) may hold at most {RECORD_LIMIT // (1024 * 1024)} MiB."
)
"""The limit, as the help of the commands that read a record says it."""

_BOM: Final = b"\xef\xbb\xbf"


# ---------------------------------------------------------------------- showing text


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x20 or code == 0x7F or 0x80 <= code <= 0x9F:
        return f"\\x{code:02x}"
    if 0xD800 <= code <= 0xDFFF:
        return f"\\u{code:04x}"
    return char


def printable(text: str) -> str:
    """``text`` with control characters (C0, DEL, C1) and lone surrogates escaped.

    What a record holds reaches the terminal only through this, so a record cannot send
    escape sequences to the terminal, and a string that cannot be encoded cannot stop a print.

    >>> printable("N pass\\x07\\x9b\\ud800 ok é")
    'N pass\\\\x07\\\\x9b\\\\ud800 ok é'
    """
    if text.isprintable():  # the common case, and it has none of them
        return text
    return "".join(map(_escape, text))


def shown_path(path: str) -> str:
    """A file name as it can be printed: bytes that are not UTF-8 as ``\\xNN``, controls escaped.

    >>> shown_path(os.fsdecode(b"caf\\xe9.baloot"))
    'caf\\\\xe9.baloot'
    """
    try:
        raw = os.fsencode(path)
    except UnicodeEncodeError:
        return printable(path)
    return printable(raw.decode("utf-8", "backslashreplace"))


# ---------------------------------------------------------------------- reading


def read_record_text(path: str, limit: int = RECORD_LIMIT) -> str:
    """The text of the record file ``path`` (``-``: standard input), read as UTF-8 bytes.

    At most ``limit`` bytes are accepted (a larger input is refused after reading
    ``limit + 1``, so ``/dev/zero`` ends too); a leading UTF-8 byte order mark is dropped.
    Every failure is a :class:`RecordError` with a one-line message.
    """
    shown = "standard input" if path == "-" else shown_path(path)
    try:
        if path == "-":
            data = _read_stdin(limit + 1)
        else:
            with open(path, "rb") as file:
                data = file.read(limit + 1)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise RecordError(f"cannot read {shown}: {reason}") from None
    if len(data) > limit:
        raise RecordError(f"{shown} is larger than {_size(limit)}, the limit for a record")
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"{shown} is not UTF-8 text (byte {error.start + 1})") from None


def _read_stdin(count: int) -> bytes:
    stream = sys.stdin
    if stream is None:
        raise RecordError("cannot read standard input: it is closed")
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        data: bytes = buffer.read(count)
        return data
    return str(stream.read(count)).encode("utf-8", "surrogateescape")


def _size(limit: int) -> str:
    """``16 MiB`` for 16 * 1024 * 1024; bytes when not a whole number of MiB."""
    mib = 1024 * 1024
    return f"{limit // mib} MiB" if limit % mib == 0 else f"{limit} bytes"


# ---------------------------------------------------------------------- writing


def check_writable_dir(path: Path) -> None:
    """Make sure that files can be written into the folder ``path``, creating it if needed.

    Raises :class:`FolderError` (one line) when ``path`` is a file, cannot be created, or
    cannot be written; it is checked by writing and removing a probe file, so it holds for
    root too.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_writable_dir(folder / "records")
    >>> (folder / "records").is_dir()
    True
    >>> (folder / "note").write_text("x", encoding="utf-8")
    1
    >>> check_writable_dir(folder / "note" / "sub")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    baloot.records.atomic.FolderError: cannot create the folder .../note/sub: Not a directory
    """
    shown = shown_path(os.fspath(path))
    if path.exists() and not path.is_dir():
        raise FolderError(f"cannot write into {shown}: it is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise FolderError(f"cannot create the folder {shown}: {_reason(error)}") from None
    try:
        fd, probe = create_temporary(path / ".baloot-probe")
    except OSError as error:
        raise FolderError(f"cannot write into {shown}: {_reason(error)}") from None
    os.close(fd)
    try:
        os.unlink(probe)
    except OSError as error:
        raise FolderError(f"cannot write into {shown}: {_reason(error)}") from None


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


# ---------------------------------------------------------------------- standard output


def silence_stdout() -> None:
    """Send what is still to be written to standard output to the null device.

    For a closed pipe (``baloot validate *.baloot | head -1``), as the Python documentation
    recommends: the command goes on or ends quietly, without a second error at exit.
    """
    stream = sys.stdout
    if stream is None:
        return
    try:
        fd = stream.fileno()
    except (OSError, ValueError):
        # kept open for the rest of the run, like the standard output it replaces
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


class Output:
    """Standard output, line by line, that survives a closed pipe.

    After the reader has gone, :attr:`closed` is true and lines are dropped quietly, so a
    command can stop early (``random``) or go on to its true exit status (``validate``).
    """

    def __init__(self) -> None:
        self.closed = False

    def line(self, text: str) -> None:
        """Write ``text`` and a newline, and flush; nothing once the reader has gone."""
        if self.closed or sys.stdout is None:
            return
        try:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            self.closed = True
            silence_stdout()

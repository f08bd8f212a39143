"""uvicorn as ``baloot serve`` runs it: SIGINT and SIGTERM are left to the command.

Imported by :func:`baloot.server.serve.run` alone, so that the other commands never load
uvicorn.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import uvicorn


class CommandServer(uvicorn.Server):
    """A uvicorn server that leaves SIGINT and SIGTERM to the command, which stops it by
    setting :attr:`should_exit` (and :attr:`force_exit`).

    uvicorn's own handlers, once the server has stopped, raise the signal again under the
    handler they found: when SIGINT was ignored, as it is in a shell's background job, that
    did nothing and ``kill -INT`` ended the command with status 0 (SIGTERM likewise).
    """

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield

"""uvicorn as ``baloot serve`` runs it: a connection slow to send its request is closed, and
SIGINT and SIGTERM are left to the command.

Imported by :func:`baloot.server.serve.run` alone, so that the other commands never load
uvicorn. The HTTP protocol is uvicorn's httptools one, which ``uvicorn[standard]`` installs and
uvicorn picks by itself when httptools is there.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import ClassVar

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class HeaderTimedHttp(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol that also closes a connection which takes longer than
    :attr:`header_timeout` seconds to send a request's line and headers.

    uvicorn (0.54) times a connection only between requests (its keep-alive timer starts when
    a response is complete) and has no option for the time a request's headers may take: a
    connection that sends nothing, or half a request and then nothing, was kept for ever.
    This timer runs from the opening of the connection, and from the first byte of each later
    request, to the end of its headers; a body sent slowly is not timed. A WebSocket, once its
    upgrade request is read, is another protocol, kept alive by its pings.
    """

    header_timeout: ClassVar[float]
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_headers()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._await_headers()

    def on_headers_complete(self) -> None:
        self._stop_header_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)

    def _await_headers(self) -> None:
        """Start the timer, unless it runs already (a request begun since the opening)."""
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._headers_late)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        self.transport.close()


def header_timed_http(header_timeout: float) -> type[HeaderTimedHttp]:
    """The HTTP protocol class for uvicorn's ``http``, with its headers' time limit."""
    return type("HeaderTimedHttp", (HeaderTimedHttp,), {"header_timeout": header_timeout})


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

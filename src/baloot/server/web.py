"""What the application and its API modules share: a page's HTML in a language, a request's
JSON body read within its limits, and an error as JSON.

The application (:mod:`~baloot.server.app`) and the players' API modules
(:mod:`baloot.server.players`) answer alike: every error is ``{"error": "…"}`` with its
status, every body is read with the same limit and checked storable, every page is its file
under the one head. Kept here so that each of them imports it rather than the application.

>>> error(404, "no such table").body
b'{"error":"no such table"}'
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.websockets import WebSocket

from baloot.server.messages import storable
from baloot.server.requests import CreateError
from baloot.words import LANGUAGES

#: The largest HTTP request body the API reads, in bytes.
MAX_BODY: Final = 64 * 1024

STATIC = resources.files("baloot.server") / "static"


def lang(request: Request | WebSocket) -> str:
    """The language the request asks for (``?lang=ar``), English unless it is known."""
    asked = request.query_params.get("lang", "en")
    return asked if asked in LANGUAGES else "en"


def page_html(name: str, lang: str) -> str:
    """The page ``name`` in ``lang``: its file under the pages' one head (``head.html``), with
    the language and direction filled in."""
    head = (STATIC / "head.html").read_text(encoding="utf-8").removesuffix("\n")
    text = (STATIC / f"{name}.html").read_text(encoding="utf-8").replace("{{head}}", head, 1)
    return text.replace("{{lang}}", lang).replace("{{dir}}", "rtl" if lang == "ar" else "ltr")


def page(name: str) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint of the page ``name``, in the request's language."""

    async def endpoint(request: Request) -> Response:
        return HTMLResponse(page_html(name, lang(request)))

    return endpoint


def error(status: int, message: str) -> JSONResponse:
    """An error as every endpoint answers one: ``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=status)


async def json_body(request: Request) -> Any:
    """The request's JSON body, at most :data:`MAX_BODY` bytes, with no text that could not
    be stored or sent back (a :class:`~baloot.server.requests.CreateError`)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise CreateError(f"the request body may hold at most {MAX_BODY} bytes")
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        raise CreateError("the request body is not JSON") from None
    if not storable(value):
        raise CreateError(
            "the request body holds text that cannot be kept (a lone surrogate or a NUL)"
        )
    return value

"""What the HTTP endpoints share: a page's HTML, a JSON error, and a request's JSON body read
within its limit.

>>> error(404, "no such table").body
b'{"error":"no such table"}'
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse

from baloot.server.messages import storable
from baloot.server.requests import CreateError

#: The largest HTTP request body the API reads, in bytes.
MAX_BODY: Final = 64 * 1024

STATIC = resources.files("baloot.server") / "static"


def page_html(name: str, lang: str) -> str:
    """The page ``name`` in ``lang``: its file under the pages' one head (``head.html``), with
    the language and direction filled in."""
    head = (STATIC / "head.html").read_text(encoding="utf-8").removesuffix("\n")
    text = (STATIC / f"{name}.html").read_text(encoding="utf-8").replace("{{head}}", head, 1)
    return text.replace("{{lang}}", lang).replace("{{dir}}", "rtl" if lang == "ar" else "ltr")


def error(status: int, message: str) -> JSONResponse:
    """The JSON error ``{"error": message}`` with its status, as every error is answered."""
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

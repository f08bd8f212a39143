"""The pages as the server sends them: each file of ``static/`` under the one head they share,
in the language the request asks for (``?lang=ar``: Arabic, right to left), for the
application's routes and those of :mod:`baloot.server.players`.

>>> page_html("history", "ar").startswith('<!doctype html>\\n<html lang="ar" dir="rtl">')
True
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib import resources

from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, Response

from baloot.words import LANGUAGES

#: The pages' files: their HTML, scripts and style sheet.
STATIC = resources.files("baloot.server") / "static"


def lang_of(connection: HTTPConnection) -> str:
    """The language a request asks for with ``?lang=`` (English unless it is one we have)."""
    lang = connection.query_params.get("lang", "en")
    return lang if lang in LANGUAGES else "en"


def page_html(name: str, lang: str) -> str:
    """The page ``name`` in ``lang``: its file under the pages' one head (``head.html``), with
    the language and direction filled in."""
    head = (STATIC / "head.html").read_text(encoding="utf-8").removesuffix("\n")
    text = (STATIC / f"{name}.html").read_text(encoding="utf-8").replace("{{head}}", head, 1)
    return text.replace("{{lang}}", lang).replace("{{dir}}", "rtl" if lang == "ar" else "ltr")


def page(name: str) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint that sends the page ``name`` in the request's language."""

    async def endpoint(request: Request) -> Response:
        return HTMLResponse(page_html(name, lang_of(request)))

    return endpoint

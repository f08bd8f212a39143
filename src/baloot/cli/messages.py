"""What the record commands print of a record and end with: JSON, errors, exit statuses.

Exit status (``docs/records.md``): :data:`OK` for a record that replays cleanly,
:data:`ILLEGAL` for a record with an illegal action, :data:`NOT_A_RECORD` for a file that is
not a record or a usage error (a one-line message on stderr, :func:`complain`).

Everything printed from a file goes through :func:`~baloot.cli.files.printable` (text) or
:func:`json_text` (JSON), so a record cannot drive the terminal or break the output.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Final

from baloot.records.record import shown
from baloot.records.replay import ReplayError

from .files import printable

OK, ILLEGAL, NOT_A_RECORD = 0, 1, 2

REASON_LENGTH: Final = 160
"""The most characters of an error's reason that the text output shows (then an ellipsis)."""

_JSON_ESCAPED: Final = re.compile("[\x7f-\x9f\ud800-\udfff]")


def json_text(data: object) -> str:
    """``data`` as one line of JSON (UTF-8), with DEL, C1 controls and lone surrogates escaped.

    ``json.dumps`` escapes the C0 controls already; these others would reach the terminal raw,
    or (a lone surrogate, from a JSON record) could not be written at all.

    >>> json_text({"text": "N \\ud800\\x9b é"})
    '{"text": "N \\\\ud800\\\\u009b é"}'
    """
    text = json.dumps(data, ensure_ascii=False)
    return _JSON_ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def error_line(error: BaseException) -> str:
    """An error's message, as one printable line of reasonable length."""
    return printable(_clip(str(error), 2 * REASON_LENGTH))


def illegal_line(error: ReplayError) -> str:
    """``hand 1: action 13 "S play Kh": S does not hold Kh``, printable and of bounded length."""
    reason = _clip(error.reason, REASON_LENGTH)
    return printable(f"hand {error.hand}: action {error.position} {shown(error.text)}: {reason}")


def complain(message: str) -> None:
    """One line on standard error, prefixed ``baloot:``."""
    print(f"baloot: {printable(message)}", file=sys.stderr)

"""Table talk: what a seat may say (``say``), how often, and the lines a table keeps
(``docs/table-protocol.md``, "Timers, table talk and fair deals").

A line is 1 to :data:`MAX_SAID` characters once NFC-normalised, with no control character (a
new line, a tab, an escape: one line of talk each), and a seat says at most one every
:data:`SAY_EVERY` seconds. Talk is no part of the game: it is not in the ``baloot/1``
record. A table keeps its last :data:`KEPT` lines, so that a page that comes (back) later reads
what was said, as a page that never left holds it.

>>> said_text("e\\u0301 يا هلا")
'é يا هلا'
>>> said_text("two\\nlines")
Traceback (most recent call last):
...
ValueError: table talk is one line with no control characters
"""

from __future__ import annotations

import unicodedata
from collections import deque
from dataclasses import dataclass
from typing import Any, Final

from baloot.core.seats import Seat

#: The most characters of one line of talk (after NFC normalisation).
MAX_SAID: Final = 200
#: The fewest seconds between two lines of one seat.
SAY_EVERY: Final = 2.0
#: How many lines a table keeps for the pages that come later.
KEPT: Final = 50


def said_text(text: str) -> str:
    """``text`` as a line of talk: NFC-normalised, checked (a :class:`ValueError` says why)."""
    text = unicodedata.normalize("NFC", text)
    if not 1 <= len(text) <= MAX_SAID:
        raise ValueError(f"table talk is 1 to {MAX_SAID} characters")
    if any(unicodedata.category(char) == "Cc" for char in text):
        raise ValueError("table talk is one line with no control characters")
    return text


@dataclass(frozen=True, slots=True)
class Line:
    """One line of talk: its ``v`` in the table's history, who said it and what."""

    v: int
    seat: Seat
    text: str

    def to_json(self) -> dict[str, Any]:
        """As a ``said`` message gives it, without its type."""
        return {"v": self.v, "seat": self.seat.name, "text": self.text}


class Talk:
    """A table's talk: its last :data:`KEPT` lines, and when each seat last spoke."""

    def __init__(self) -> None:
        self.lines: deque[Line] = deque(maxlen=KEPT)
        self._last: dict[Seat, float] = {}

    def may_say(self, seat: Seat, now: float) -> bool:
        """True unless ``seat`` spoke less than :data:`SAY_EVERY` seconds before ``now``.

        >>> talk = Talk()
        >>> talk.said(Line(3, Seat.S, "سوا"), now=10.0)
        >>> talk.may_say(Seat.S, 11.0), talk.may_say(Seat.N, 11.0), talk.may_say(Seat.S, 12.0)
        (False, True, True)
        """
        last = self._last.get(seat)
        return last is None or now - last >= SAY_EVERY

    def said(self, line: Line, now: float | None = None) -> None:
        """Keep ``line``, said at ``now`` (None: said before, brought back from storage)."""
        self.lines.append(line)
        if now is not None:
            self._last[line.seat] = now

    def to_json(self) -> list[dict[str, Any]]:
        """The lines kept, oldest first."""
        return [line.to_json() for line in self.lines]

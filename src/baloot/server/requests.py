"""What a client may ask of a new table (``POST /api/tables``, ``seat-view.md`` §4), checked.

A server never trusts a client: every part of the request is checked here, and a bad one is
a :class:`CreateError` with one clear line (the HTTP 400's ``error``). Bots are named from the
registry (``bot:NAME[:OPTIONS]``: built in, installed, or registered by the server's operator
with ``baloot serve --bot``), never run as a command or a path given by a client.

>>> read_request({"seats": {"S": "human"}, "names": {"S": "  Saad  "}, "timer": 30})[1]
{'S': 'Saad'}
>>> read_request({"seats": {"S": "rm -rf /"}})
Traceback (most recent call last):
...
baloot.server.requests.CreateError: seat S: a player is 'human' or 'bot:NAME'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from baloot.bots.base import check_bot_name
from baloot.bots.names import UnknownBotError
from baloot.core.errors import RecordError
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.records.record import read_rules

#: The turn timers a table may have, in seconds (None: no timer).
TIMERS: Final = (None, 15, 30, 60)
#: The longest display name, in characters.
MAX_NAME: Final = 40
#: The longest player (``bot:NAME[:OPTIONS]``), in characters.
MAX_PLAYER: Final = 100


class CreateError(ValueError):
    """A table request that cannot be honoured (HTTP 400, or 503 when ``full``)."""

    def __init__(self, message: str, *, full: bool = False) -> None:
        super().__init__(message)
        self.full = full


def read_request(
    request: Mapping[str, Any],
) -> tuple[dict[str, str], dict[str, str], Rules, int | None, bool]:
    """The checked parts of a table request: seats, names, rules, timer, public."""
    if not isinstance(request, Mapping):
        raise CreateError("the request must be a JSON object")
    seats_in = request.get("seats", {})
    names_in = request.get("names", {})
    if not isinstance(seats_in, Mapping) or not isinstance(names_in, Mapping):
        raise CreateError('"seats" and "names" must be objects')
    seats: dict[str, str] = {}
    for seat, kind in seats_in.items():
        if seat not in Seat.__members__:
            raise CreateError(f"unknown seat {str(seat)[:8]!r} (seats are N, E, S, W)")
        if kind != "human":
            if not isinstance(kind, str) or not kind.startswith("bot:"):
                raise CreateError(f"seat {seat}: a player is 'human' or 'bot:NAME'")
            if len(kind) > MAX_PLAYER or not kind.isprintable():
                raise CreateError(
                    f"seat {seat}: a bot name is printable, {MAX_PLAYER} chars at most"
                )
            try:
                check_bot_name(kind[4:], programs=False)
            except UnknownBotError as error:
                raise CreateError(f"seat {seat}: {error}") from None
        seats[seat] = kind
    names: dict[str, str] = {}
    for seat, name in names_in.items():
        if seat not in Seat.__members__:
            raise CreateError(f"unknown seat {str(seat)[:8]!r} in names")
        if not isinstance(name, str):
            raise CreateError(f"the name of {seat} must be text")
        name = " ".join(name.split())
        if len(name) > MAX_NAME or not name.isprintable() or name.startswith("bot:"):
            raise CreateError(f"the name of {seat} must be printable, at most {MAX_NAME} chars")
        if name and seats.get(seat) == "human":
            names[seat] = name
    try:
        rules = read_rules(request.get("rules", "classic"))[0]
    except RecordError as error:
        raise CreateError(str(error)) from None
    timer = request.get("timer")
    if timer not in TIMERS or isinstance(timer, bool):
        raise CreateError("timer is null, 15, 30 or 60 (seconds)")
    public = request.get("public", False)
    if not isinstance(public, bool):
        raise CreateError("public is true or false")
    return seats, names, rules, timer, public

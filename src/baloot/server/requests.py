"""What a client may ask of a new table (``POST /api/tables``, ``docs/table-protocol.md``), checked.

A server never trusts a client: every part of the request is checked here, and a bad one is
a :class:`CreateError` with one clear line (the HTTP 400's ``error``). Bots are named from the
registry (``bot:NAME[:OPTIONS]``: built in, installed, or registered by the server's operator
with ``baloot serve --bot``), never run as a command or a path given by a client.

The request's seats come out as :class:`~baloot.table.players.Player` values, read once here,
so that whoever seats them never reads ``"human"`` or ``bot:NAME`` text again:

>>> asked = read_request({"seats": {"S": "human", "E": "bot:random"}, "names": {"S": "  Saad  "}})
>>> {seat.name: player.label for seat, player in asked.players.items()}
{'S': 'Saad', 'E': 'bot:random'}
>>> read_request({"seats": {"N": "human"}}).players[Seat.N]
Player(kind=<PlayerKind.HUMAN: 'human'>, name='N')
>>> read_request({"seats": {"S": "rm -rf /"}})
Traceback (most recent call last):
...
baloot.server.requests.CreateError: seat S: a player is 'human' or 'bot:NAME'

Entropy must reach the server after the commitment it is mixed with, never with the table:

>>> try:
...     read_request({"seats": {"S": "human"}, "entropy": {"S": "9f"}})
... except CreateError as error:
...     print(error)
"entropy" is refused: each seat sends its own once it has seen the commitment
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from baloot.bots.base import check_bot_name
from baloot.bots.names import UnknownBotError
from baloot.core.errors import RecordError
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.records.record import read_rules
from baloot.table.players import BOT_PREFIX, Player, PlayerKind

#: The turn timers a table may have, in seconds (None: no timer).
TIMERS: Final = (None, 10, 15, 30, 60)
#: The longest display name, in characters.
MAX_NAME: Final = 40
#: The longest player (``bot:NAME[:OPTIONS]``), in characters.
MAX_PLAYER: Final = 100


class CreateError(ValueError):
    """A table request that cannot be honoured (HTTP 400, or 503 when ``full``)."""

    def __init__(self, message: str, *, full: bool = False) -> None:
        super().__init__(message)
        self.full = full


@dataclass(frozen=True, slots=True)
class TableRequest:
    """A table request, checked: the players of the seats it names (a human without a name
    is called by the seat's letter; a seat left out is for :meth:`Room.create
    <baloot.server.room.Room.create>` to fill), the rules, the turn timer in seconds (None:
    none) and whether the table is public. It holds no entropy: a seat's entropy for the first
    deal comes after that deal's commitment is published (``docs/table-protocol.md``)."""

    players: dict[Seat, Player]
    rules: Rules
    timer: int | None
    public: bool


def read_request(request: Mapping[str, Any]) -> TableRequest:
    """The checked parts of a table request; a :class:`CreateError` for the first bad one."""
    if not isinstance(request, Mapping):
        raise CreateError("the request must be a JSON object")
    if "entropy" in request:
        raise CreateError(
            '"entropy" is refused: each seat sends its own once it has seen the commitment'
        )
    seats_in = request.get("seats", {})
    names_in = request.get("names", {})
    if not isinstance(seats_in, Mapping) or not isinstance(names_in, Mapping):
        raise CreateError('"seats" and "names" must be objects')
    asked: dict[Seat, Player | None] = {}  # None: a human, named once the names are read
    for seat, kind in seats_in.items():
        if seat not in Seat.__members__:
            raise CreateError(f"unknown seat {str(seat)[:8]!r} (seats are N, E, S, W)")
        if kind == PlayerKind.HUMAN.value:
            asked[Seat[seat]] = None
            continue
        if not isinstance(kind, str) or not kind.startswith(BOT_PREFIX):
            raise CreateError(f"seat {seat}: a player is 'human' or 'bot:NAME'")
        if len(kind) > MAX_PLAYER or not kind.isprintable():
            raise CreateError(f"seat {seat}: a bot name is printable, {MAX_PLAYER} chars at most")
        bot = Player.parse(kind)
        try:
            check_bot_name(bot.name, programs=False, bounded=True)
        except UnknownBotError as error:
            raise CreateError(f"seat {seat}: {error}") from None
        asked[Seat[seat]] = bot
    names: dict[Seat, str] = {}
    for seat, name in names_in.items():
        if seat not in Seat.__members__:
            raise CreateError(f"unknown seat {str(seat)[:8]!r} in names")
        if not isinstance(name, str):
            raise CreateError(f"the name of {seat} must be text")
        name = " ".join(name.split())
        if len(name) > MAX_NAME or not name.isprintable() or name.startswith(BOT_PREFIX):
            raise CreateError(f"the name of {seat} must be printable, at most {MAX_NAME} chars")
        if name:
            names[Seat[seat]] = name
    players = {
        seat: Player.human(names.get(seat, seat.name)) if player is None else player
        for seat, player in asked.items()
    }
    try:
        rules = read_rules(request.get("rules", "classic"))[0]
    except RecordError as error:
        raise CreateError(str(error)) from None
    timer = request.get("timer")
    if timer not in TIMERS or isinstance(timer, bool):
        raise CreateError("timer is null, 10, 15, 30 or 60 (seconds)")
    public = request.get("public", False)
    if not isinstance(public, bool):
        raise CreateError("public is true or false")
    return TableRequest(players, rules, timer, public)

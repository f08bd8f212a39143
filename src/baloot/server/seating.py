"""Who sits at a web table: its players and their bots, the seats' tokens, the open
connections, and who plays for whom now.

A table's seating is the room's other half (:mod:`~baloot.server.room` speaks the protocol):
each human seat has a secret token, made here and given once to whoever creates the table,
of which only a digest is kept; a token opens a :class:`Connection` for its seat, no token a
spectator's. Every seat has a bot: a bot seat's player, and for a human seat the stand-in
that plays when the human claims the rest or runs out of time. :class:`Seating` says who
plays each seat now (a human, or the bot standing in for them) and whether they are there.

>>> table = seat_table({Seat.S: Player.human("Saad")}, seed=7)
>>> seating = Seating(table)
>>> south = seating.join(seating.seat_of(seating.tokens[Seat.S]))
>>> seating.connected(Seat.S), seating.label(Seat.N)
(True, 'bot:heuristic')
>>> seating.seat_of("a guess")
Traceback (most recent call last):
...
baloot.server.seating.RoomError: unknown seat token
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import count
from typing import Final

from baloot.bots.base import make_bot
from baloot.bots.guarded import GuardedBot
from baloot.bots.levels import ROLES
from baloot.core.errors import BalootError
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.table.fair_deals import FairDeals
from baloot.table.players import Bot, Player
from baloot.table.table import Table

#: Bits of a new table's secret seed. Every deck of the match comes from it, and a player
#: sees the cards of each finished hand: with few bits they could try every seed against
#: those cards and learn the decks still to come. 63 bits puts that out of reach and keeps
#: the seed a 64-bit integer, as the record's ``x_seed`` (TOML) needs.
SEED_BITS: Final = 63
#: The close code for an unknown seat token.
CLOSE_UNKNOWN_TOKEN: Final = 4403


class RoomError(BalootError):
    """A connection refused: ``close_code`` is the WebSocket close code to send."""

    def __init__(self, message: str, close_code: int) -> None:
        super().__init__(message)
        self.close_code = close_code


@dataclass(eq=False)
class Connection:
    """One client connection: a seat's (``seat``) or a spectator's (None).

    Several connections may hold one seat (one token used twice): each gets every message.
    Compared by identity.
    """

    seat: Seat | None
    number: int
    open: bool = True


def token_digest(token: str) -> str:
    """The SHA-256 digest of a seat token: what a room and its storage keep, never the token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def seat_table(
    players: Mapping[Seat, Player],
    rules: Rules | None = None,
    seed: int | None = None,
    fair: FairDeals | None = None,
    entropy: Mapping[Seat, bytes] | None = None,
    secret_bytes: Callable[[int], bytes] = secrets.token_bytes,
) -> Table:
    """A new table for ``players``, its first hand dealt from ``seed`` (else a secret one of
    :data:`SEED_BITS` bits from ``secret_bytes``: the system's, or a test's seeded source), or,
    with ``fair``, every hand derived from its fair deals (the
    first with the seats' ``entropy``; the seed then draws the first dealer and the bots').
    A seat ``players`` leaves out is the bot of
    :attr:`Roles.unnamed_seat <baloot.bots.levels.Roles.unnamed_seat>`; each bot seat gets
    its bot, each human seat the bot that stands in for it (:attr:`Roles.stand_in
    <baloot.bots.levels.Roles.stand_in>`), every bot with its own seeded generator. An
    unknown bot is an :class:`~baloot.bots.UnknownBotError`."""
    if seed is None:
        seed = int.from_bytes(secret_bytes(8)) >> (64 - SEED_BITS)
    unnamed = Player.bot(ROLES.unnamed_seat)
    seated = {seat: players.get(seat, unnamed) for seat in Seat}
    bots: dict[Seat, Bot] = {}
    for seat, player in seated.items():
        rng = random.Random(seed * 8 + int(seat) + 1)
        bots[seat] = make_bot(ROLES.stand_in if player.is_human else player.name, rng)
    return Table.new(seated, bots, rules, seed, fair=fair, entropy=entropy)


class Seating:
    """The seats of ``table``: their tokens, connections and stand-ins.

    ``tokens`` holds the secret token of each human seat, made here unless the table is
    brought back with its ``token_digests`` (then it is empty: only the creator ever had them).
    """

    def __init__(self, table: Table, token_digests: Mapping[Seat, str] | None = None) -> None:
        self.table = table
        self.tokens: dict[Seat, str] = {}
        if token_digests is None:
            self.tokens = {seat: secrets.token_urlsafe(24) for seat in table.humans}
            token_digests = {seat: token_digest(token) for seat, token in self.tokens.items()}
        self.token_digests = dict(token_digests)
        self._seat_of = {digest: seat for seat, digest in self.token_digests.items()}
        self._connections: list[Connection] = []
        self._numbers = count(1)
        #: Human seats whose stand-in plays for them (they are away, or ran out of time).
        self._stood_in: set[Seat] = set()
        #: Bot seats whose operator's program failed, its stand-in playing for it.
        self._failing: set[Seat] = set()

    # ------------------------------------------------------------------ connections

    def seat_of(self, token: str | None) -> Seat | None:
        """The seat of ``token`` (None: a spectator's connection); an unknown token raises
        :class:`RoomError` (close code 4403)."""
        if token is None:
            return None
        seat = self._seat_of.get(token_digest(token))
        if seat is None:
            raise RoomError("unknown seat token", CLOSE_UNKNOWN_TOKEN)
        return seat

    def join(self, seat: Seat | None) -> Connection:
        """A new open connection for ``seat`` (None: a spectator)."""
        connection = Connection(seat, next(self._numbers))
        self._connections.append(connection)
        return connection

    def leave(self, connection: Connection) -> None:
        """``connection`` (an open one) is closed."""
        connection.open = False
        self._connections.remove(connection)

    @property
    def connections(self) -> tuple[Connection, ...]:
        """The open connections."""
        return tuple(self._connections)

    def connected(self, seat: Seat) -> bool:
        """True when ``seat`` has an open connection (a bot's seat has unless its program
        is failing)."""
        if not self.table.players[seat].is_human:
            return seat not in self._failing
        return any(c.seat == seat for c in self._connections)

    def humans_away(self) -> bool:
        """True when the table has human seats and none of them has an open connection."""
        humans = self.table.humans
        return bool(humans) and not any(self.connected(seat) for seat in humans)

    # ------------------------------------------------------------------ who plays

    def label(self, seat: Seat) -> str:
        """Who plays the seat now: its player, or the bot standing in for an absent human."""
        if seat in self._stood_in:
            return Player.bot(self.table.bots[seat].name).label
        return self.table.players[seat].label

    def stand_in(self, seat: Seat) -> bool:
        """The stand-in plays for the human of ``seat`` from now on; False if it did already."""
        if seat in self._stood_in:
            return False
        self._stood_in.add(seat)
        return True

    def stood_in(self, seat: Seat) -> bool:
        """True when the stand-in plays for the human of ``seat`` until they are back."""
        return seat in self._stood_in

    def back(self, seat: Seat) -> None:
        """The human of ``seat`` plays again (the stand-in, if any, stands down)."""
        self._stood_in.discard(seat)

    def not_answering(self, seat: Seat) -> None:
        """The bot of ``seat`` does not answer (its decision did not come back): until
        :meth:`answering`, the seat counts as not connected."""
        self._failing.add(seat)

    def answering(self, seat: Seat) -> None:
        """The bot of ``seat`` answers again."""
        self._failing.discard(seat)

    def programs_changed(self) -> list[Seat]:
        """The bot seats whose operator's program has just failed (its stand-in plays, the
        seat is not connected) or decided well again (connected)."""
        changed = []
        for seat, bot in self.table.bots.items():
            failing = isinstance(bot, GuardedBot) and bot.failing
            if failing != (seat in self._failing):
                self._failing ^= {seat}
                changed.append(seat)
        return changed

"""Stored matches for the collusion screen's tests: one pair of partners cheats, reading the
true deal to lead a double-dummy best card; everyone else plays the heuristic bot. And a run
kept as ``baloot screen --keep`` keeps one, made of blind leads written out (no solver), for
the tests of the operators' page."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from rating_helpers import add_player, add_table

from baloot.analysis.blind import Blind, Budget
from baloot.bots.heuristic import HeuristicBot
from baloot.core.actions import Action
from baloot.core.hand import Hand
from baloot.core.match import Match
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.core.vocabulary import Phase
from baloot.records.record import Record
from baloot.records.writer import dumps
from baloot.server.players.collusion import Screen, Thresholds, score
from baloot.server.players.screen_command import kept_run
from baloot.server.storage import Store
from baloot.solver import Mode, values
from baloot.table.players import bot_action

#: The leads of the first two tricks are screened in these tests (the command's --tricks).
TRICKS = 2
#: Each table: its id, its seats' accounts, which seats cheat, and its seed.
TABLES = (
    ("t1", {"N": "c1", "S": "c2", "E": "h1", "W": "h2"}, (Seat.N, Seat.S), 1),
    ("t2", {"N": "h3", "S": "h4", "E": "h5", "W": "h6"}, (), 2),
)


def cheat(hand: Hand) -> Action:
    """The card of the best double-dummy value on the true deal: what no real player sees."""
    cards = {a: v for a, v in values(hand, Mode.POINTS).items() if a.card is not None}
    best = max(cards.values())
    return hand.announced(next(a for a, v in cards.items() if v == best))


@functools.cache
def played(seed: int, cheaters: tuple[Seat, ...]) -> str:
    """A classic match's record: ``cheaters`` read the deal for their leads of the screened
    tricks, the heuristic bot plays every other decision."""
    match = Match(Rules.preset("classic"), Seat.E, random.Random(seed))
    bots = {seat: HeuristicBot(random.Random(seed + int(seat))) for seat in Seat}
    while not match.is_over:
        hand = match.hand
        seat = hand.to_act
        assert seat is not None
        leads = (
            seat in cheaters
            and hand.phase is Phase.PLAYING
            and not hand.current_trick
            and hand.trick_number < TRICKS
            and any(action.card is not None for action in hand.legal_actions())
        )
        match.apply(cheat(hand) if leads else bot_action(hand, bots[seat]))
    return dumps(Record.of(match, date="2026-01-01"))


def stored(store: Store) -> None:
    """The tables of :data:`TABLES`, their accounts bound to their seats and their matches
    over."""
    for player in sorted({p for _, seats, _, _ in TABLES for p in seats.values()}):
        add_player(store, player, player.upper())
    for number, (table_id, seats, cheaters, seed) in enumerate(TABLES):
        add_table(store, table_id, seats)
        store.finish(table_id, played(seed, cheaters), {"winner": "NS"}, 2000.0 + number)


def leads(count: int, hits: int, seat: Seat) -> list[Blind]:
    """``count`` blind leads of ``seat``, one a hand from hand 1, the first ``hits`` found."""
    return [Blind(hand, 1, seat, 1, hand <= hits) for hand in range(1, count + 1)]


def keep_a_run(store: Store, ids: Sequence[str], when: float = 2e9) -> str:
    """Keep a run of the screen over two made-up matches of the six accounts ``ids``: the
    first two read the deal (40 of 40 found: listed from 30 hands), the others play fair;
    the run's id."""
    a, b, c, d, e, f = ids
    matches = [
        ("m1", {"N": a, "S": b, "E": c, "W": d}, leads(40, 40, Seat.N) + leads(40, 20, Seat.E)),
        ("m2", {"N": e, "S": f, "E": c, "W": d}, leads(30, 15, Seat.N) + leads(30, 16, Seat.E)),
    ]
    thresholds = Thresholds(min_hands=30)
    pairs, listed = score(matches, thresholds)
    found = Screen(pairs, listed, 2, [], thresholds, Budget(), hands=70)
    return store.keep_screen(when, when + 60.0, *kept_run(found))

"""The ``choices`` of the table protocol's views (``docs/seat-view.md``): the legal actions in
the order of ``legal``, each in its parts, so that a page never splits notation.

Four human seats answer from the choices of the last view each received, over whole hands,
so that bids, doubling, declarations and plays with Ekka all come up (the engine offers no
play with Baloot: the table announces it); every view any connection receives is checked
against the notation of its ``legal``.
"""

from __future__ import annotations

import random
from typing import Any

from test_room import Client, Harness

from baloot import Seat
from baloot.server import Room
from baloot.table import Player, WaitKind

#: Enough hands for every kind of choice to come up.
HANDS = 2


def expected_choice(action: str) -> dict[str, Any]:
    """A legal action's parts, read from its record notation: ``SEAT VERB [CARD [WORDS]]``."""
    _seat, verb, *rest = action.split()
    played = verb == "play"
    return {
        "action": action,
        "verb": verb,
        "card": rest[0] if played else None,
        "words": rest[1:] if played else [],
    }


def pick(rng: random.Random, choices: list[dict[str, Any]]) -> dict[str, Any]:
    """A choice that keeps the hand in Hokum, where Ekka is: a word when one is offered, else
    any play or declaration, else a Hokum or its trump, else a pass."""
    said = [choice for choice in choices if choice["words"]]
    plays = [choice for choice in choices if choice["verb"] in ("play", "declare")]
    calls = [choice for choice in choices if choice["verb"] in ("hokum", "trump")]
    passes = [choice for choice in choices if choice["verb"] == "pass"]
    if said or plays:
        return rng.choice(said or plays)
    return (calls or passes)[0]


def check_mirrors_legal(view: dict[str, Any]) -> None:
    assert view["choices"] == [expected_choice(action) for action in view["legal"]], view


def test_every_table_view_has_choices_that_mirror_legal_in_order_and_parts() -> None:
    seats = {seat: Player.human(seat.name) for seat in Seat}
    harness = Harness(Room.create(seats, seed=5))
    clients = {seat: harness.connect(harness.room.tokens[seat]) for seat in Seat}
    spectator = harness.connect(None)
    rng = random.Random(5)
    table = harness.room.table
    hands = 0
    while hands < HANDS:
        waiting = table.waiting()
        if waiting.kind is WaitKind.OVER:
            break
        if waiting.kind is WaitKind.NEXT:
            hands += 1
            for seat, client in clients.items():
                harness.send(client, {"type": "next", "id": f"n{hands}{seat.name}"})
            continue
        to_act = table.hand.to_act
        assert to_act is not None
        client = clients[to_act]
        choice = pick(rng, client.view["choices"])
        out = harness.act(client, choice["action"])
        assert out[0]["type"] == "ack", out[0]
    seen: set[tuple[str, tuple[str, ...]]] = set()
    every: list[Client] = [*clients.values(), spectator]
    for client in every:
        for message in client.messages:
            if "view" in message:
                check_mirrors_legal(message["view"])
                seen |= {(c["verb"], tuple(c["words"])) for c in message["view"]["choices"]}
    assert {
        ("pass", ()),
        ("hokum", ()),
        ("sun", ()),
        ("double", ()),
        ("declare", ()),
        ("play", ()),
        ("play", ("ekka",)),
    } <= seen, sorted(seen)
    assert all(m["view"]["choices"] == [] for m in spectator.messages if "view" in m)
    assert harness.leaks == []

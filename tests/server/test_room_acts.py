"""A seat's ``act`` at a room: its action read once, as the message is, checked once by the
engine, and refused in the same order and words whether the message could read it or not."""

from __future__ import annotations

from typing import Any

import pytest
from test_room import bot_to_act, south_to_act, types

from baloot import Action, Hand


def count_reads(monkeypatch: pytest.MonkeyPatch, text: str) -> list[str]:
    """Who reads ``text`` as an action: the message (``Action.parse``) or the engine."""
    reads: list[str] = []
    parse, parse_action = Action.parse.__func__, Hand.parse_action  # type: ignore[attr-defined]

    def message_reads(cls: type[Action], read: str) -> Action:
        if read == text:
            reads.append("message")
        return parse(cls, read)  # type: ignore[no-any-return]

    def engine_reads(hand: Hand, read: str) -> Action:
        if read == text:
            reads.append("engine")
        return parse_action(hand, read)

    monkeypatch.setattr(Action, "parse", classmethod(message_reads))
    monkeypatch.setattr(Hand, "parse_action", engine_reads)
    return reads


def test_an_acts_action_is_read_once_as_the_message_is(monkeypatch: pytest.MonkeyPatch) -> None:
    harness, south = south_to_act()
    text = south.view["legal"][0]
    reads = count_reads(monkeypatch, text)
    assert types(harness.act(south, text))[0] == "ack"
    assert reads == ["message"]


def refusal(out: list[dict[str, Any]], text: str) -> tuple[Any, ...]:
    """A reject, its quote of the action's text put aside."""
    ((reject),) = out
    return (reject["type"], reject["code"], reject["reason"].replace(text, "…"), reject["params"])


@pytest.mark.parametrize(
    ("written", "otherwise"),
    [
        ("S pass", "S  pass"),  # out of turn
        ("S pass", "S pass # mine"),
        ("{bot} pass", "{bot}   pass"),  # in the name of the seat to act
        ("S play As", "S  play As"),  # out of turn, then not a call of this phase
        ("S fly", "S  fly"),  # no action: the turn is refused before the notation
    ],
)
def test_an_act_is_refused_alike_whether_the_message_read_it_or_the_engine(
    written: str, otherwise: str
) -> None:
    harness, south, bot = bot_to_act()
    written, otherwise = written.format(bot=bot.name), otherwise.format(bot=bot.name)
    actions = list(harness.room.table.hand.actions)
    read_first = harness.send(south, {"type": "act", "id": "w", "action": written})
    read_later = harness.send(south, {"type": "act", "id": "o", "action": otherwise})
    assert refusal(read_first, written)[:2] == refusal(read_later, otherwise)[:2]
    assert refusal(read_first, written) == refusal(read_later, otherwise)
    assert list(harness.room.table.hand.actions) == actions


def test_a_spectator_or_a_repeated_id_is_answered_before_the_action_is_looked_at() -> None:
    harness, south = south_to_act()
    spectator = harness.connect(None)
    out = harness.send(spectator, {"type": "act", "id": "x", "action": "S fly"})
    assert [(m["type"], m["code"]) for m in out] == [("reject", "spectator")]
    act = {"type": "act", "id": "once", "action": south.view["legal"][0]}
    assert types(harness.send(south, act))[0] == "ack"
    again = {"type": "act", "id": "once", "action": "S fly"}
    assert harness.send(south, again) == [{"type": "ack", "id": "once"}]

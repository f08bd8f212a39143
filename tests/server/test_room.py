"""The table protocol ``baloot-table/1`` (docs/table-protocol.md) as a :class:`Room` speaks it, in
process: numbering, exactly-once, rejects, resync, undo, hints, Sawa, and no leak.

A :class:`Client` stands for one connection: it keeps what the room addressed to it. Every
message a client receives at once is scanned for card tokens its seat may not know at that
moment (the checker of ``test_seat_view_secrecy``: own cards, the exposed card, the cards
played and the projects shown; everything once the hand is played out).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from helpers import build_deck
from test_seat_view_secrecy import cards_in_text, may_know

from baloot import Action, IllegalActionError, Match, Rules, Seat, SeatView, Verb
from baloot.bots.best_hints import BestHints
from baloot.bots.guarded import BotFailure, FailureKind, GuardedBot
from baloot.bots.heuristic import HeuristicBot
from baloot.bots.levels import ROLES
from baloot.core.rules import FirstLead
from baloot.core.vocabulary import Phase
from baloot.records.record import Record, loads
from baloot.records.writer import dumps
from baloot.server import Connection, Room, RoomError
from baloot.server.journal import JournalError
from baloot.server.messages import MAX_MESSAGE
from baloot.server.outgoing import table_view
from baloot.server.presence import PRESENCE_EVERY
from baloot.server.publishing import Outgoing
from baloot.server.requests import read_request
from baloot.server.seating import token_digest
from baloot.table import Player, Table, WaitKind

NUMBERED = {"event", "hand-over", "deal", "seat"}


@dataclass
class Client:
    """What one connection received, in order."""

    connection: Connection
    messages: list[dict[str, Any]] = field(default_factory=list)

    @property
    def numbered(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if "v" in m and m["type"] != "snapshot"]

    @property
    def view(self) -> dict[str, Any]:
        """The last view it holds."""
        return next(m["view"] for m in reversed(self.messages) if "view" in m)

    @property
    def v(self) -> int:
        return max(int(m["v"]) for m in self.messages if "v" in m)


class Harness:
    """A room and its clients; every message delivered is checked for leaks."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.clients: dict[int, Client] = {}
        self.leaks: list[str] = []
        self.ids = 0

    def connect(self, token: str | None) -> Client:
        connection, out = self.room.connect(token)
        client = Client(connection)
        self.clients[connection.number] = client
        self.deliver(out)
        return client

    def deliver(self, out: Sequence[Outgoing], check: bool = True) -> list[dict[str, Any]]:
        """Hand each message to its client; the messages as a list."""
        for connection, message in out:
            if check:
                self.check_no_leak(connection, message)
            client = self.clients.get(connection.number)
            if client is not None:
                client.messages.append(message)
        return [message for _, message in out]

    def check_no_leak(self, connection: Connection, message: dict[str, Any]) -> None:
        table = self.room.table
        known = may_know(table.hand, connection.seat) if table.match.hands else ()  # not dealt
        found = cards_in_text(json.dumps(message, ensure_ascii=False))
        hidden = sorted(card.text for card in found - frozenset(known))
        if hidden:
            who = "spectator" if connection.seat is None else connection.seat.name
            self.leaks.append(f"{who} got {hidden} in a {message['type']}")
        for view in _views(message):
            seat = None if connection.seat is None else connection.seat.name
            if view["seat"] != seat:
                self.leaks.append(f"{seat} got the view of {view['seat']}")

    def send(self, client: Client, message: dict[str, Any] | str) -> list[dict[str, Any]]:
        text = message if isinstance(message, str) else json.dumps(message)
        return self.deliver(self.room.receive(client.connection, text))

    def act(self, client: Client, action: str | Action) -> list[dict[str, Any]]:
        self.ids += 1
        return self.send(client, {"type": "act", "id": f"c{self.ids}", "action": str(action)})

    def bots(self) -> None:
        while self.room.waiting_for_bot():
            self.deliver(self.room.step_bot())

    def play_first_legal(self, client: Client) -> None:
        """The client answers with the first legal action of the last view it holds."""
        legal = client.view["legal"]
        assert legal, client.view
        out = self.act(client, legal[0])
        assert out[0]["type"] == "ack", out[0]


def _views(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [message["view"]] if message.get("view") is not None else []


def one_human_room(seed: int = 3, **kwargs: Any) -> Room:
    return Room.create({Seat.S: Player.human("Saad")}, seed=seed, **kwargs)


def south_to_act(seed: int = 3, **kwargs: Any) -> tuple[Harness, Client]:
    """A room whose bots have acted until South, its human, is to act."""
    harness = Harness(one_human_room(seed, **kwargs))
    south = harness.connect(harness.room.tokens[Seat.S])
    harness.bots()
    assert harness.room.table.waiting().kind is WaitKind.HUMAN
    return harness, south


def types(messages: Sequence[dict[str, Any]]) -> list[str]:
    return [m["type"] for m in messages]


# --------------------------------------------------------------------------- a whole match


@dataclass
class Played:
    harness: Harness
    south: Client
    spectator: Client
    first_v: int


@pytest.fixture(scope="module")
def played() -> Played:
    """A whole match: South (human) answers with the first legal action of the last view it
    received and sends ``next`` after each hand; three heuristic bots play by ``step_bot``."""
    harness = Harness(one_human_room(seed=11))
    spectator = harness.connect(None)
    south = harness.connect(harness.room.tokens[Seat.S])
    first_v = south.v
    table = harness.room.table
    for _ in range(5000):
        harness.bots()
        waiting = table.waiting()
        if waiting.kind is WaitKind.OVER:
            break
        if waiting.kind is WaitKind.NEXT:
            harness.ids += 1
            out = harness.send(south, {"type": "next", "id": f"n{harness.ids}"})
            assert types(out) == ["ack", "deal", "deal"]
        else:
            harness.play_first_legal(south)
    assert table.match.is_over
    return Played(harness, south, spectator, first_v)


def test_a_whole_match_is_played_to_its_end_through_the_room(played: Played) -> None:
    last = played.south.messages[-1]
    assert last["type"] == "hand-over"
    assert last["match"]["winner"] in ("NS", "EW")
    assert last["view"]["phase"] == "over" and last["view"]["result"] is not None
    assert len(last["match"]["hands"]) == last["match"]["hand"] >= 2


def test_every_numbered_message_takes_the_next_v_the_same_for_every_connection(
    played: Played,
) -> None:
    south = [m["v"] for m in played.south.numbered]
    spectator = [m["v"] for m in played.spectator.numbered]
    assert south == list(range(played.first_v + 1, played.harness.room.v + 1))
    assert spectator[spectator.index(south[0]) :] == south
    assert spectator == list(range(spectator[0], played.harness.room.v + 1))
    by_v = {m["v"]: m["type"] for m in played.spectator.numbered}
    assert [by_v[v] for v in south] == [m["type"] for m in played.south.numbered]


def test_no_message_to_a_seat_or_a_spectator_holds_a_card_it_may_not_know(
    played: Played,
) -> None:
    assert played.harness.leaks == []


def test_the_leak_check_sees_another_seats_card_in_any_message() -> None:
    harness, south = south_to_act()
    hidden = next(iter(harness.room.table.hand.hand(Seat.N)))
    harness.check_no_leak(south.connection, {"type": "hint", "why": [f"x:{hidden.text}"]})
    assert harness.leaks == [f"S got ['{hidden.text}'] in a hint"]


def test_each_connection_receives_only_its_own_seats_views(played: Played) -> None:
    assert {m["view"]["seat"] for m in played.south.messages if "view" in m} == {"S"}
    assert {m["view"]["seat"] for m in played.spectator.messages if "view" in m} == {None}


def test_an_event_carries_the_action_as_that_connection_heard_it(played: Played) -> None:
    events = [m for m in played.spectator.messages if m["type"] == "event"]
    declarations = [m["action"] for m in events if " declare " in m["action"]]
    assert all(":" not in action for action in declarations)
    assert all(message["view"]["actions"][-1] == message["action"] for message in events)


def test_every_hand_over_carries_the_sheet_and_the_match(played: Played) -> None:
    overs = [m for m in played.south.messages if m["type"] == "hand-over"]
    assert overs and all(m["sheet"] and "key" in m["sheet"][0] for m in overs)
    assert [len(m["match"]["hands"]) for m in overs] == list(range(1, len(overs) + 1))
    deals = [m for m in played.south.messages if m["type"] == "deal"]
    for over, deal in zip(overs, deals, strict=False):
        assert deal["view"]["score_before"] == over["match"]["totals"]


def test_after_the_match_an_act_or_next_is_rejected_match_over(played: Played) -> None:
    harness, south = played.harness, played.south
    out = harness.send(south, {"type": "act", "id": "late", "action": "S pass"})
    assert [(m["type"], m["code"]) for m in out] == [("reject", "match_over")]
    out = harness.send(south, {"type": "next", "id": "late-next"})
    assert [(m["type"], m["code"]) for m in out] == [("reject", "match_over")]


# --------------------------------------------------------------------------- connecting


def test_an_unknown_token_is_refused_with_close_code_4403() -> None:
    room = one_human_room()
    with pytest.raises(RoomError) as refused:
        room.connect("not-a-token")
    assert refused.value.close_code == 4403
    assert room.seating.connections == ()


def test_each_human_seat_has_a_secret_token_and_bots_none() -> None:
    room = Room.create({Seat.S: Player.human("S"), Seat.N: Player.human("N")}, seed=1)
    assert set(room.tokens) == {Seat.S, Seat.N}
    assert all(len(token) >= 32 for token in room.tokens.values())
    assert room.tokens[Seat.S] != room.tokens[Seat.N]


def test_connecting_sends_a_snapshot_of_the_seats_view_the_match_and_the_seats() -> None:
    harness = Harness(one_human_room())
    spectator = harness.connect(None)
    (snapshot,) = spectator.messages
    assert snapshot["type"] == "snapshot" and snapshot["v"] == 0
    assert snapshot["view"]["seat"] is None and snapshot["view"]["hand"] == []
    assert snapshot["match"]["hand"] == 1 and snapshot["match"]["target"] == 152
    assert snapshot["seats"]["S"] == {"player": "Saad", "connected": False}
    assert snapshot["seats"]["N"] == {"player": "bot:heuristic", "connected": True}
    south = harness.connect(harness.room.tokens[Seat.S])
    assert types(south.messages) == ["snapshot"]
    assert south.messages[0]["view"]["seat"] == "S" and len(south.messages[0]["view"]["hand"]) == 5
    assert south.messages[0]["seats"]["S"]["connected"] is True
    assert spectator.messages[-1] == {
        "type": "seat",
        "v": 1,
        "seat": "S",
        "player": "Saad",
        "connected": True,
        "deadline": None,
    }


def test_leaving_and_coming_back_is_told_to_the_others_with_seat_messages() -> None:
    now = [1_000.0]
    harness = Harness(one_human_room(clock=lambda: now[0]))
    spectator = harness.connect(None)
    south = harness.connect(harness.room.tokens[Seat.S])
    again = harness.connect(harness.room.tokens[Seat.S])  # a second tab: no news
    assert spectator.messages[-1]["v"] == 1
    assert harness.deliver(harness.room.disconnect(again.connection)) == []
    now[0] += PRESENCE_EVERY  # the seat's last news is old enough: told at once
    out = harness.deliver(harness.room.disconnect(south.connection))
    assert [(m["type"], m["seat"], m["connected"], m["v"]) for m in out] == [
        ("seat", "S", False, 2)
    ]
    assert harness.room.disconnect(south.connection) == []
    now[0] += PRESENCE_EVERY
    harness.connect(harness.room.tokens[Seat.S])
    assert (spectator.messages[-1]["connected"], spectator.messages[-1]["v"]) == (True, 3)


def test_several_connections_with_one_token_each_get_every_message() -> None:
    harness, south = south_to_act()
    other = harness.connect(harness.room.tokens[Seat.S])
    harness.play_first_legal(south)
    assert south.messages[-1] == other.messages[-1]
    assert south.messages[-1]["type"] == "event"


def test_reconnecting_with_the_token_gives_what_a_client_that_never_dropped_holds() -> None:
    harness, south = south_to_act()
    watcher = harness.connect(harness.room.tokens[Seat.S])
    harness.deliver(harness.room.disconnect(south.connection))
    for _ in range(3):
        harness.play_first_legal(watcher)
        harness.bots()
    back = harness.connect(harness.room.tokens[Seat.S])
    assert back.messages[0]["type"] == "snapshot"
    assert back.view == watcher.view and back.v == watcher.v


# --------------------------------------------------------------------------- acting


def test_the_acting_connection_gets_its_ack_before_the_event_of_its_action() -> None:
    harness, south = south_to_act()
    spectator = harness.connect(None)
    legal = south.view["legal"]
    out = harness.room.receive(
        south.connection, json.dumps({"type": "act", "id": "c1", "action": legal[0]})
    )
    assert [(c.number, m["type"]) for c, m in out] == [
        (south.connection.number, "ack"),
        (south.connection.number, "event"),
        (spectator.connection.number, "event"),
    ]
    assert out[0][1] == {"type": "ack", "id": "c1"}
    assert out[1][1]["action"] == legal[0] and out[1][1]["view"]["actions"][-1] == legal[0]


def test_a_repeated_act_id_is_answered_ack_alone_and_nothing_is_applied_twice() -> None:
    harness, south = south_to_act()
    other = harness.connect(harness.room.tokens[Seat.S])
    act = {"type": "act", "id": "once", "action": south.view["legal"][0]}
    assert types(harness.send(south, act)) == ["ack", "event", "event"]
    actions, v = list(harness.room.table.hand.actions), harness.room.v
    assert harness.send(south, act) == [{"type": "ack", "id": "once"}]
    assert harness.send(other, act) == [{"type": "ack", "id": "once"}]  # across connections
    assert list(harness.room.table.hand.actions) == actions and harness.room.v == v


def test_a_rejected_id_is_not_remembered() -> None:
    harness, south = south_to_act()
    bad = harness.send(south, {"type": "act", "id": "r1", "action": "S play Zz"})
    assert bad[0]["code"] == "bad_notation"
    good = harness.send(south, {"type": "act", "id": "r1", "action": south.view["legal"][0]})
    assert types(good) == ["ack", "event"]


def test_a_spectator_may_not_act_or_decide_anything() -> None:
    harness, _ = south_to_act()
    spectator = harness.connect(None)
    actions = list(harness.room.table.hand.actions)
    for kind in ("act", "next", "undo", "hint", "claim"):
        out = harness.send(spectator, {"type": kind, "id": "x1", "action": "S pass"})
        assert [(m["type"], m["code"], m["id"]) for m in out] == [("reject", "spectator", "x1")]
    assert list(harness.room.table.hand.actions) == actions


REJECTS = [
    ("not json at all", "bad_json"),
    ("[1, 2]", "bad_message"),
    ('{"id": "c1"}', "bad_message"),
    ('{"type": "act", "action": "S pass"}', "bad_message"),
    ('{"type": "act", "id": "", "action": "S pass"}', "bad_message"),
    ('{"type": "act", "id": "' + "x" * 65 + '", "action": "S pass"}', "bad_message"),
    ('{"type": "act", "id": "c1"}', "bad_message"),
    ('{"type": "act", "id": "c1", "action": 7}', "bad_message"),
    ('{"type": "resync", "since": "12"}', "bad_message"),
    ('{"type": "next"}', "bad_message"),
    ('{"type": "dance", "id": "c1"}', "unknown_type"),
    ('{"type": "act", "id": "c1", "action": "S fly"}', "bad_notation"),
    ('{"type": "act", "id": "c1", "action": "N pass"}', "not_your_seat"),
    ('{"type": "act", "id": "c1", "action": "W no such verb"}', "not_your_seat"),
    ('{"type": "next", "id": "n1"}', "not_hand_over"),
    ('{"type": "claim", "id": "s1"}', "claim_not_proven"),
]


@pytest.mark.parametrize(("text", "code"), REJECTS)
def test_a_bad_or_refused_message_is_rejected_with_its_code_and_changes_nothing(
    text: str, code: str
) -> None:
    harness, south = south_to_act()
    actions, v = list(harness.room.table.hand.actions), harness.room.v
    out = harness.send(south, text)
    assert [(m["type"], m["code"]) for m in out] == [("reject", code)]
    assert isinstance(out[0]["reason"], str) and out[0]["reason"]
    assert list(harness.room.table.hand.actions) == actions and harness.room.v == v


def test_a_message_over_64_kib_is_rejected_too_large() -> None:
    harness, south = south_to_act()
    text = json.dumps({"type": "ping", "pad": "x" * MAX_MESSAGE})
    assert [(m["type"], m["code"]) for m in harness.send(south, text)] == [("reject", "too_large")]


def test_an_illegal_action_is_rejected_with_the_engines_reason_code_and_words() -> None:
    harness, south = south_to_act()
    table = harness.room.table
    while table.hand.phase.value != "playing" or table.waiting().seat is not Seat.S:
        harness.play_first_legal(south)
        harness.bots()
    view = SeatView.of(table.hand, Seat.S)
    not_held = next(c for c in table.hand.deck if c not in view.cards)
    out = harness.send(south, {"type": "act", "id": "bad", "action": f"S play {not_held.text}"})
    assert out == [
        {
            "type": "reject",
            "id": "bad",
            "code": "not_held",
            "reason": f"S does not hold {not_held.text}",
            "params": {"seat": "S", "card": not_held.text},
        }
    ]


def test_a_seat_to_play_is_told_why_each_card_it_may_not_play_is_refused() -> None:
    """The view of the seat to play carries the engine's own reason for each card it may
    not play; every other view carries none."""
    harness, south = south_to_act()
    table = harness.room.table
    for _ in range(300):
        view = south.view
        if view["refused"]:
            break
        if table.hand.is_over:
            harness.send(south, {"type": "next", "id": f"n{harness.ids}"})
        else:
            harness.play_first_legal(south)
        harness.bots()
    else:
        raise AssertionError("South never held a card it could not play")
    hand = table.hand
    legal_cards = {choice["card"] for choice in view["choices"]}
    assert set(view["refused"]) == set(view["hand"]) - legal_cards
    for card, reason in view["refused"].items():
        with pytest.raises(IllegalActionError) as refused:
            hand.check(f"S play {card}")
        assert reason == {"code": refused.value.code, "params": dict(refused.value.params)}
    for audience in (None, Seat.N, Seat.W, Seat.E):
        assert table_view(SeatView.of(hand, audience), hand)["refused"] == {}


def bot_to_act() -> tuple[Harness, Client, Seat]:
    """South has acted and a bot is to act."""
    harness, south = south_to_act()
    harness.play_first_legal(south)
    waiting = harness.room.table.waiting()
    assert waiting.kind is WaitKind.BOT and waiting.seat is not None
    return harness, south, waiting.seat


def test_acting_out_of_turn_is_rejected_not_your_turn() -> None:
    harness, south, _ = bot_to_act()
    out = harness.send(south, {"type": "act", "id": "early", "action": "S pass"})
    assert [(m["type"], m["code"]) for m in out] == [("reject", "not_your_turn")]


def test_acting_for_the_seat_to_act_is_rejected_not_your_seat() -> None:
    harness, south, bot = bot_to_act()
    actions = list(harness.room.table.hand.actions)
    out = harness.send(south, {"type": "act", "id": "theirs", "action": f"{bot.name} pass"})
    assert [(m["type"], m["code"], m["reason"]) for m in out] == [
        ("reject", "not_your_seat", f"S may not act for {bot.name}")
    ]
    assert list(harness.room.table.hand.actions) == actions


def test_ping_is_answered_pong_without_a_v() -> None:
    harness, south = south_to_act()
    (pong,) = harness.send(south, '{"type": "ping"}')
    assert pong["type"] == "pong" and "v" not in pong and isinstance(pong["now"], int)


def test_step_bot_does_nothing_while_a_human_is_to_act() -> None:
    harness, _ = south_to_act()
    v = harness.room.v
    assert not harness.room.waiting_for_bot()
    assert harness.room.step_bot() == [] and harness.room.v == v


# --------------------------------------------------------------------------- next and deal


def hand_over(harness: Harness, south: Client) -> None:
    table = harness.room.table
    while table.waiting().kind is not WaitKind.NEXT:
        harness.play_first_legal(south)
        harness.bots()


def test_next_deals_the_next_hand_once_the_human_is_ready() -> None:
    harness, south = south_to_act()
    hand_over(harness, south)
    assert south.messages[-1]["type"] == "hand-over"
    assert south.messages[-1]["match"]["awaiting_next"] == ["S"]
    out = harness.send(south, {"type": "next", "id": "n1"})
    assert types(out) == ["ack", "deal"]
    assert out[1]["match"]["hand"] == 2 and out[1]["match"]["awaiting_next"] == []


def test_the_callers_timer_deals_without_waiting_for_next() -> None:
    harness, south = south_to_act()
    assert harness.room.deal() == []  # not over yet
    hand_over(harness, south)
    assert types(harness.deliver(harness.room.deal())) == ["deal"]
    out = harness.send(south, {"type": "next", "id": "n1"})
    assert [(m["type"], m["code"]) for m in out] == [("reject", "not_hand_over")]


def test_a_table_of_bots_deals_on_by_itself() -> None:
    harness = Harness(Room.create({}, seed=2))
    assert harness.room.tokens == {}
    spectator = harness.connect(None)
    while harness.room.waiting_for_bot() and "deal" not in types(spectator.messages):
        harness.deliver(harness.room.step_bot())
    assert types(spectator.messages)[-2:] == ["hand-over", "deal"]
    assert harness.leaks == []


# --------------------------------------------------------------------------- resync


def test_resync_after_a_gap_gives_what_a_client_that_never_dropped_holds() -> None:
    harness, south = south_to_act()
    dropped = harness.connect(harness.room.tokens[Seat.S])
    since = dropped.v
    harness.clients.pop(dropped.connection.number)  # its messages are lost from now on
    for _ in range(4):
        harness.play_first_legal(south)
        harness.bots()
    harness.clients[dropped.connection.number] = dropped
    out = harness.send(dropped, {"type": "resync", "since": since})
    assert [m["v"] for m in out] == list(range(since + 1, harness.room.v + 1))
    assert out == [m for m in south.messages if m.get("v", 0) > since]
    assert dropped.view == south.view and dropped.v == south.v


def test_resync_beyond_the_kept_history_answers_a_snapshot_equal_to_the_live_view() -> None:
    harness, south = south_to_act(history=3)
    dropped = harness.connect(harness.room.tokens[Seat.S])
    since = dropped.v
    harness.clients.pop(dropped.connection.number)
    for _ in range(3):
        harness.play_first_legal(south)
        harness.bots()
    assert harness.room.v - since > 3
    harness.clients[dropped.connection.number] = dropped
    out = harness.send(dropped, {"type": "resync", "since": since})
    assert types(out) == ["snapshot"]
    assert dropped.view == south.view and out[0]["v"] == south.v


def test_resync_with_the_last_v_sends_nothing_and_with_a_future_v_a_snapshot() -> None:
    harness, south = south_to_act()
    assert harness.send(south, {"type": "resync", "since": harness.room.v}) == []
    out = harness.send(south, {"type": "resync", "since": harness.room.v + 5})
    assert types(out) == ["snapshot"] and out[0]["v"] == harness.room.v
    assert types(harness.send(south, {"type": "resync", "since": -1})) == ["snapshot"]


# --------------------------------------------------------------------------- undo and hint


def test_undo_answers_ack_then_sends_everyone_a_snapshot_with_a_new_v() -> None:
    harness, south = south_to_act()
    spectator = harness.connect(None)
    before = south.view
    harness.play_first_legal(south)
    harness.bots()
    v = harness.room.v
    out = harness.room.receive(south.connection, '{"type": "undo", "id": "u1"}')
    assert [(c.number, m["type"]) for c, m in out] == [
        (south.connection.number, "ack"),
        (south.connection.number, "snapshot"),
        (spectator.connection.number, "snapshot"),
    ]
    harness.deliver(out)
    assert [m["v"] for _, m in out[1:]] == [v + 1, v + 1]
    assert south.view == before
    hand = harness.room.table.hand
    assert spectator.view == table_view(SeatView.of(hand, None), hand)


def test_an_undone_actions_id_stays_remembered() -> None:
    harness, south = south_to_act()
    act = {"type": "act", "id": "kept", "action": south.view["legal"][0]}
    harness.send(south, act)
    harness.send(south, {"type": "undo", "id": "u1"})
    actions = list(harness.room.table.hand.actions)
    assert harness.send(south, act) == [{"type": "ack", "id": "kept"}]
    assert list(harness.room.table.hand.actions) == actions


def test_undo_with_nothing_to_undo_is_rejected_with_the_engines_code() -> None:
    harness, south = south_to_act()
    out = harness.send(south, {"type": "undo", "id": "u1"})
    assert [(m["type"], m["code"]) for m in out] == [("reject", "nothing_to_undo")]


def test_a_hint_names_a_legal_action_of_the_seat_to_act_and_why() -> None:
    harness, south = south_to_act()
    (hint,) = harness.send(south, {"type": "hint", "id": "h1"})
    assert hint["type"] == "hint" and hint["id"] == "h1" and "v" not in hint
    assert hint["action"] in south.view["legal"]
    assert hint["why"] and {"key", "params"} <= set(hint["why"][0])


def test_a_web_hint_is_the_best_bots_as_in_the_terminal_not_the_heuristic_bots() -> None:
    """Seed 21: South's first call, where the two bots differ (the heuristic bot bids Hokum)."""
    harness, south = south_to_act(21)
    view = harness.room.table.view(Seat.S)
    terminal = BestHints(random.Random(0)).explain(view, view.legal)
    heuristic = HeuristicBot(random.Random(0)).explain(view, view.legal)
    (hint,) = harness.send(south, {"type": "hint", "id": "h1"})
    assert {k: v for k, v in hint.items() if k not in ("type", "id")} == terminal.to_json()
    assert hint["action"] != str(heuristic.action)


def test_a_seat_nobody_named_and_a_humans_stand_in_are_the_heuristic_bot() -> None:
    """docs/table-protocol.md: a seat the request leaves out is ``bot:heuristic``."""
    assert (ROLES.unnamed_seat, ROLES.stand_in) == ("heuristic", "heuristic")
    room = Room.create({Seat.S: Player.human("S")}, seed=1)
    assert {seat: player.label for seat, player in room.table.players.items()} == {
        Seat.N: "bot:heuristic", Seat.W: "bot:heuristic", Seat.S: "S", Seat.E: "bot:heuristic"
    }  # fmt: skip
    assert all(isinstance(room.table.bots[seat], HeuristicBot) for seat in Seat)


def test_a_hint_out_of_turn_is_rejected_not_your_turn() -> None:
    harness, south, _ = bot_to_act()
    out = harness.send(south, {"type": "hint", "id": "h1"})
    assert [(m["type"], m["code"]) for m in out] == [("reject", "not_your_turn")]


def test_undo_and_hint_are_not_allowed_at_a_table_with_two_humans() -> None:
    harness = Harness(Room.create({Seat.S: Player.human("S"), Seat.N: Player.human("N")}, seed=5))
    south = harness.connect(harness.room.tokens[Seat.S])
    harness.connect(harness.room.tokens[Seat.N])
    for kind in ("undo", "hint"):
        out = harness.send(south, {"type": kind, "id": "x1"})
        assert [(m["type"], m["code"]) for m in out] == [("reject", "not_allowed")]


# --------------------------------------------------------------------------- Sawa


ALL_SPADES = {
    "S": "As Ks Qs Js Ts 9s 8s 7s",
    "N": "Ah Kh Qh Jh Th 9h 8h 7h",
    "W": "Ad Kd Qd Jd Td 9d 8d 7d",
    "E": "Ac Kc Qc Jc Tc 9c 8c 7c",
}


class Passer:
    """Passes whenever it may, else plays the first legal action."""

    name = "passer"

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return next((a for a in legal if a.verb is Verb.PASS), legal[0])


def sun_room(hands: dict[str, str], exposed: str) -> tuple[Harness, Client, Client]:
    """South (human) takes Sun and leads: the other seats pass and play their first card."""
    match = Match(Rules(first_lead=FirstLead.DECLARER), Seat.E)
    match.deal(build_deck(hands, taker="S", exposed=exposed))
    players = {seat: Player.bot("passer") for seat in Seat}
    players[Seat.S] = Player.human("Saad")
    harness = Harness(Room(Table(match, players, {seat: Passer() for seat in Seat}, seed=1)))
    south = harness.connect(harness.room.tokens[Seat.S])
    spectator = harness.connect(None)
    harness.bots()
    harness.act(south, "S sun")
    harness.bots()
    assert harness.room.table.waiting().seat is Seat.S
    return harness, south, spectator


def test_a_claim_that_holds_plays_the_hand_out_as_events_each_with_its_own_view() -> None:
    harness, south, spectator = sun_room(ALL_SPADES, exposed="7s")
    assert south.view["claim"] is True and spectator.view["claim"] is False  # offered
    v = harness.room.v
    out = harness.send(south, {"type": "claim", "id": "s1"})
    assert out[0] == {"type": "ack", "id": "s1"}
    assert harness.leaks == []
    numbered = [m for m in spectator.messages if m.get("v", 0) > v]
    assert [m["v"] for m in numbered] == list(range(v + 1, harness.room.v + 1))
    assert types(numbered)[-1] == "hand-over"
    events = numbered[:-1]
    assert set(types(events)) == {"event"}
    plays = 0
    for message in events:
        plays += " play " in message["action"]
        assert sum(len(t["cards"]) for t in message["view"]["tricks"]) == plays
        assert message["view"]["actions"][-1] == message["action"]
    assert plays == 32
    assert numbered[-1]["view"]["tricks_won"] == {"NS": 8, "EW": 0}
    # Once every card is down, the hand-over shows the claimant's hand as it was claimed.
    revealed = ["As", "Ts", "Ks", "Qs", "Js", "9s", "8s", "7s"]  # as it leads them
    assert numbered[-1]["claimed"] == {"seat": "S", "cards": revealed}
    assert all("claimed" not in m for m in events)


def test_a_declaration_naming_its_cards_reaches_the_others_as_its_kinds() -> None:
    harness, south, spectator = sun_room(ALL_SPADES, exposed="7s")
    out = harness.act(south, "S declare hundred:AsKsQsJsTs9s8s7s")
    assert out[0]["type"] == "ack"
    assert south.messages[-1]["action"] == "S declare hundred:AsKsQsJsTs9s8s7s"
    assert spectator.messages[-1]["action"] == "S declare hundred"
    assert harness.leaks == []


def test_a_claim_that_does_not_hold_is_rejected_and_changes_nothing() -> None:
    hands = dict(ALL_SPADES)
    hands["S"], hands["E"] = "As Ks Qs Js Ts 9s 8s 7c", "Ac Kc Qc Jc Tc 9c 8c 7s"
    harness, south, _ = sun_room(hands, exposed="8s")
    assert south.view["claim"] is False  # not offered
    actions, v = list(harness.room.table.hand.actions), harness.room.v
    out = harness.send(south, {"type": "claim", "id": "s1"})
    assert [(m["type"], m["code"]) for m in out] == [("reject", "claim_not_proven")]
    assert list(harness.room.table.hand.actions) == actions and harness.room.v == v


# --------------------------------------------------------------------------- creating


def test_a_room_is_created_as_post_api_tables_describes_it() -> None:
    asked = read_request({"seats": {"S": "human", "E": "bot:random"}, "names": {"S": "Saad"}})
    room = Room.create(asked.players, seed=4)
    labels = {seat.name: room.table.players[seat].label for seat in Seat}
    assert labels == {"N": "bot:heuristic", "W": "bot:heuristic", "S": "Saad", "E": "bot:random"}
    assert len(room.table.match.hands) == 1
    with pytest.raises(ValueError, match="'human' or 'bot:NAME'"):
        read_request({"seats": {"S": "robot"}})


# --------------------------------------------------------------------------- the journal


def test_a_room_made_again_from_its_config_and_steps_is_the_same_table() -> None:
    """What storage keeps (the config and every step, bots', undos and ``next`` included)
    brings back the same match, the same ``v`` and the same remembered client ids."""
    harness, south = south_to_act(seed=5)
    room = harness.room
    start, kept = room.take_steps()
    assert start == 0
    hand_over(harness, south)
    harness.send(south, {"type": "next", "id": "n1"})
    harness.bots()
    harness.play_first_legal(south)
    harness.bots()
    harness.send(south, {"type": "undo", "id": "u1"})
    harness.play_first_legal(south)
    harness.bots()
    following, more = room.take_steps()
    assert following == len(kept)
    kept += more
    assert {step.kind.value for step in kept} >= {"act", "bot", "next", "undo", "seat"}
    config = room.config(timer=30, public=True, created=1.0)
    again = Room.from_config(config, kept)
    assert again.v == room.v
    assert Record.of(again.table.match) == Record.of(room.table.match)
    assert again.table.view(Seat.S) == room.table.view(Seat.S)
    assert again.tokens == {} and again.seating.token_digests == room.seating.token_digests
    back, first = again.connect(room.tokens[Seat.S])
    assert first[0][1]["view"] == south.view
    repeated = again.receive(back, json.dumps({"type": "act", "id": "c1", "action": "S pass"}))
    assert [message for _, message in repeated] == [{"type": "ack", "id": "c1"}]
    assert again.v == room.v + 1  # only the seat message of the connection
    assert again.take_steps()[0] == len(kept)  # its journal goes on where it was


def test_the_rooms_v_is_its_tables_history_and_a_stored_v_must_follow_it() -> None:
    """One count of the history: every numbered message takes its event's ``v`` from the
    table, ``seat`` messages included; a kept step whose ``v`` is not where taking it again
    leads is refused, never believed."""
    harness, south = south_to_act()
    room = harness.room
    assert room.v == room.table.version == south.v
    _, kept = room.take_steps()
    config = room.config(timer=None, public=False, created=1.0)
    wrong = [*kept[:-1], replace(kept[-1], v=kept[-1].v + 1)]
    with pytest.raises(JournalError, match=f"step {len(kept) - 1} has v"):
        Room.from_config(config, wrong)


def test_steps_are_taken_once_and_each_records_the_v_after_it() -> None:
    harness, south = south_to_act()
    start, steps = harness.room.take_steps()
    assert start == 0 and steps and steps[-1].v == harness.room.v
    assert harness.room.take_steps() == (len(steps), [])
    harness.play_first_legal(south)
    (step,) = [s for s in harness.room.take_steps()[1] if s.kind.value == "act"]
    assert step.seat is Seat.S and step.id == f"c{harness.ids}" and len(step.actions) == 1


def test_a_token_is_kept_only_as_its_digest() -> None:
    room = one_human_room()
    token = room.tokens[Seat.S]
    config = room.config(timer=None, public=False, created=0.0)
    assert token not in json.dumps(config.to_json())
    assert config.tokens["S"] == token_digest(token)


# --------------------------------------------------------------------------- time outs


def test_a_late_connected_human_is_played_for_once_and_told_so_before_and_after() -> None:
    harness, south = south_to_act()
    legal = south.view["legal"]
    out = harness.deliver(harness.room.time_out(Seat.S))
    seat_messages = [m for m in out if m["type"] == "seat"]
    assert seat_messages[0]["player"] == "bot:heuristic" and seat_messages[0]["connected"]
    assert seat_messages[-1]["player"] == "Saad"
    played = next(m for m in out if m["type"] == "event")
    assert played["action"] in legal
    assert harness.leaks == []


def test_a_disconnected_human_is_played_for_until_they_come_back() -> None:
    harness, south = south_to_act()
    spectator = harness.connect(None)
    harness.deliver(harness.room.disconnect(south.connection))
    harness.deliver(harness.room.time_out(Seat.S))
    assert harness.room.seats_json()["S"] == {"player": "bot:heuristic", "connected": False}
    harness.bots()
    if harness.room.table.waiting().seat is Seat.S:
        out = harness.deliver(harness.room.time_out(Seat.S))
        assert "seat" not in types(out)  # already said
    back = harness.connect(harness.room.tokens[Seat.S])
    assert back.messages[0]["seats"]["S"] == {"player": "Saad", "connected": True}
    assert spectator.messages[-1]["type"] == "seat"
    assert spectator.messages[-1]["player"] == "Saad"


def test_time_out_does_nothing_unless_that_human_is_to_act() -> None:
    harness, _ = south_to_act()
    assert harness.room.time_out(Seat.N) == []


def test_resync_over_steps_taken_while_the_seat_had_no_connection_answers_a_snapshot() -> None:
    harness, south = south_to_act()
    since = south.v
    harness.deliver(harness.room.disconnect(south.connection))
    harness.room.time_out(Seat.S)  # played while away: no South version was built
    harness.bots()
    back = harness.connect(harness.room.tokens[Seat.S])
    out = harness.send(back, {"type": "resync", "since": since})
    assert types(out) == ["snapshot"] and out[0]["view"] == back.view


def test_resync_from_before_the_deal_of_the_hand_answers_a_snapshot() -> None:
    """Messages of an earlier hand show its cards: they are not sent again."""
    harness, south = south_to_act()
    since = south.v
    hand_over(harness, south)
    harness.send(south, {"type": "next", "id": "n1"})
    out = harness.send(south, {"type": "resync", "since": since})
    assert types(out) == ["snapshot"] and harness.leaks == []
    dealt = next(m["v"] for m in south.messages if m["type"] == "deal")
    harness.bots()
    again = harness.send(south, {"type": "resync", "since": dealt})
    assert "snapshot" not in types(again)


def test_resync_from_before_an_undo_answers_a_snapshot() -> None:
    """Events before an undo may show cards taken back into a hand: not sent again."""
    harness, south = south_to_act()
    harness.play_first_legal(south)
    harness.bots()
    since = south.v - 1
    harness.send(south, {"type": "undo", "id": "u1"})
    out = harness.send(south, {"type": "resync", "since": since})
    assert types(out) == ["snapshot"] and harness.leaks == []


def test_a_new_tables_seed_is_secret_wide_and_kept_in_its_record() -> None:
    """The decks of a match all come from its seed: one too narrow to try every value of
    could be found from the cards of its finished hands."""
    seeds = [Room.create({Seat.S: Player.human("S")}).table.seed for _ in range(16)]
    assert all(seed is not None and 0 <= seed < 2**63 for seed in seeds)
    assert len(set(seeds)) == 16 and max(s for s in seeds if s is not None) >= 2**48
    room = Room.create({Seat.S: Player.human("S")})
    room.deal()  # its wait for South's entropy is over
    text = dumps(room.table.record())
    assert loads(text).metadata["x_seed"] == room.table.seed


class FailsTwice:
    """An operator's program that fails its first two decisions, then passes or plays."""

    name = "flaky"

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        self.calls += 1
        if self.calls <= 2:
            raise BotFailure("flaky", str(view.seat), FailureKind.CRASHED, "exited")
        return Passer().choose(view, legal)


def test_a_failing_program_is_shown_not_connected_until_it_decides_well_again() -> None:
    players = {seat: Player.bot("passer") for seat in Seat}
    players[Seat.S], players[Seat.W] = Player.human("Saad"), Player.bot("flaky")
    bots: dict[Seat, Any] = {seat: Passer() for seat in Seat}
    bots[Seat.W] = GuardedBot(FailsTwice(), Passer(), lambda failure: None)
    harness = Harness(Room(Table.new(players, bots, seed=5)))
    south = harness.connect(harness.room.tokens[Seat.S])
    while harness.room.table.hand.phase is not Phase.OVER:
        harness.bots()
        if harness.room.table.waiting().kind is WaitKind.HUMAN:
            harness.play_first_legal(south)
    west = [m for m in south.numbered if m["type"] == "seat" and m["seat"] == "W"]
    # Down at its first failure (its second is within the rest), up at its first good answer.
    assert [(m["player"], m["connected"]) for m in west] == [
        ("bot:flaky", False),
        ("bot:flaky", True),
    ]
    assert harness.room.seats_json()["W"] == {"player": "bot:flaky", "connected": True}
    assert harness.leaks == []

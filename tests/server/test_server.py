"""The web server as a client sees it: HTTP API and the table protocol over a real WebSocket
(``docs/table-protocol.md``), in process with Starlette's test client, storage in a SQLite file.

The whole match test checks every message against the finished match: no message to a seat
or a spectator holds a card it might not know at the moment of that message.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from conftest import FAST, Opener, Server
from helpers import WAIT, wait_for
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect
from test_seat_view_secrecy import cards_in_text, may_know

from baloot import Seat
from baloot.bots import base
from baloot.bots.heuristic import HeuristicBot
from baloot.core.hand import Hand
from baloot.records.record import loads
from baloot.records.replay import replay
from baloot.server import connections
from baloot.server.app import RATE, _refuse, create_app
from baloot.server.hall import Hall
from baloot.server.leases import Fence
from baloot.words import LANGUAGES
from baloot.words.pages import page_words


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("seats", {"S": "human"})
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


@dataclass
class Seen:
    """What one socket received, in order, and the table state it implies."""

    socket: WebSocketTestSession
    messages: list[dict[str, Any]] = field(default_factory=list)
    ids: int = 0

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = self.socket.receive_json()
        self.messages.append(message)
        return message

    def until(self, test: Any, limit: int = 5000) -> dict[str, Any]:
        for _ in range(limit):
            message = self.receive()
            if test(message):
                return message
        raise AssertionError("the awaited message never came")

    @property
    def view(self) -> dict[str, Any]:
        return next(m["view"] for m in reversed(self.messages) if "view" in m)

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send_text(json.dumps(message))

    def play_to_hand_over(self, seat: str = "S") -> dict[str, Any]:
        """Answer each turn of ``seat`` with its first legal action until a ``hand-over``."""
        while (message := self.until(my_turn(seat)))["type"] != "hand-over":
            self.act(message["view"]["legal"][0])
        return message

    def act(self, action: str) -> str:
        self.ids += 1
        id_ = f"c{self.ids}"
        self.send({"type": "act", "id": id_, "action": action})
        return id_


def my_turn(seat: str) -> Any:
    def test(message: dict[str, Any]) -> bool:
        view = message.get("view")
        if message["type"] == "hand-over":
            return True
        return view is not None and view["to_act"] == seat and bool(view["legal"])

    return test


# --------------------------------------------------------------------------- the API


def test_options_list_the_presets_flags_bots_timers_and_the_lobbys_first_bot(
    shared_server: Server,
) -> None:
    assert shared_server.client is not None
    options = shared_server.client.get("/api/options").json()
    assert {"classic", "federation"} <= set(options["presets"])
    assert "heuristic" in options["bots"] and options["timers"] == [None, 10, 15, 30, 60]
    assert options["default_bot"] == "medium" and "medium" in options["bots"]
    flag = next(f for f in options["flags"] if f["name"] == "must_undertrump")
    assert flag["choices"] == [False, True]


def test_a_table_may_have_a_ten_second_turn_timer(server: Server) -> None:
    """The quickest turn timer the lobby offers: 10 s, for those who play fast."""
    assert server.client is not None
    created = create(server.client, timer=10)
    described = server.client.get(f"/api/tables/{created['table']}").json()
    assert described["timer"] == 10


def test_creating_a_table_gives_one_link_per_human_seat_and_a_spectator_link(
    server: Server,
) -> None:
    assert server.client is not None
    created = create(server.client, seats={"S": "human", "N": "human"}, public=True)
    table = created["table"]
    assert set(created["seats"]) == {"S", "N"}
    assert created["seats"]["S"]["url"] == f"/t/{table}?token={created['seats']['S']['token']}"
    assert created["spectate"] == f"/t/{table}"
    listed = server.client.get("/api/tables").json()["tables"]
    assert [t["table"] for t in listed] == [table]
    assert "token" not in json.dumps(listed)
    described = server.client.get(f"/api/tables/{table}").json()
    assert described["humans"] == ["N", "S"] and described["status"] == "playing"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"rules": "nonesuch"}, "unknown rules preset"),
        ({"rules": {"preset": "classic", "must_undertrump": 3}}, "true or false"),
        ({"seats": {"S": "bot:nonesuch"}}, "unknown bot"),
        ({"seats": {"S": "./evil --flag"}}, "'human' or 'bot:NAME'"),
        ({"seats": {"X": "human"}}, "unknown seat"),
        ({"timer": 5}, "timer"),
        ({"public": "yes"}, "public"),
        ({"seats": {"S": "human"}, "names": {"S": "x" * 41}}, "at most 40"),
    ],
)
def test_a_bad_table_request_is_a_400_with_one_clear_line(
    shared_server: Server, body: dict[str, Any], words: str
) -> None:
    assert shared_server.client is not None
    response = shared_server.client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert words in response.json()["error"]


def test_a_body_that_is_not_json_or_too_large_is_a_400(server: Server) -> None:
    assert server.client is not None
    assert server.client.post("/api/tables", content=b"{").status_code == 400
    big = b'{"names": "' + b"x" * 70_000 + b'"}'
    response = server.client.post("/api/tables", content=big)
    assert response.status_code == 400 and "at most" in response.json()["error"]


def test_pages_are_served_in_english_and_in_arabic_right_to_left(shared_server: Server) -> None:
    assert shared_server.client is not None
    table = create(shared_server.client)["table"]
    for path in ("/", "/history", f"/t/{table}"):
        english = shared_server.client.get(path)
        arabic = shared_server.client.get(path + "?lang=ar")
        assert english.status_code == 200 and '<html lang="en" dir="ltr"' in english.text
        assert '<html lang="ar" dir="rtl"' in arabic.text
        assert "script-src 'self'" in english.headers["content-security-policy"]
        assert english.headers["referrer-policy"] == "no-referrer"
    assert shared_server.client.get("/t/nonesuch").status_code == 404


def test_the_game_words_the_pages_import_are_served_as_a_module(server: Server) -> None:
    assert server.client is not None
    response = server.client.get("/game-words.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    exported = response.text.split("export const GAME_WORDS = ", 1)[1].rstrip().removesuffix(";")
    assert json.loads(exported) == {lang: page_words(lang) for lang in LANGUAGES}


def test_words_word_a_sheet_and_refuse_a_bad_one(shared_server: Server) -> None:
    assert shared_server.client is not None
    line = {"key": "tricks", "params": {"NS": 6, "EW": 2}}
    english = shared_server.client.post("/api/words", json={"lang": "en", "sheet": [line]})
    arabic = shared_server.client.post("/api/words", json={"lang": "ar", "sheet": [line]})
    assert english.status_code == 200 and arabic.status_code == 200
    assert english.json()["sheet"] != arabic.json()["sheet"]
    bad = shared_server.client.post("/api/words", json={"lang": "en", "sheet": [{"key": "nope"}]})
    assert bad.status_code == 400 and bad.json()["error"]


def test_words_name_the_teams_us_and_them_for_a_seat_and_by_their_seats_for_others(
    server: Server,
) -> None:
    client = server.client
    assert client is not None
    line = {"key": "tricks", "params": {"NS": 6, "EW": 2}}

    def worded(**body: object) -> str:
        answer = client.post("/api/words", json={"lang": "ar", "sheet": [line], **body})
        assert answer.status_code == 200, answer.text
        return str(answer.json()["sheet"][0])

    assert worded() == "الأكلات: شمال-جنوب 6، شرق-غرب 2"
    assert worded(seat="E") == "الأكلات: لهم 6، لنا 2"
    refused = client.post("/api/words", json={"lang": "ar", "sheet": [line], "seat": "X"})
    assert refused.status_code == 400 and "seat" in refused.json()["error"]


# --------------------------------------------------------------------------- the socket


def test_the_lobbys_feed_says_when_a_public_table_is_made(server: Server) -> None:
    client, hall = server.client, server.hall
    assert client is not None and hall is not None
    assert wait_for(hall.lobby.listening.is_set), "the lobby's feed never listened"
    with client.websocket_connect("/ws/lobby") as feed:
        create(client, public=True)
        assert feed.receive_json() == {"type": "lobby"}


def test_an_unknown_table_closes_4404_and_a_wrong_token_4403(shared_server: Server) -> None:
    assert shared_server.client is not None
    table = create(shared_server.client)["table"]
    for url, code in ((f"/ws/tables/{table}?token=wrong", 4403), ("/ws/tables/none", 4404)):
        with shared_server.client.websocket_connect(url) as socket:
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == code


def check_no_leak(seen: Seen, seat: Seat | None, hands: list[Hand]) -> list[str]:
    """Every card in every message was known to its seat at that moment (the state of the
    finished match after as many actions as the message's view holds)."""
    problems = []
    number = 0
    for message in seen.messages:
        if message["type"] in ("snapshot", "deal", "hand-over"):
            number = message["match"]["hand"]
        if message.get("view") is None:  # no view, or none yet: the first hand is not dealt
            continue
        hand = hands[number - 1].copy()
        while len(hand.actions) > len(message["view"]["actions"]):
            hand.undo()
        hidden = cards_in_text(json.dumps(message)) - frozenset(may_know(hand, seat))
        if hidden:
            problems.append(f"{message['type']} v{message.get('v')}: {sorted(map(str, hidden))}")
    return problems


def test_a_whole_match_over_the_socket_with_no_leak_and_its_record_after(
    server: Server,
) -> None:
    client = server.client
    assert client is not None
    created = create(client, names={"S": "Saad"})
    table, token = created["table"], created["seats"]["S"]["token"]
    assert client.get(f"/api/matches/{table}/record").status_code == 409
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket,
        client.websocket_connect(f"/ws/tables/{table}") as watching,
    ):
        south = Seen(socket)
        for _ in range(3000):
            message = south.until(my_turn("S"))
            if message["type"] == "hand-over":
                if message["match"]["winner"] is not None:
                    break
                south.send({"type": "next", "id": f"n{message['v']}"})
                continue
            south.act(message["view"]["legal"][0])
        final = south.messages[-1]
        assert south.messages[0]["type"] == "snapshot"
        assert final["match"]["record"] == f"/api/matches/{table}/record"
        spectator = Seen(watching)
        spectator.until(lambda m: m["type"] == "hand-over" and m["match"]["winner"])
    response = client.get(f"/api/matches/{table}/record")
    assert response.status_code == 200
    record = loads(response.text)
    assert record.metadata["players"]["S"] == "Saad"
    hands = list(replay(record).match.hands)
    assert final["match"]["totals"] == {
        "NS": replay(record).match.totals[0],
        "EW": replay(record).match.totals[1],
    }
    assert check_no_leak(south, Seat.S, hands) == []
    assert check_no_leak(spectator, None, hands) == []
    history = client.get("/api/matches").json()["matches"]
    assert [(m["id"], m["status"], m["winner"]) for m in history] == [
        (table, "over", final["match"]["winner"])
    ]


def test_a_restarted_server_resumes_the_table_and_remembers_ids(server: Server) -> None:
    client = server.client
    assert client is not None
    created = create(client)
    table, token = created["table"], created["seats"]["S"]["token"]
    url = f"/ws/tables/{table}?token={token}"
    with client.websocket_connect(url) as socket:
        south = Seen(socket)
        south.until(my_turn("S"))
        first = south.act(south.view["legal"][0])
        south.until(lambda m: m.get("type") == "ack")
        south.until(lambda m: m.get("type") == "event")
        held_view, held_v = south.view, max(m.get("v", 0) for m in south.messages)
    client = server.restart()
    with client.websocket_connect(url) as socket:
        back = Seen(socket)
        snapshot = back.receive()
        assert snapshot["type"] == "snapshot" and snapshot["v"] > held_v
        assert snapshot["view"]["actions"][: len(held_view["actions"])] == held_view["actions"]
        back.send({"type": "act", "id": first, "action": "S pass"})
        assert back.until(lambda m: m["type"] in ("ack", "reject")) == {"type": "ack", "id": first}


def test_a_repeated_id_is_acknowledged_and_not_applied_twice(server: Server) -> None:
    client = server.client
    assert client is not None
    created = create(client, seats={"S": "human", "N": "human"})
    tokens = {seat: created["seats"][seat]["token"] for seat in ("S", "N")}
    table = created["table"]
    with client.websocket_connect(f"/ws/tables/{table}?token={tokens['S']}") as socket:
        south = Seen(socket)
        message = south.until(my_turn("S"))
        action = message["view"]["legal"][0]
        south.send({"type": "act", "id": "same", "action": action})
        south.send({"type": "act", "id": "same", "action": action})
        south.until(lambda m: m["type"] == "event")
        second = south.until(lambda m: m["type"] in ("ack", "reject"))
        assert second == {"type": "ack", "id": "same"}
        south.send({"type": "ping"})
        assert south.until(lambda m: m["type"] == "pong")
        acted = [m for m in south.messages if m["type"] == "event" and m["action"] == action]
        assert len(acted) == 1


def test_bad_frames_are_rejected_and_a_flood_is_rate_limited(server: Server) -> None:
    server.rate = RATE
    client = server.restart()
    table = create(client)["table"]
    with client.websocket_connect(f"/ws/tables/{table}") as socket:
        seen = Seen(socket)
        seen.receive()
        socket.send_bytes(b"\x00\x01")
        assert seen.until(lambda m: m["type"] == "reject")["code"] == "bad_message"
        socket.send_text("{not json")
        assert seen.until(lambda m: m["type"] == "reject")["code"] == "bad_json"
        socket.send_text(json.dumps({"type": "ping", "pad": "x" * 70_000}))
        assert seen.until(lambda m: m["type"] == "reject")["code"] == "too_large"
        for _ in range(40):
            socket.send_text('{"type": "ping", "id": "p"}')
        answers = [seen.until(lambda m: m["type"] in ("pong", "reject")) for _ in range(40)]
        limited = [answer for answer in answers if answer.get("code") == "rate_limited"]
        assert limited and limited[0]["id"] == "p"
        assert any(answer["type"] == "pong" for answer in answers)


def test_a_disconnected_human_is_played_for_after_the_wait_and_told(server: Server) -> None:
    client = server.client
    assert client is not None
    created = create(client, seats={"S": "human", "N": "human"})
    table = created["table"]
    tokens = {seat: created["seats"][seat]["token"] for seat in ("S", "N")}
    with client.websocket_connect(f"/ws/tables/{table}?token={tokens['N']}") as socket:
        north = Seen(socket)
        south_asked: float | None = None  # when North heard South's turn begin, if it did
        for _ in range(500):
            message = north.receive()
            if message["type"] == "seat" and message["seat"] == "S":
                break
            view = message.get("view")
            if message["type"] == "event" and view and view["to_act"] == "S":
                south_asked = south_asked or time.monotonic()
            if view and view["to_act"] == "N" and view["legal"]:
                north.act(view["legal"][0])
        else:
            raise AssertionError("no bot played for the absent South")
        assert message["player"] == "bot:heuristic" and message["connected"] is False
        if south_asked is not None:  # the wait (0.3 s) was waited, not skipped
            assert time.monotonic() - south_asked >= 0.15  # the event may come late


def test_with_a_turn_timer_the_bot_decides_for_a_late_human_and_says_so(server: Server) -> None:
    client = server.client
    assert client is not None and server.hall is not None
    created = create(client, timer=15, names={"S": "Saad"})
    table, token = created["table"], created["seats"]["S"]["token"]
    live = server.hall.tables[table]
    live.room.timing = replace(live.room.timing, turn=0.3)  # 15 s made short for the test
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket:
        south = Seen(socket)
        south.until(my_turn("S"))
        stood_in = south.until(lambda m: m["type"] == "seat")
        assert (stood_in["player"], stood_in["connected"]) == ("bot:heuristic", True)
        played = south.until(lambda m: m["type"] == "event")
        assert played["action"].startswith("S ")
        back = south.until(lambda m: m["type"] == "seat")
        assert (back["player"], back["connected"]) == ("Saad", True)


def test_a_table_of_two_humans_deals_the_next_hand_at_the_deadline_without_next(
    server: Server,
) -> None:
    client = server.client
    assert client is not None and server.hall is not None
    server.hall.clock = lambda: 1_000.0  # a clock that stands still: the deadline is exact
    created = create(client, seats={"S": "human", "N": "human"})
    table = created["table"]
    tokens = {seat: created["seats"][seat]["token"] for seat in ("S", "N")}
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={tokens['S']}") as south_socket,
        client.websocket_connect(f"/ws/tables/{table}?token={tokens['N']}") as north_socket,
    ):
        south, north = Seen(south_socket), Seen(north_socket)
        while True:
            message = north.until(lambda m: m.get("view") is not None)
            if message["type"] == "hand-over":
                break
            view = message["view"]
            if view["to_act"] == "N" and view["legal"]:
                north.act(view["legal"][0])
            elif view["to_act"] == "S":
                south.act(south.until(my_turn("S"))["view"]["legal"][0])
        assert message["deadline"] == {"kind": "next", "seat": None, "at": 1_000_300}
        dealt = north.until(lambda m: m["type"] == "deal")
        assert dealt["match"]["hand"] == 2 and dealt["deadline"] is None


def test_the_one_human_of_a_table_is_waited_for_after_a_hand(server: Server) -> None:
    client = server.client
    assert client is not None and server.hall is not None
    created = create(client)
    table, token = created["table"], created["seats"]["S"]["token"]
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket:
        south = Seen(socket)
        over = south.play_to_hand_over()
        assert over["deadline"] is None
        live = server.hall.tables[table]
        assert live.timer is None and live.room.match_json()["awaiting_next"] == ["S"]
        south.send({"type": "next", "id": "n1"})
        assert south.until(lambda m: m["type"] == "deal")["match"]["hand"] == 2


def test_a_spoken_line_is_heard_by_a_spectator_and_kept_across_a_restart(server: Server) -> None:
    client = server.client
    assert client is not None
    created = create(client)
    table, token = created["table"], created["seats"]["S"]["token"]
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={token}") as south_socket,
        client.websocket_connect(f"/ws/tables/{table}") as watcher_socket,
    ):
        south, watcher = Seen(south_socket), Seen(watcher_socket)
        south.send({"type": "say", "id": "m1", "text": "يا هلا"})
        heard = watcher.until(lambda m: m["type"] == "said")
        assert (heard["seat"], heard["text"]) == ("S", "يا هلا")
        watcher.send({"type": "say", "id": "m2", "text": "hi"})
        assert watcher.until(lambda m: m["type"] == "reject")["code"] == "spectator"
    client = server.restart()
    with client.websocket_connect(f"/ws/tables/{table}") as socket:
        snapshot = Seen(socket).receive()
        assert snapshot["talk"] == [{"v": heard["v"], "seat": "S", "text": "يا هلا"}]


def test_a_table_whose_humans_stay_away_is_closed_and_kept_in_history(server: Server) -> None:
    assert server.client is not None
    now = [1_000_000.0]
    server.options |= {"clock": lambda: now[0], "idle": 100.0}
    client = server.restart()
    table = create(client)["table"]
    bots_only = create(client, seats={})["table"]
    now[0] += 500
    client = server.restart()  # housekeeping runs at start
    assert wait_for(lambda: client.get(f"/api/tables/{table}").json()["status"] == "closed")
    assert client.get(f"/api/tables/{bots_only}").json()["status"] == "playing"
    history = client.get("/api/matches").json()["matches"]
    assert [(m["id"], m["status"]) for m in history] == [(table, "closed")]
    record = client.get(f"/api/matches/{table}/record")
    assert record.status_code == 200 and loads(record.text).hands


def test_a_slow_bot_at_one_table_delays_no_other_table(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    thinking, release, answered = threading.Event(), threading.Event(), threading.Event()

    class SlowBot:
        """A bot that thinks until the test lets it answer."""

        name = "slow"

        def __init__(self, rng: Any) -> None:
            self.rng = rng

        def choose(self, view: Any, legal: Any) -> Any:
            thinking.set()
            release.wait(WAIT)
            answered.set()
            return legal[0]

    monkeypatch.setattr(base, "_builtin", lambda: {"slow": SlowBot, "heuristic": HeuristicBot})
    client = server.client
    assert client is not None
    create(client, seats={seat: "bot:slow" for seat in "NESW"})
    created = create(client)
    table, token = created["table"], created["seats"]["S"]["token"]
    try:
        assert thinking.wait(WAIT), "the slow bot was never asked"
        with client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket:
            south = Seen(socket)
            south.play_to_hand_over()  # the other table's bots play meanwhile
            south.send({"type": "ping"})
            south.until(lambda m: m["type"] == "pong")
        assert not answered.is_set(), "the other table waited for the slow bot"
    finally:
        release.set()


def test_an_action_that_cannot_be_stored_is_not_acknowledged_and_nothing_is_lost(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = server.client
    assert client is not None and server.hall is not None
    created = create(client)
    table, token = created["table"], created["seats"]["S"]["token"]
    url = f"/ws/tables/{table}?token={token}"
    store = server.hall.store
    with client.websocket_connect(url) as socket:
        south = Seen(socket)
        before = south.until(my_turn("S"))["view"]

        def broken(*_: Any, **__: Any) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(store, "append", broken)
        monkeypatch.setattr(store, "append_batch", broken)
        south.act(before["legal"][0])
        with pytest.raises(WebSocketDisconnect) as closed:
            south.until(lambda m: m["type"] in ("ack", "event"))
        assert closed.value.code == 1011
    monkeypatch.undo()
    with client.websocket_connect(url) as socket:
        back = Seen(socket)
        snapshot = back.receive()
        assert snapshot["view"]["actions"] == before["actions"]
        assert snapshot["view"]["legal"] == before["legal"]
        back.act(before["legal"][0])
        assert back.until(lambda m: m["type"] in ("ack", "reject"))["type"] == "ack"


def test_a_finished_hands_sheet_is_given_again_worded_to_a_page_that_came_after(
    server: Server,
) -> None:
    client = server.client
    assert client is not None
    created = create(client)
    table, token = created["table"], created["seats"]["S"]["token"]
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket:
        south = Seen(socket)
        message = south.play_to_hand_over()
    number = message["match"]["hand"]  # 1, unless a bot's Kawesh annulled the first deal
    again = client.get(f"/api/tables/{table}/sheet?hand={number}&lang=ar").json()
    assert again["lines"] == message["sheet"]
    worded = client.post("/api/words", json={"lang": "ar", "sheet": message["sheet"]}).json()
    assert again["sheet"] == worded["sheet"]
    assert client.get(f"/api/tables/{table}/sheet?hand={number + 1}").status_code == 404
    assert client.get(f"/api/tables/{table}/sheet?hand=x").status_code == 400


def test_a_table_takes_a_bounded_number_of_connections(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connections, "MAX_CONNECTIONS", 2)
    client = server.client
    assert client is not None
    table = create(client)["table"]
    url = f"/ws/tables/{table}"
    with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
        assert first.receive_json()["type"] == second.receive_json()["type"] == "snapshot"
        with client.websocket_connect(url) as third:
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == 1013


def test_one_address_may_create_only_so_many_tables_a_minute(opener: Opener) -> None:
    with TestClient(create_app(Hall(opener(), **FAST), create_rate=2)) as client:
        assert create(client)["table"] and create(client)["table"]
        refused = client.post("/api/tables", json={"seats": {"S": "human"}})
        assert refused.status_code == 429 and "2 new tables a minute" in refused.json()["error"]


def test_a_waiter_cancelled_in_a_group_commit_does_not_keep_the_others_waiting(
    opener: Opener,
) -> None:
    """A connection that closes while its steps are being written cancels its wait; the other
    tables of the same batch still hear that theirs are on disk (a stop would hang on them)."""

    async def main() -> None:
        hall = Hall(opener(), **FAST)
        await hall.start()
        try:
            unfenced = Fence(hall.node, 0)
            first = asyncio.create_task(hall.commits.append("gone", 0, [], unfenced))
            second = asyncio.create_task(hall.commits.append("waiting", 0, [], unfenced))
            await asyncio.sleep(0)  # both are in the batch being written
            first.cancel()
            await asyncio.wait([second], timeout=WAIT)
            assert second.done() and not second.cancelled()
            assert hall.commits.writing is not None and hall.commits.writing.done()
            assert hall.commits.writing.exception() is None
        finally:
            await hall.stop()

    asyncio.run(main())


def test_a_socket_refused_after_its_page_has_gone_is_no_failure() -> None:
    """A page that leaves while its table is looked up (a finished table let go, the page
    gone to a profile) is closed without an error of the server's."""
    closed: list[tuple[int, str]] = []

    class Gone:
        async def close(self, code: int, reason: str) -> None:
            closed.append((code, reason))
            raise WebSocketDisconnect(code=1006)

    asyncio.run(_refuse(Gone(), 4404, "no such table in play"))  # type: ignore[arg-type]
    assert closed == [(4404, "no such table in play")]

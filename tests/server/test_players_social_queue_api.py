"""The quick match over HTTP (``docs/quick-match.md``): four players asking to play are
seated at one table, each learning their own seat's link by polling; bots fill the empty
seats on request or after the documented wait; leaving; bad input."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from conftest import FAST, Opener, Server
from social_accounts import Account, add_player
from starlette.testclient import TestClient

from baloot.bots.levels import DEFAULT_OPPONENT
from baloot.server.players.quick_match import BOTS_AFTER
from baloot.server.seating import token_digest


def players(server: Server, count: int) -> list[Account]:
    assert server.hall is not None
    return [add_player(server.hall.store, f"Player {n}") for n in range(count)]


def client(server: Server) -> TestClient:
    assert server.client is not None
    return server.client


def join(server: Server, me: Account, **body: Any) -> Any:
    return client(server).post("/api/queue", json=body, headers=me.headers())


def poll(server: Server, me: Account) -> dict[str, Any]:
    answer = client(server).get("/api/queue", headers=me.headers())
    assert answer.status_code == 200
    return dict(answer.json())


def config_of(server: Server, table_id: str) -> dict[str, Any]:
    assert server.hall is not None
    found = server.hall.store.table_config(table_id)
    assert found is not None
    return dict(json.loads(found[1]))


def bound(server: Server, table_id: str) -> dict[str, str]:
    assert server.hall is not None
    with server.hall.store._transaction() as run:
        rows = run("SELECT seat, player_id FROM seat_players WHERE table_id = ?", (table_id,))
    return {str(seat): str(player) for seat, player in rows}


def test_four_players_are_seated_at_one_table_each_with_their_own_link(server: Server) -> None:
    four = players(server, 4)
    for me in four[:3]:
        assert join(server, me, preset="classic", timer=30).json()["state"] == "waiting"
    assert poll(server, four[0])["state"] == "waiting"
    join(server, four[3], preset="classic", timer=30)
    answers = [poll(server, me) for me in four]
    assert {answer["state"] for answer in answers} == {"seated"}
    (table_id,) = {answer["table"] for answer in answers}
    config = config_of(server, table_id)
    assert sorted(config["humans"]) == ["E", "N", "S", "W"] and config["timer"] == 30
    assert bound(server, table_id) == {
        answer["seat"]: me.id for answer, me in zip(answers, four, strict=True)
    }
    for answer, me in zip(answers, four, strict=True):
        token = answer["url"].split("token=")[1]
        assert config["tokens"][answer["seat"]] == token_digest(token)
        assert config["players"][answer["seat"]] == me.name
    assert not config["public"]


def test_bots_fill_the_empty_seats_on_request(server: Server) -> None:
    me, other = players(server, 2)
    join(server, me, preset="federation", timer=None)
    answer = client(server).post("/api/queue/bots", headers=me.headers())
    assert answer.status_code == 200 and answer.json()["state"] == "seated"
    config = config_of(server, answer.json()["table"])
    assert config["humans"] == [answer.json()["seat"]]
    assert sorted(set(config["players"].values()) - {me.name}) == [f"bot:{DEFAULT_OPPONENT}"]
    refused = client(server).post("/api/queue/bots", headers=other.headers())
    assert (refused.status_code, refused.json()) == (
        409,
        {"error": "you are not waiting in the queue"},
    )


def test_the_server_fills_with_bots_after_the_documented_wait(opener: Opener) -> None:
    now = [time.time()]
    running = Server(opener, {**FAST, "clock": lambda: now[0]})
    running.start()
    try:
        (me,) = players(running, 1)
        join(running, me, preset="classic", timer=None)
        now[0] += BOTS_AFTER - 1
        assert poll(running, me)["state"] == "waiting"
        now[0] += 1
        assert poll(running, me)["state"] == "seated"
    finally:
        running.stop()


def test_leaving_the_queue(server: Server) -> None:
    (me,) = players(server, 1)
    join(server, me, preset="classic", timer=None)
    answer = client(server).delete("/api/queue", headers=me.headers())
    assert (answer.status_code, answer.json()) == (200, {"state": None})
    assert poll(server, me) == {"state": None}


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ({"preset": "poker"}, "preset is one of classic, federation"),
        ({"preset": "classic", "timer": 7}, "timer is null, 10, 15, 30 or 60 (seconds)"),
        ({"preset": "classic", "timer": True}, "timer is null, 10, 15, 30 or 60 (seconds)"),
        (["classic"], 'the request must be a JSON object: {"preset", "timer"}'),
    ],
)
def test_a_bad_queue_request_is_one_clear_line(server: Server, body: Any, line: str) -> None:
    (me,) = players(server, 1)
    answer = client(server).post("/api/queue", json=body, headers=me.headers())
    assert (answer.status_code, answer.json()) == (400, {"error": line})


def test_joining_without_the_csrf_header_is_a_403(server: Server) -> None:
    (me,) = players(server, 1)
    answer = client(server).post("/api/queue", json={}, headers=me.headers(csrf=False))
    assert answer.status_code == 403
    assert poll(server, me) == {"state": None}


def test_the_play_page_is_served_in_both_languages(server: Server) -> None:
    for lang, direction in (("en", "ltr"), ("ar", "rtl")):
        page = client(server).get(f"/play?lang={lang}")
        assert page.status_code == 200
        assert f'lang="{lang}"' in page.text and f'dir="{direction}"' in page.text

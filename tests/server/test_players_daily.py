"""The daily duplicate on SQLite and PostgreSQL: the worked example of docs/daily.md, one play
per player and deal, the secret hidden until the day ends and then checkable, the instances,
the leaderboards, and one clear line with a 4xx for every bad input."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import FAST, Opener
from social_accounts import Account, add_player
from starlette.testclient import TestClient

from baloot.core.cards import Card
from baloot.records.fair import commitment_of
from baloot.server.app import create_app
from baloot.server.hall import Hall
from baloot.server.players.daily import (
    INSTANCES,
    RENAMINGS,
    deal_deck,
    instance_suits,
    matchpoints,
    today,
)
from baloot.server.storage import Store

DOC = Path(__file__).parents[2] / "docs" / "daily.md"
DAY = 24 * 3600.0


class Daily:
    """A server whose daily bots are the quick ``easy`` level, and whose clock a test moves."""

    def __init__(self, opener: Opener) -> None:
        self.offset = 0.0
        self.hall = Hall(
            opener(),
            clock=lambda: time.time() + self.offset,
            secret_bytes=random.Random(7).randbytes,
            **FAST,
        )
        self.client = TestClient(create_app(self.hall, rate=1000.0, daily_bot="easy"))

    @property
    def store(self) -> Store:
        return self.hall.store

    def get(self, path: str, who: Account | None = None) -> tuple[int, Any]:
        response = self.client.get(path, headers=who.headers() if who else {})
        return response.status_code, response.json()

    def post(self, path: str, who: Account | None, body: Any = None) -> tuple[int, Any]:
        headers = who.headers() if who else {}
        response = self.client.post(path, headers=headers, json=body)
        return response.status_code, response.json()

    def play_out(self, who: Account, deal: int) -> dict[str, Any]:
        """Deal ``deal`` played to its end, South always taking the first legal action."""
        status, play = self.post(f"/api/daily/{deal}", who)
        assert status == 200, play
        while not play["over"]:
            action = play["view"]["legal"][0]
            status, play = self.post(f"/api/daily/{deal}/act", who, {"action": action})
            assert status == 200, play
        return dict(play)


@pytest.fixture
def daily(opener: Opener) -> Iterator[Daily]:
    running = Daily(opener)
    with running.client:
        yield running


def doc_table() -> list[tuple[str, int, float]]:
    """The worked example's rows: each player, score and matchpoints."""
    text = DOC.read_text(encoding="utf-8").split("### Worked example", 1)[1]
    rows = re.findall(r"^\| (\w+) +\| (-?\d+) +\| \d+ +\| \d+ +\| ([\d.]+) +\|$", text, re.M)
    return [(name, int(score), float(points)) for name, score, points in rows]


def test_the_worked_example_of_the_docs_is_what_the_scoring_gives() -> None:
    rows = doc_table()
    assert len(rows) == 5
    assert matchpoints([score for _, score, _ in rows]) == [points for _, _, points in rows]
    assert (62.5 + 40) / 2 == 51.25


def test_matchpoints_count_ties_half_and_a_lone_player_gets_fifty() -> None:
    assert matchpoints([5]) == [50.0]
    assert matchpoints([0, 0]) == [50.0, 50.0]
    assert matchpoints([3, 1, 2]) == [100.0, 0.0, 50.0]


def test_the_instances_are_one_deal_under_other_suit_names() -> None:
    secret = bytes(range(32))
    for deal in (1, 8):
        decks = [deal_deck(secret, deal, k) for k in range(INSTANCES)]
        assert len({deck for deck in decks}) == INSTANCES
        for k, deck in enumerate(decks):
            renaming = instance_suits(secret, deal, k)
            assert renaming in RENAMINGS and (k == 0) == (renaming == RENAMINGS[0])
            assert deck == tuple(Card(renaming[c.suit], c.rank) for c in decks[0])


def test_one_play_per_deal_a_second_start_resumes_it(daily: Daily) -> None:
    amal = add_player(daily.store, "Amal")
    status, first = daily.post("/api/daily/1", amal)
    assert status == 200 and first["view"]["to_act"] == "S" and not first["over"]
    assert first["view"]["score_before"] == {"NS": 0, "EW": 0}
    action = first["view"]["legal"][0]
    daily.post("/api/daily/1/act", amal, {"action": action})
    _, again = daily.post("/api/daily/1", amal)
    assert again["instance"] == first["instance"]
    assert again["view"]["actions"][: len(first["view"]["actions"])] == first["view"]["actions"]
    assert len(again["view"]["actions"]) > len(first["view"]["actions"])
    done = daily.play_out(amal, 1)
    assert done["over"] and isinstance(done["score"], int)
    status, after = daily.post("/api/daily/1", amal)
    assert status == 200 and after["view"]["actions"] == done["view"]["actions"]
    status, refused = daily.post("/api/daily/1/act", amal, {"action": "S pass"})
    assert status == 409 and refused == {"error": "deal 1 is over"}
    _, listed = daily.get("/api/daily", amal)
    states = [deal["state"] for deal in listed["deals"]]
    assert states == ["done"] + ["new"] * 7
    assert listed["deals"][0]["score"] == done["score"]
    assert listed["deals"][0]["matchpoints"] == 50.0


def test_the_secret_is_hidden_until_the_day_ends_then_checks(daily: Daily) -> None:
    players = [add_player(daily.store, name) for name in ("Badr", "Dana", "Fahd")]
    _, listed = daily.get("/api/daily")
    day, commitment = listed["date"], listed["commitment"]
    plays = [daily.play_out(who, 2) for who in players]
    status, hidden = daily.get(f"/api/daily/{day}/2")
    assert status == 403 and hidden == {"error": "a deal is shown once its day is over"}
    assert "secret" not in str(daily.get("/api/daily")[1]).replace("'yesterday': None", "")
    status, board = daily.get(f"/api/daily/{day}/leaderboard")
    assert status == 200 and len(board["players"]) == 3
    assert sorted(p["average"] for p in board["players"]) == sorted(
        matchpoints([play["score"] for play in plays])
    )
    daily.offset += DAY
    _, next_day = daily.get("/api/daily")
    assert next_day["date"] != day and next_day["commitment"] != commitment
    revealed = next_day["yesterday"]
    assert revealed["date"] == day and revealed["commitment"] == commitment
    secret = bytes.fromhex(revealed["secret"])
    assert commitment_of(secret) == commitment
    status, shown = daily.get(f"/api/daily/{day}/2", players[0])
    assert status == 200 and shown["secret"] == revealed["secret"]
    for play in plays:
        deck = deal_deck(secret, 2, play["instance"])
        assert deck[20].text == play["view"]["exposed"]
        held = {card for trick in play["view"]["tricks"] for card in trick["cards"]}
        assert {c.text for c in deck} == held
        instance = shown["instances"][play["instance"]]
        assert instance["deck"] == " ".join(c.text for c in deck)
    assert sum(shown["histogram"]) == 3 and len(shown["field"]) == 3
    assert [row["me"] for row in shown["field"]].count(True) == 1
    assert shown["mine"]["moves"] == plays[0]["view"]["actions"]
    assert daily.get(f"/api/daily/{day}/2")[1]["mine"] is None
    status, late = daily.post("/api/daily/2/act", players[0], {"action": "S pass"})
    assert status == 409 and late == {"error": "start deal 2 first"}


def test_the_month_lists_players_with_enough_days(daily: Daily) -> None:
    store = daily.store
    often, seldom = add_player(store, "Often"), add_player(store, "Seldom")
    start = time.mktime((2026, 3, 1, 12, 0, 0, 0, 0, 0))
    for n in range(6):
        day = today(start + n * DAY).isoformat()
        store.daily_day(day, bytes([n]) * 32, 0.0)
        for who, score in ((often, 10 + n), (seldom, 0)):
            if who is seldom and n >= 4:
                continue
            play = store.daily_start(day, 1, who.id, 0, 0.0)
            assert store.daily_advance(play, ["x"], score, None, 1.0)
            assert not store.daily_advance(play, ["x"], score, None, 1.0)
    status, month = daily.get("/api/daily/month/2026-03")
    assert status == 200 and month["least"] == 5
    # Often beats Seldom on four days (100) and is alone on two (50).
    assert month["players"] == [{"rank": 1, "name": "Often", "average": 83.33, "days": 6}]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "line"),
    [
        ("post", "/api/daily/0", None, 400, "a deal is a number from 1 to 8"),
        ("post", "/api/daily/9", None, 400, "a deal is a number from 1 to 8"),
        ("post", "/api/daily/x", None, 400, "a deal is a number from 1 to 8"),
        ("post", "/api/daily/1/act", {"action": 3}, 400, None),
        ("post", "/api/daily/1/act", {"action": "S pass"}, 409, "start deal 1 first"),
        ("get", "/api/daily/2026-13-01/leaderboard", None, 400, "a date is YYYY-MM-DD"),
        ("get", "/api/daily/1999-01-01/leaderboard", None, 404, None),
        ("get", "/api/daily/month/2026-13", None, 400, "a month is YYYY-MM"),
        ("get", "/api/daily/2026-1-1/3", None, 400, "a date is YYYY-MM-DD"),
    ],
)
def test_bad_input_is_one_line_and_a_4xx(
    daily: Daily, method: str, path: str, body: Any, status: int, line: str | None
) -> None:
    who = add_player(daily.store, "Huda")
    got, answer = getattr(daily, method)(path, who, body) if method == "post" else daily.get(path)
    assert got == status and list(answer) == ["error"] and "\n" not in answer["error"]
    assert line is None or answer["error"] == line


def test_a_play_needs_a_session_and_its_csrf_header_and_a_legal_action(daily: Daily) -> None:
    who = add_player(daily.store, "Jana")
    assert daily.post("/api/daily/1", None)[0] == 401
    response = daily.client.post("/api/daily/1", headers=who.headers(csrf=False))
    assert response.status_code == 403
    _, play = daily.post("/api/daily/1", who)
    status, refused = daily.post("/api/daily/1/act", who, {"action": "N pass"})
    assert status == 400 and "\n" not in refused["error"]
    _, again = daily.post("/api/daily/1", who)
    assert again["view"]["actions"] == play["view"]["actions"]


def test_the_page_is_served_in_both_languages(daily: Daily) -> None:
    for lang, direction in (("en", "ltr"), ("ar", "rtl")):
        response = daily.client.get(f"/daily?lang={lang}")
        assert response.status_code == 200
        assert f'dir="{direction}"' in response.text and "/static/daily.js" in response.text
        assert "<style" not in response.text and "<script>" not in response.text

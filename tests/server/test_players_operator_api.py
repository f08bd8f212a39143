"""The operators' page of the collusion screen over HTTP, on SQLite and on PostgreSQL
(``docs/players-api.md``): an operator alone reads it (a guest 401, a player 403, the page as
its API); the latest kept run, its pairs listed first with links to their profiles; a listed
pair marked reviewed with a note, CSRF checked, kept with who and when and shown again by a
later run; every bad review one line and a 4xx, nothing kept.

The run is kept as ``baloot screen --keep`` keeps one, of blind leads written out
(``screen_helpers.keep_a_run``): no solver runs here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx2 as httpx
import pytest
from conftest import Server
from screen_helpers import keep_a_run
from starlette.testclient import TestClient
from test_players_security import Who, register, request

from baloot.server.players.operator_api import NOT_OPERATOR, NOTE
from baloot.server.storage import Store

RUN_RULE = '"run" is the id of a kept run of the screen'
PAIR_RULE = '"pair" is the number of a pair in the run, from 1'
NOTE_RULE = f'"note" is text of 1 to {NOTE} characters'
NOT_LISTED = "only a pair the screen listed is marked reviewed"
#: The six players of the kept run: Amal and Badr read the deal.
SIX = ("Amal", "Badr", "Dana", "Fahd", "Huda", "Jud")


@dataclass
class Club:
    """A server with an operator (Rashid), a player (Noura) and six players in a kept run."""

    client: TestClient
    store: Store
    operator: Who
    player: Who
    guest: Who
    run: str


@pytest.fixture
def club(server: Server) -> Club:
    assert server.client is not None and server.hall is not None
    store = server.hall.store
    operator, player = register(server, "Rashid"), register(server, "Noura")
    for name in SIX:
        register(server, name)
    ids = [store.player_named(name).id for name in SIX]  # type: ignore[union-attr]
    rashid = store.player_named("Rashid")
    assert rashid is not None and store.add_operator(rashid.id, when=1.0)
    run = keep_a_run(store, ids)
    return Club(server.client, store, operator, player, Who("a guest"), run)


def get(club: Club, who: Who, path: str = "/api/operator/screen") -> httpx.Response:
    return request(club.client, "GET", path, who)


def review(club: Club, who: Who, body: Any, **more: Any) -> httpx.Response:
    return request(club.client, "POST", "/api/operator/screen/reviews", who, json=body, **more)


def one_line(response: httpx.Response, status: int, said: str) -> None:
    assert (response.status_code, response.json()) == (status, {"error": said}), response.text


def test_an_operator_alone_reads_the_screen_and_its_page(club: Club) -> None:
    one_line(get(club, club.guest), 401, "sign in first")
    one_line(get(club, club.player), 403, NOT_OPERATOR)
    assert get(club, club.operator).status_code == 200
    for who, status in ((club.guest, 401), (club.player, 403), (club.operator, 200)):
        page = get(club, who, "/operator/screen?lang=ar")
        assert page.status_code == status and '<html lang="ar" dir="rtl">' in page.text
        assert "operator-screen.js" in page.text and "Amal" not in page.text


def test_only_an_operators_account_says_so(club: Club) -> None:
    assert get(club, club.operator, "/api/account").json()["operator"] is True
    assert "operator" not in get(club, club.player, "/api/account").json()


def test_removing_an_operator_takes_effect_at_their_next_request(club: Club) -> None:
    rashid = club.store.player_named("Rashid")
    assert rashid is not None and club.store.remove_operator(rashid.id)
    one_line(get(club, club.operator), 403, NOT_OPERATOR)
    one_line(
        review(club, club.operator, {"run": club.run, "pair": 1, "note": "x"}), 403, NOT_OPERATOR
    )


def test_the_latest_run_shows_the_population_then_the_listed_pairs_then_the_others(
    club: Club,
) -> None:
    answer = get(club, club.operator).json()
    run = answer["run"]
    assert run["id"] == club.run and run["finished"] - run["started"] == 60.0
    population = run["population"]
    assert (population["matches"], population["hands"], population["pairs"]) == (2, 70, 3)
    assert population["decisions"] == 140 and population["accuracy"] == 0.65
    assert population["histogram"] == [0, 0, 0, 0, 0, 2, 0, 0, 0, 1]
    assert run["thresholds"] == {"min_hands": 30, "z": 3.0, "accuracy": 0.85}
    (listed,) = answer["listed"]
    assert listed == {
        "pair": 1,
        "players": [
            {"name": "Amal", "profile": "/players/Amal"},
            {"name": "Badr", "profile": "/players/Badr"},
        ],
        "matches": 1,
        "hands": 40,
        "decisions": 40,
        "hits": 40,
        "accuracy": 1.0,
        "others_accuracy": 0.51,
        "z": 6.2,
        "listed": True,
        "reviews": [],
    }
    others = answer["others"]
    assert [[p["name"] for p in pair["players"]] for pair in others] == [
        ["Huda", "Jud"],
        ["Dana", "Fahd"],
    ]
    assert [pair["pair"] for pair in others] == [2, 3] and answer["others_total"] == 2
    assert all(not pair["listed"] and pair["z"] < 0 for pair in others)


def test_before_any_run_is_kept_the_answer_says_none(club: Club) -> None:
    with club.store._transaction() as run:
        for table in ("screen_pairs", "screen_runs"):
            run(f"DELETE FROM {table}")
    assert get(club, club.operator).json() == {
        "run": None,
        "listed": [],
        "others": [],
        "others_total": 0,
    }


def test_an_operator_marks_a_listed_pair_reviewed_and_a_later_run_shows_it(club: Club) -> None:
    note = "read their 40 hands: they found every lead; spoke to both at the club"
    made = review(club, club.operator, {"run": club.run, "pair": 1, "note": f"  {note} "})
    assert made.status_code == 201, made.text
    kept = made.json()
    assert (kept["run"], kept["pair"]) == (club.run, 1)
    assert kept["review"]["by"] == "Rashid" and kept["review"]["note"] == note
    assert kept["review"]["run"] == club.run and kept["review"]["at"] > 1e9
    assert get(club, club.operator).json()["listed"][0]["reviews"] == [kept["review"]]
    longest = "ن" * NOTE
    assert review(club, club.operator, {"run": club.run, "pair": 1, "note": longest}).is_success
    ids = [club.store.player_named(name).id for name in SIX]  # type: ignore[union-attr]
    later = keep_a_run(club.store, ids, when=3e9)
    answer = get(club, club.operator).json()
    assert answer["run"]["id"] == later
    reviews = answer["listed"][0]["reviews"]
    assert [entry["note"] for entry in reviews] == [longest, note]  # the newest first
    assert {entry["run"] for entry in reviews} == {club.run}


def test_a_review_needs_an_operators_session_and_its_csrf_token(club: Club) -> None:
    body = {"run": club.run, "pair": 1, "note": "fine"}
    one_line(review(club, club.guest, body), 401, "sign in first")
    one_line(review(club, club.player, body), 403, NOT_OPERATOR)
    tokenless = Who("Rashid without the token", club.operator.token, "")
    one_line(review(club, tokenless, body), 403, "the form is out of date: reload the page")
    crossed = Who("Rashid with Noura's token", club.operator.token, club.player.csrf)
    one_line(review(club, crossed, body), 403, "the form is out of date: reload the page")
    away = review(club, club.operator, body, headers={"origin": "https://elsewhere.example"})
    one_line(away, 403, "a request from another site is refused")
    assert get(club, club.operator).json()["listed"][0]["reviews"] == []


@pytest.mark.parametrize(
    ("body", "status", "said"),
    [
        ({"pair": 1, "note": "x"}, 400, RUN_RULE),
        ({"run": "a/b", "pair": 1, "note": "x"}, 400, RUN_RULE),
        ({"run": "RUN", "note": "x"}, 400, PAIR_RULE),
        ({"run": "RUN", "pair": 0, "note": "x"}, 400, PAIR_RULE),
        ({"run": "RUN", "pair": "1", "note": "x"}, 400, PAIR_RULE),
        ({"run": "RUN", "pair": True, "note": "x"}, 400, PAIR_RULE),
        ({"run": "RUN", "pair": 1.5, "note": "x"}, 400, PAIR_RULE),
        ({"run": "RUN", "pair": 1}, 400, NOTE_RULE),
        ({"run": "RUN", "pair": 1, "note": "  \n "}, 400, NOTE_RULE),
        ({"run": "RUN", "pair": 1, "note": "x" * (NOTE + 1)}, 400, NOTE_RULE),
        ({"run": "RUN", "pair": 1, "note": ["x"]}, 400, NOTE_RULE),
        (["RUN", 1, "x"], 400, "the request must be a JSON object"),
        ({"run": "RUN", "pair": 2, "note": "x"}, 409, NOT_LISTED),
        ({"run": "RUN", "pair": 9, "note": "x"}, 404, "run RUN has no pair 9"),
        ({"run": "nothing", "pair": 1, "note": "x"}, 404, "run nothing has no pair 1"),
    ],
)
def test_a_bad_review_is_one_line_and_a_4xx_and_keeps_nothing(
    club: Club, body: Any, status: int, said: str
) -> None:
    filled = _filled(body, club.run)
    one_line(review(club, club.operator, filled), status, said.replace("RUN", club.run))
    answer = get(club, club.operator).json()
    assert [pair["reviews"] for pair in answer["listed"] + answer["others"]] == [[], [], []]


def _filled(body: Any, run: str) -> Any:
    """``body`` with its ``"RUN"`` the kept run's id."""
    if isinstance(body, dict):
        return {key: run if value == "RUN" else value for key, value in body.items()}
    return [run if value == "RUN" else value for value in body]

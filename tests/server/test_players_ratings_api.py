"""Profiles and leaderboards over HTTP, on SQLite and on PostgreSQL: what they answer, and one
clear line with a 4xx for every bad input.

The accounts and their seats are inserted directly into the store (the accounts' own API makes
them in the server); the matches are real ones, played by bots, so that the statistics come
from the engine's replay of their records.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import Server
from rating_helpers import FOUR, add_player, add_table, played
from test_server import Seen, create, my_turn

from baloot.core.seats import Seat
from baloot.server.journal import Step, StepKind
from baloot.server.players.match_stats import statistics
from baloot.server.players.ratings import LEADERBOARD_MATCHES
from baloot.server.storage import Store


def stored(server: Server) -> Store:
    assert server.hall is not None
    return server.hall.store


@contextlib.contextmanager
def stopped(server: Server) -> Iterator[Store]:
    """The server's database while its hall is stopped: tables written straight into the
    store under a running hall would race it (a table in play that no node holds is taken up,
    an old one closed as idle); the hall starts again afterwards."""
    server.stop()
    store = server.open()
    try:
        yield store
    finally:
        store.close()
        server.start()


def a_season(store: Store) -> None:
    """Four accounts play six matches (NS win four); then East leaves a seventh."""
    for player_id in FOUR.values():
        add_player(store, player_id, player_id.upper())
    for n in range(6):
        add_table(store, f"m{n}", FOUR)
        record, winner = played(n)
        store.finish(f"m{n}", record, {"winner": winner, "totals": {"NS": 1, "EW": 2}}, 2e9 + n)
    add_table(store, "gone", FOUR)
    store.append("gone", [Step(StepKind.ACT, 1, Seat.N, "c1", ("N pass",))], first=0)
    store.close_table("gone", 2e9 + 10)


def get(server: Server, path: str) -> tuple[int, Any]:
    assert server.client is not None
    response = server.client.get(path)
    return response.status_code, response.json()


def test_a_profile_shows_ratings_history_matches_and_statistics(server: Server) -> None:
    with stopped(server) as store:
        a_season(store)
    status, profile = get(server, "/api/players/PN")
    assert status == 200
    assert profile["name"] == "PN"
    classic = profile["ratings"]["classic"]
    assert classic["matches"] == 6 and classic["provisional"] is True
    assert len(profile["history"]) == 6 and profile["history"][-1]["rating"] == classic["rating"]
    newest_first = ["gone", *(f"m{n}" for n in range(5, -1, -1))]
    assert [match["id"] for match in profile["matches"]] == newest_first
    last = profile["matches"][1]
    assert last["players"]["E"] == {"name": "PE"} and last["seat"] == "N"
    assert last["record"] == "/api/matches/m5/record" and last["rated"]["table"] == "m5"
    assert profile["matches"][0]["rated"] is None  # North stayed: only East's loss
    expected = statistics((played(n)[0], "N") for n in range(5, -1, -1))
    assert profile["statistics"] == expected and expected["matches"] == 6
    assert sum(kind["taken"] for kind in expected["contracts"].values()) > 0


def test_the_one_who_left_shows_the_loss_on_their_profile(server: Server) -> None:
    with stopped(server) as store:
        a_season(store)
    _, east = get(server, "/api/players/PE")
    assert east["matches"][0]["rated"]["table"] == "gone"
    assert east["ratings"]["classic"]["matches"] == 7


def test_a_deleted_player_has_no_profile_and_shows_as_deleted_in_others_matches(
    server: Server,
) -> None:
    with stopped(server) as store:
        a_season(store)
        with store._transaction() as run:
            run(
                "UPDATE players SET name = '', name_key = 'deleted:pe', deleted = 1 WHERE id = 'pe'"
            )
    assert get(server, "/api/players/PE") == (404, {"error": "no player is named 'PE'"})
    _, north = get(server, "/api/players/PN")
    assert north["matches"][1]["players"]["E"] == {"deleted": True}
    _, board = get(server, "/api/leaderboard")
    assert "PE" not in [player["name"] for player in board["players"]]


def test_the_leaderboard_lists_players_with_enough_rated_matches_best_first(
    server: Server,
) -> None:
    with stopped(server) as store:
        a_season(store)
        add_player(store, "new", "Newcomer")
        add_table(store, "n1", {**FOUR, "N": "new"})
        store.finish("n1", played(0)[0], {"winner": "NS"}, 2e9 + 20)
    status, board = get(server, "/api/leaderboard?preset=classic&period=all")
    assert status == 200 and board["least"] == LEADERBOARD_MATCHES
    names = [player["name"] for player in board["players"]]
    assert sorted(names) == ["PE", "PN", "PS", "PW"]
    ratings = [player["rating"] for player in board["players"]]
    assert ratings == sorted(ratings, reverse=True)
    assert board["players"][0]["rank"] == 1 and board["next"] is None
    assert board["players"][0]["profile"] == f"/players/{names[0]}"
    assert get(server, "/api/leaderboard?preset=federation")[1]["players"] == []
    assert get(server, "/api/leaderboard?offset=2")[1]["players"][0]["rank"] == 3


def test_the_months_leaderboard_counts_the_matches_of_the_last_30_days(server: Server) -> None:
    with stopped(server) as store:
        a_season(store)  # played at 2e9 s, in 2033: in the future of the test's clock
    _, month = get(server, "/api/leaderboard?period=month")
    assert len(month["players"]) == 4
    assert server.hall is not None
    server.hall.clock = lambda: 2e9 + 31 * 24 * 3600
    assert get(server, "/api/leaderboard?period=month")[1]["players"] == []


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("preset=tournament", "unknown preset (known: classic, federation)"),
        ("period=week", "unknown period (known: all, month)"),
        ("offset=-1", "offset is a whole number from 0 to 100000"),
        ("offset=ten", "offset is a whole number from 0 to 100000"),
        ("offset=100001", "offset is a whole number from 0 to 100000"),
    ],
)
def test_a_bad_leaderboard_query_is_one_line_and_a_400(
    server: Server, query: str, error: str
) -> None:
    assert get(server, f"/api/leaderboard?{query}") == (400, {"error": error})


@pytest.mark.parametrize("name", ["nobody", "x" * 65, "%00"])
def test_an_unknown_name_is_a_404_for_the_profile_and_its_page(server: Server, name: str) -> None:
    status, answer = get(server, f"/api/players/{name}")
    assert status == 404 and answer["error"].startswith("no player is named ")
    assert server.client is not None
    page = server.client.get(f"/players/{name}")
    assert page.status_code == 404 and "profile.js" in page.text


def test_the_pages_are_served_in_both_languages(server: Server) -> None:
    with stopped(server) as store:
        a_season(store)
    assert server.client is not None
    for path in ("/players/PN", "/leaderboard"):
        for lang, direction in (("en", "ltr"), ("ar", "rtl")):
            page = server.client.get(f"{path}?lang={lang}")
            assert page.status_code == 200
            assert f'<html lang="{lang}" dir="{direction}">' in page.text


def test_a_match_played_out_at_a_server_rates_its_account_once(server: Server) -> None:
    """South is an account's seat, the others the heuristic bots: the match the hall finishes
    is rated as it is stored, and the profile shows it."""
    client, store = server.client, stored(server)
    assert client is not None
    add_player(store, "ps", "Saad")
    created = create(client, names={"S": "Saad"})
    table, token = created["table"], created["seats"]["S"]["token"]
    with store._transaction() as run:
        run("INSERT INTO seat_players (table_id, seat, player_id) VALUES (?, 'S', 'ps')", (table,))
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket:
        south = Seen(socket)
        for _ in range(3000):
            message = south.until(my_turn("S"))
            if message["type"] == "hand-over":
                if message["match"]["winner"] is not None:
                    break
                south.send({"type": "next", "id": f"n{message['v']}"})
                continue
            south.act(message["view"]["legal"][0])
    won = message["match"]["winner"] == "NS"
    (change,) = store.rating_changes("ps")
    assert change.table_id == table and (change.after.mu > change.before.mu) == won
    _, profile = get(server, "/api/players/Saad")
    assert profile["matches"][0]["id"] == table and profile["matches"][0]["won"] == won
    assert profile["statistics"]["matches"] == 1

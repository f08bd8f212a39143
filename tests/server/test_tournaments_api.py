"""The tournaments over HTTP (``docs/players-api.md``, "Tournaments"), on SQLite and
PostgreSQL: organised, pairs registered and accepted, started by the organiser, each round's
tables made as real tables with each player's own seat link and a link to watch, each table's
end scored and the next round paired, standings read by a spectator; a restart in the middle
of a round loses nothing; every bad input one line with its 4xx."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import Server
from helpers import wait_for
from social_accounts import Account, add_player
from starlette.testclient import TestClient

from baloot.server.seating import token_digest


def client(server: Server) -> TestClient:
    assert server.client is not None
    return server.client


def accounts(server: Server, count: int) -> list[Account]:
    assert server.hall is not None
    return [add_player(server.hall.store, f"Player {n}") for n in range(count)]


def organise(server: Server, me: Account, **body: Any) -> Any:
    asked = {"name": "Friday cup", "preset": "classic", "rounds": 2, **body}
    return client(server).post("/api/tournaments", json=asked, headers=me.headers())


def read(server: Server, tid: str, me: Account | None = None) -> dict[str, Any]:
    answer = client(server).get(f"/api/tournaments/{tid}", headers=me.headers() if me else {})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def enter(server: Server, tid: str, me: Account, partner: Account) -> str:
    asked = client(server).post(
        f"/api/tournaments/{tid}/pairs", json={"partner": partner.name}, headers=me.headers()
    )
    assert asked.status_code == 201, asked.text
    (pair,) = [p for p in asked.json()["pairs"] if p["mine"] and p["state"] == "asked"]
    seen = read(server, tid, partner)
    assert [p["id"] for p in seen["pairs"] if p["asks_me"]] == [pair["id"]]
    accepted = client(server).post(
        f"/api/tournaments/{tid}/pairs/{pair['id']}/accept", headers=partner.headers()
    )
    assert accepted.status_code == 200, accepted.text
    return str(pair["id"])


def end_table(server: Server, table_id: str, winner: str) -> None:
    """The table's match ends as the hall's finish transaction ends it."""
    assert server.hall is not None
    totals = {"NS": 152, "EW": 90} if winner == "NS" else {"NS": 90, "EW": 152}
    server.hall.store.finish(table_id, "record", {"winner": winner, "totals": totals}, 0.0)


def config_of(server: Server, table_id: str) -> dict[str, Any]:
    """The stored configuration of a table."""
    assert server.hall is not None
    kept = server.hall.store.table_config(table_id)
    assert kept is not None, table_id
    config: dict[str, Any] = json.loads(kept[1])
    return config


def started(server: Server) -> tuple[str, list[Account], Account]:
    """A tournament of two rounds, four pairs entered, started; its id, the eight players
    and the organiser (the first of them)."""
    people = accounts(server, 8)
    made = organise(server, people[0])
    assert made.status_code == 201, made.text
    tid = str(made.json()["tournament"]["id"])
    for n in range(0, 8, 2):
        enter(server, tid, people[n], people[n + 1])
    answer = client(server).post(f"/api/tournaments/{tid}/start", headers=people[0].headers())
    assert answer.status_code == 200, answer.text
    return tid, people, people[0]


def test_a_tournament_is_played_round_by_round_at_real_tables(server: Server) -> None:
    tid, people, _ = started(server)
    listed = client(server).get("/api/tournaments").json()["tournaments"]
    assert [(t["id"], t["state"], t["round"], t["pairs"]) for t in listed] == [
        (tid, "running", 1, 4)
    ]
    for round_no in (1, 2):
        spectator = read(server, tid)
        current = spectator["current"]
        assert current["round"] == round_no and len(current["tables"]) == 2
        for table in current["tables"]:
            assert table["watch"] == f"/t/{table['table']}" and table["url"] is None
            config = config_of(server, table["table"])
            names = {
                **dict(zip("NS", table["ns"]["players"], strict=True)),
                **dict(zip("EW", table["ew"]["players"], strict=True)),
            }
            assert config["players"] == names and sorted(config["humans"]) == list("ENSW")
        for me in people:
            mine = [t for t in read(server, tid, me)["current"]["tables"] if t["url"]]
            assert len(mine) == 1, me.name
            table_id, token = mine[0]["url"].removeprefix("/t/").split("?token=")
            config = config_of(server, table_id)
            assert config["tokens"][mine[0]["seat"]] == token_digest(token)
            assert config["players"][mine[0]["seat"]] == me.name
        for table in current["tables"]:
            end_table(server, table["table"], "NS")
    final = read(server, tid)
    assert final["tournament"]["state"] == "over"
    scores = [row["score"] for row in final["standings"]]
    assert sorted(scores, reverse=True) == scores and sum(scores) == 8
    assert [row["rank"] for row in final["standings"]] == [1, 2, 3, 4]
    assert {"buchholz", "sonneborn_berger", "seed", "players"} <= set(final["standings"][0])


def test_the_next_round_is_seated_though_nobody_reads_the_tournament(server: Server) -> None:
    tid, _, _ = started(server)
    assert server.hall is not None
    store = server.hall.store

    def tables_of(round_no: int) -> list[str | None]:
        kept = store.tournament(tid)
        assert kept is not None
        return [g.table_id for g in kept.games if g.round == round_no and g.ew is not None]

    first = tables_of(1)
    assert len(first) == 2 and None not in first  # made as the organiser started it
    for table_id in first:
        end_table(server, str(table_id), "EW")
    # Paired in the transaction that ended the last table; its tables made by the server's
    # own duty, with no request about the tournament.
    assert wait_for(lambda: len(tables_of(2)) == 2 and None not in tables_of(2))


def test_a_restart_in_the_middle_of_a_round_loses_nothing(server: Server) -> None:
    tid, people, _ = started(server)
    first = read(server, tid, people[2])
    end_table(server, first["current"]["tables"][0]["table"], "EW")
    server.restart()
    again = read(server, tid, people[2])
    assert again["current"] == {
        **first["current"],
        "tables": [
            {**first["current"]["tables"][0], "ns_points": 0.0, "ew_points": 2.0},
            first["current"]["tables"][1],
        ],
    }
    assert again["pairs"] == first["pairs"]
    mine = next(t for t in again["current"]["tables"] if t["url"])
    assert client(server).get(mine["url"]).status_code == 200
    end_table(server, again["current"]["tables"][1]["table"], "NS")
    assert read(server, tid)["current"]["round"] == 2


def test_late_entry_and_withdrawal_over_http(server: Server) -> None:
    tid, _, _ = started(server)
    assert server.hall is not None
    late = [add_player(server.hall.store, f"Late {n}") for n in range(2)]
    pair = enter(server, tid, late[0], late[1])
    gone = client(server).delete(f"/api/tournaments/{tid}/pairs/{pair}", headers=late[1].headers())
    assert gone.status_code == 200
    (row,) = [p for p in gone.json()["pairs"] if p["id"] == pair]
    assert (row["joined"], row["withdrawn"]) == (2, 2)


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ({"format": "duplicate"}, "duplicate rounds are not served yet"),
        ({"format": "bridge"}, "format is match or duplicate"),
        ({"rounds": 0}, "rounds is a whole number from 1 to 15"),
        ({"rounds": True}, "rounds is a whole number from 1 to 15"),
        ({"preset": "poker"}, "preset is one of classic, federation"),
        ({"name": " "}, "a tournament's name is text"),
        ({"name": "x" * 61}, "a tournament's name is printable, at most 60 characters"),
        ({"timer": 7}, "timer is null, 10, 15, 30 or 60 (seconds)"),
    ],
)
def test_a_bad_tournament_is_one_clear_line(server: Server, body: Any, line: str) -> None:
    (me,) = accounts(server, 1)
    answer = organise(server, me, **body)
    assert (answer.status_code, answer.json()) == (400, {"error": line})


def test_changes_need_the_session_and_its_csrf_header(server: Server) -> None:
    me, other, third = accounts(server, 3)
    anonymous = client(server).post("/api/tournaments", json={"name": "x", "rounds": 1})
    assert (anonymous.status_code, anonymous.json()) == (401, {"error": "sign in first"})
    no_csrf = client(server).post(
        "/api/tournaments", json={"name": "x", "rounds": 1}, headers=me.headers(csrf=False)
    )
    assert no_csrf.status_code == 403
    tid = organise(server, me).json()["tournament"]["id"]
    path = f"/api/tournaments/{tid}"
    cases = [
        (
            client(server).post(f"{path}/start", headers=other.headers()),
            403,
            "only the organiser starts the tournament",
        ),
        (
            client(server).post(f"{path}/start", headers=me.headers()),
            409,
            "a tournament starts with two pairs entered or more",
        ),
        (
            client(server).post(f"{path}/pairs", json={"partner": "nobody"}, headers=me.headers()),
            404,
            "no such player",
        ),
        (
            client(server).post(f"{path}/pairs", json=["x"], headers=me.headers()),
            400,
            'the request names your partner: {"partner": NAME}',
        ),
        (
            client(server).post(f"{path}/pairs/abc/accept", headers=third.headers()),
            404,
            "no such pair asks you to be a partner",
        ),
        (
            client(server).delete(f"{path}/pairs/abc", headers=third.headers()),
            404,
            "no such pair of yours",
        ),
        (client(server).get("/api/tournaments/nope!"), 404, "no such tournament"),
        (client(server).get("/api/tournaments/abcdef"), 404, "no such tournament"),
    ]
    for answer, status, line in cases:
        assert (answer.status_code, answer.json()) == (status, {"error": line})


def test_the_pages_are_served_in_both_languages(server: Server) -> None:
    for path in ("/tournaments", "/tournaments/abc"):
        for lang, direction in (("en", "ltr"), ("ar", "rtl")):
            page = client(server).get(f"{path}?lang={lang}")
            assert page.status_code == 200
            assert f'lang="{lang}"' in page.text and f'dir="{direction}"' in page.text

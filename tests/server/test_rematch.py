"""A rematch (``POST /api/tables/ID/rematch``, :mod:`baloot.server.rematch`): each person of a
finished match reaches the one new table with their own token, and nobody else can make it."""

from __future__ import annotations

from conftest import Opener, Server
from spec_example import ACTIONS, record_text
from test_server import create

from baloot.server.journal import TableConfig
from baloot.server.rematch import rematch_id
from baloot.server.seating import token_digest

SOUTH, NORTH = "south-token-of-the-finished-match", "north-token-of-the-finished-match"
PLAYERS = {"N": "N", "E": "bot:heuristic", "S": "Saad", "W": "bot:random"}
RULES = {"preset": "classic", "must_undertrump": True}


def finished_match(opener: Opener, table: str) -> None:
    """A finished match kept in storage, South (Saad) and North people, with a turn timer."""
    store = opener()
    tokens = {"S": token_digest(SOUTH), "N": token_digest(NORTH)}
    config = TableConfig(table, PLAYERS, ("N", "S"), RULES, 7, 30, True, tokens, 1.7e9)
    store.create(config)
    store.finish(table, record_text(ACTIONS), {"players": PLAYERS, "winner": None}, when=1.7e9)


def test_each_person_of_a_finished_match_reaches_its_rematch_with_their_own_token(
    server: Server, opener: Opener
) -> None:
    finished_match(opener, "done1")
    client = server.client
    assert client is not None
    assert "rematch" not in client.get("/api/tables/done1").json()

    made = client.post("/api/tables/done1/rematch", json={"token": SOUTH})
    assert made.status_code == 201
    again = made.json()["table"]
    assert again == rematch_id("done1")
    assert client.get("/api/tables/done1").json()["rematch"] == again
    # The same seats, names, rules, timer and publicity, a new match in play.
    described = client.get(f"/api/tables/{again}").json()
    assert described["players"] == PLAYERS and sorted(described["humans"]) == ["N", "S"]
    assert (described["rules"], described["timer"], described["public"]) == (RULES, 30, True)
    assert described["status"] == "playing"
    # North, at another browser, asks too: the same table, made once.
    joined = client.post("/api/tables/done1/rematch", json={"token": NORTH})
    assert (joined.status_code, joined.json()) == (
        200,
        {"table": again, "fair": made.json()["fair"]},
    )
    # Each person's own token is their seat at the rematch.
    for token, seat in ((SOUTH, "S"), (NORTH, "N")):
        with client.websocket_connect(f"/ws/tables/{again}?token={token}") as socket:
            first = socket.receive_json()
            assert first["type"] == "snapshot"
            dealt = first if first["view"] else socket.receive_json()  # after its wait
            assert dealt["view"]["seat"] == seat


def test_a_rematch_is_refused_to_a_stranger_before_the_end_and_for_no_such_table(
    server: Server, opener: Opener
) -> None:
    finished_match(opener, "done2")
    client = server.client
    assert client is not None
    for body in ({"token": "a guess"}, {}, {"token": 7}, {"token": "x" * 5000}):
        refused = client.post("/api/tables/done2/rematch", json=body)
        assert refused.status_code == 403, body
        assert refused.json() == {"error": "token is not a seat's token of this table"}
    assert client.post("/api/tables/done2/rematch", json=[SOUTH]).status_code == 400
    assert client.post("/api/tables/done2/rematch", content=b"{").status_code == 400
    assert client.post("/api/tables/nothing/rematch", json={"token": SOUTH}).status_code == 404
    assert client.post("/api/tables/no%20such/rematch", json={"token": SOUTH}).status_code == 404
    assert "rematch" not in client.get("/api/tables/done2").json()

    created = create(client)
    playing = client.post(
        f"/api/tables/{created['table']}/rematch", json={"token": created["seats"]["S"]["token"]}
    )
    assert (playing.status_code, playing.json()) == (409, {"error": "the match is not over"})

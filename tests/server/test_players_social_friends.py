"""Friends over HTTP (``docs/players-api.md``, "Quick match and friends"): asking, accepting,
removing, blocking and unblocking; a blocker is answered as a name nobody has; who is online;
invitations to a seat; every change needs the session and its CSRF header."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Server
from social_accounts import Account, add_player
from starlette.testclient import TestClient


def accounts(server: Server, *names: str) -> list[Account]:
    assert server.hall is not None
    return [add_player(server.hall.store, name) for name in names]


def client(server: Server) -> TestClient:
    assert server.client is not None
    return server.client


def state(server: Server, me: Account) -> dict[str, Any]:
    answer = client(server).get("/api/friends", headers=me.headers())
    assert answer.status_code == 200
    return {
        friend["name"]: (friend["state"], friend["online"]) for friend in answer.json()["friends"]
    }


def ask(server: Server, me: Account, name: str, path: str = "friends") -> Any:
    return client(server).post(f"/api/{path}/{name}", headers=me.headers())


def test_asking_then_being_asked_back_makes_friends_who_are_online(server: Server) -> None:
    saad, noura = accounts(server, "Saad", "Noura")
    assert ask(server, saad, "Noura").json() == {"name": "Noura", "state": "asked"}
    assert state(server, saad) == {"Noura": ("asked", False)}
    assert state(server, noura) == {"Saad": ("asking", False)}
    assert ask(server, noura, "saad").json()["state"] == "friends"  # names found case-blind
    assert state(server, saad) == {"Noura": ("friends", True)}  # Noura asked just now


def test_asking_twice_is_no_news_and_removing_ends_it_either_way(server: Server) -> None:
    saad, noura = accounts(server, "Saad", "Noura")
    ask(server, saad, "Noura")
    assert ask(server, saad, "Noura").json()["state"] == "asked"
    answer = client(server).delete("/api/friends/Saad", headers=noura.headers())
    assert answer.status_code == 200
    assert state(server, saad) == {} and state(server, noura) == {}


def test_asking_a_blocker_is_answered_as_asking_nobody(server: Server) -> None:
    saad, noura = accounts(server, "Saad", "Noura")
    ask(server, saad, "Noura")
    assert ask(server, noura, "Saad", "blocks").json() == {"name": "Saad", "state": "blocked"}
    blocked = ask(server, saad, "Noura")
    nobody = ask(server, saad, "Nobody")
    assert (blocked.status_code, blocked.json()) == (nobody.status_code, nobody.json())
    assert nobody.json() == {"error": "no such player"} and nobody.status_code == 404
    assert state(server, saad) == {}
    assert state(server, noura) == {"Saad": ("blocked", False)}
    refused = ask(server, noura, "Saad")
    assert (refused.status_code, refused.json()["error"]) == (
        409,
        "you block this player: unblock them first",
    )
    assert client(server).delete("/api/blocks/Saad", headers=noura.headers()).status_code == 200
    assert ask(server, saad, "Noura").json()["state"] == "asked"


def test_blocking_ends_a_friendship(server: Server) -> None:
    saad, noura = accounts(server, "Saad", "Noura")
    ask(server, saad, "Noura")
    ask(server, noura, "Saad")
    ask(server, saad, "Noura", "blocks")
    assert state(server, saad) == {"Noura": ("blocked", False)}
    assert state(server, noura) == {}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", "/api/friends/Noura"),
        ("delete", "/api/friends/Noura"),
        ("post", "/api/blocks/Noura"),
        ("delete", "/api/blocks/Noura"),
        ("post", "/api/invites/abc/accept"),
        ("delete", "/api/queue"),
        ("post", "/api/queue/bots"),
    ],
)
def test_a_change_without_the_csrf_header_is_a_403_and_without_a_session_a_401(
    shared_server: Server, shared_friends: Friends, method: str, path: str
) -> None:
    saad = shared_friends[0]
    answer = getattr(client(shared_server), method)(path, headers=saad.headers(csrf=False))
    assert (answer.status_code, answer.json()) == (
        403,
        {"error": "the form is out of date: reload the page"},
    )
    answer = getattr(client(shared_server), method)(path)
    assert (answer.status_code, answer.json()) == (401, {"error": "sign in first"})


def test_reading_needs_a_session(server: Server) -> None:
    for path in ("/api/friends", "/api/invites", "/api/queue"):
        answer = client(server).get(path)
        assert (answer.status_code, answer.json()) == (401, {"error": "sign in first"})


@pytest.mark.parametrize(
    ("name", "status", "line"),
    [
        ("x" * 65, 400, "a player's name is printable, at most 64 characters"),
        ("Saad", 400, "that is your own name"),
        ("Nobody", 404, "no such player"),
    ],
)
def test_a_bad_name_is_one_clear_line(
    shared_server: Server, shared_friends: Friends, name: str, status: int, line: str
) -> None:
    answer = ask(shared_server, shared_friends[0], name)
    assert (answer.status_code, answer.json()) == (status, {"error": line})


#: Saad and Noura, friends, and Other, who is no friend of theirs.
Friends = tuple[Account, Account, Account]


def friends(server: Server) -> Friends:
    saad, noura, other = accounts(server, "Saad", "Noura", "Other")
    ask(server, saad, "Noura")
    ask(server, noura, "Saad")
    return saad, noura, other


@pytest.fixture(scope="module")
def shared_friends(module_server: Server) -> Friends:
    """:func:`friends` on the module's server, once for the tests that change nothing of
    theirs (``shared_server``)."""
    return friends(module_server)


def new_table(server: Server) -> dict[str, Any]:
    answer = client(server).post(
        "/api/tables", json={"seats": {"S": "human", "N": "human", "E": "bot:random"}}
    )
    assert answer.status_code == 201
    return dict(answer.json())


def invite(server: Server, me: Account, **body: Any) -> Any:
    return client(server).post("/api/invites", json=body, headers=me.headers())


def test_an_invitation_gives_a_friend_the_seat_in_one_request(server: Server) -> None:
    saad, noura, _ = friends(server)
    table = new_table(server)
    token = table["seats"]["N"]["token"]
    answer = invite(server, saad, table=table["table"], seat="N", friend="Noura", token=token)
    assert answer.status_code == 201
    invite_id = answer.json()["invite"]["id"]
    listed = client(server).get("/api/invites", headers=noura.headers()).json()
    assert [(i["id"], i["from"], i["seat"]) for i in listed["received"]] == [
        (invite_id, "Saad", "N")
    ]
    assert listed["sent"] == []
    sent = client(server).get("/api/invites", headers=saad.headers()).json()["sent"]
    assert [i["to"] for i in sent] == ["Noura"]
    taken = client(server).post(f"/api/invites/{invite_id}/accept", headers=noura.headers())
    assert taken.status_code == 200
    assert taken.json() == {"table": table["table"], "seat": "N", "url": table["seats"]["N"]["url"]}
    again = client(server).post(f"/api/invites/{invite_id}/accept", headers=noura.headers())
    assert (again.status_code, again.json()) == (404, {"error": "no such invitation"})
    assert client(server).get("/api/invites", headers=noura.headers()).json()["received"] == []
    # The seat is Noura's now: nobody else is invited to it.
    answer = invite(server, saad, table=table["table"], seat="N", friend="Noura", token=token)
    assert (answer.status_code, answer.json()) == (409, {"error": "that seat is taken"})


@pytest.mark.parametrize(
    ("change", "status", "line"),
    [
        ({"token": "guess"}, 403, "only whoever holds the seat's link may give it"),
        ({"seat": "E"}, 409, "that seat is a bot's: only a human seat is given"),
        ({"seat": "X"}, 400, "seat is one of N, E, S, W (or left out: the token's seat)"),
        ({"seat": "S"}, 403, "only whoever holds the seat's link may give it"),
        ({"table": "nothere"}, 404, "no such table in play"),
        ({"friend": "Other"}, 404, "no such friend"),
        ({"friend": 7}, 400, "a player's name is text"),
        ({"token": None}, 400, '"token" is text of 1 to 64 characters'),
    ],
)
def test_a_bad_invitation_is_one_clear_line(
    shared_server: Server,
    shared_friends: Friends,
    change: dict[str, Any],
    status: int,
    line: str,
) -> None:
    saad, _, _ = shared_friends
    table = new_table(shared_server)
    body = {"table": table["table"], "seat": "N", "friend": "Noura"}
    body |= {"token": table["seats"]["N"]["token"], **change}
    answer = invite(shared_server, saad, **body)
    assert (answer.status_code, answer.json()) == (status, {"error": line})


def test_an_invitation_without_a_seat_gives_the_seat_of_its_token(server: Server) -> None:
    saad, _, _ = friends(server)
    table = new_table(server)
    token = table["seats"]["S"]["token"]
    answer = invite(server, saad, table=table["table"], friend="Noura", token=token)
    assert answer.status_code == 201 and answer.json()["invite"]["seat"] == "S"


def test_an_invitation_to_someone_else_cannot_be_accepted(server: Server) -> None:
    saad, _, other = friends(server)
    table = new_table(server)
    token = table["seats"]["N"]["token"]
    made = invite(server, saad, table=table["table"], seat="N", friend="Noura", token=token)
    invite_id = made.json()["invite"]["id"]
    answer = client(server).post(f"/api/invites/{invite_id}/accept", headers=other.headers())
    assert (answer.status_code, answer.json()) == (404, {"error": "no such invitation"})


def test_a_body_that_is_not_json_is_a_400(server: Server) -> None:
    (saad,) = accounts(server, "Saad")
    answer = client(server).post("/api/invites", content=b"{", headers=saad.headers())
    assert (answer.status_code, answer.json()) == (400, {"error": "the request body is not JSON"})

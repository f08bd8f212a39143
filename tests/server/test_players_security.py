"""What no request may learn or do (``docs/players-api.md``): every route of the application,
walked as a guest and as two players, answers no password hash, no session (a cookie's token
or its SHA-256 id), no CSRF token but the requester's own, no seat token another holds, no
hidden card and no digest of a token; forged, replayed, expired and malformed cookies are a
guest's; another session's CSRF token changes nothing; another player's id is never acted on;
a sign-in tells an unknown name from a wrong password neither by its answer nor by the work it
does; and every bad input is one line and a 4xx, never a 5xx. On SQLite and on PostgreSQL."""

from __future__ import annotations

import functools
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx2 as httpx
import pytest
from argon2 import PasswordHasher
from conftest import Server
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.testclient import TestClient

from baloot.core.seats import Seat
from baloot.server.players import passwords
from baloot.server.players.sessions import COOKIE, LIFETIME, new_token, session_id
from baloot.view.seat_view import SeatView

PASSWORD = "a long secret"
WRONG = "not the secret"


@dataclass
class Who:
    """A requester of the walk: their name, cookie's token and CSRF token (None: a guest),
    and the seat tokens they were given (theirs to see)."""

    label: str
    token: str | None = None
    csrf: str | None = None
    seats: set[str] = field(default_factory=set)

    def headers(self) -> dict[str, str]:
        if self.token is None:
            return {}
        return {"cookie": f"{COOKIE}={self.token}", "x-csrf-token": self.csrf or ""}


@dataclass
class World:
    """The players and tables of a walk: Alice and Bob are friends, Carol is neither's; Bob
    is an operator, so that the walk reads the operators' pages as one too."""

    client: TestClient
    alice: Who
    bob: Who
    carol: Who
    ids: dict[str, str]  # name: player id
    mine: str  # Alice's table in play: she holds every seat's link; Bob took North
    other: str  # a table in play nobody of the walk holds a seat of (its hidden cards)
    other_tokens: dict[str, str]
    invite: str  # Alice's invitation of Bob to West of a third table


def client_of(server: Server) -> TestClient:
    assert server.client is not None
    return server.client


def request(client: TestClient, method: str, path: str, who: Who, **more: Any) -> httpx.Response:
    """A request as ``who`` alone: the client keeps no cookie between requests."""
    client.cookies.clear()
    headers = {**who.headers(), **more.pop("headers", {})}
    try:
        return client.request(method, path, headers=wire(headers), **more)
    finally:
        client.cookies.clear()


def wire(headers: dict[str, str]) -> list[tuple[bytes, bytes]]:
    """Headers as they go on the wire: their values in UTF-8, whatever they hold."""
    return [(key.encode("ascii"), value.encode("utf-8")) for key, value in headers.items()]


@functools.cache
def kept_hash() -> str:
    """The argon2id hash of :data:`PASSWORD`, made once for every player of the tests, at the
    tests' cost (``conftest``): verifying it at every sign-in is then cheap too."""
    return passwords._HASHER.hash(PASSWORD)


def register(server: Server, name: str) -> Who:
    """A player with the password :data:`PASSWORD`, signed in as signing in does (made in
    the database: one argon2 hash for them all)."""
    assert server.hall is not None
    store, now = server.hall.store, server.hall.clock()
    player = store.register(name, kept_hash(), now)
    token, csrf = new_token(), new_token()
    kept = session_id(token)
    assert kept is not None
    store.open_session(kept, player.id, csrf, now, now + LIFETIME)
    return Who(name, token, csrf)


def create(client: TestClient, seats: dict[str, str]) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"seats": seats})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def hidden_cards(server: Server, table_id: str) -> list[set[str]]:
    """The cards each seat of a table in play holds, unseen by the others."""
    assert server.hall is not None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        live = server.hall.tables.get(table_id)
        match = None if live is None else live.room.table.match
        if match is not None and match.hands:
            hand = match.hand
            held = [set(SeatView.of(hand, seat).to_json()["hand"]) for seat in Seat]
            if sum(map(len, held)) >= 16:
                return held
        time.sleep(0.05)
    raise AssertionError(f"table {table_id} dealt no hand")


@pytest.fixture
def world(server: Server) -> World:
    """A world of this test's own, for a test that changes it."""
    return built_world(server)


@pytest.fixture(scope="module")
def shared_world(module_server: Server) -> World:
    """One world for the module's tests that change nothing in it, its deals seeded by the
    module's name."""
    module_server.deals.seed(__name__)
    return built_world(module_server)


def built_world(server: Server) -> World:
    """Alice, Bob and Carol, friends and seated, Bob an operator, and the tables and the
    invitation between them."""
    # An absent human is waited for: the hands stay dealt and hidden while the walk runs.
    server.options["absent_wait"] = 3600.0
    client = server.restart()
    alice, bob, carol = (register(server, name) for name in ("Alice", "Bob", "Carol"))
    request(client, "POST", "/api/friends/Bob", alice)
    request(client, "POST", "/api/friends/Alice", bob)
    four = {"S": "human", "N": "human", "E": "bot:random", "W": "bot:random"}
    mine = create(client, four)
    alice.seats |= {seat["token"] for seat in mine["seats"].values()}
    links = [{"table": mine["table"], "token": mine["seats"]["S"]["token"]}]
    assert request(client, "POST", "/api/account/seats", alice, json={"tokens": links}).is_success
    body = {"table": mine["table"], "friend": "Bob", "token": mine["seats"]["N"]["token"]}
    made = request(client, "POST", "/api/invites", alice, json=body)
    accepted = request(client, "POST", f"/api/invites/{made.json()['invite']['id']}/accept", bob)
    assert accepted.status_code == 200, accepted.text
    bob.seats.add(mine["seats"]["N"]["token"])
    third = create(client, {"W": "human", "N": "bot:random", "E": "bot:random", "S": "bot:random"})
    alice.seats.add(third["seats"]["W"]["token"])
    bob.seats.add(third["seats"]["W"]["token"])  # his once he accepts, as the walk does
    body = {"table": third["table"], "friend": "Bob", "token": third["seats"]["W"]["token"]}
    invite = request(client, "POST", "/api/invites", alice, json=body).json()["invite"]["id"]
    other = create(client, four)
    # Carol waits in the quick match and is seated with bots: her seat's token is kept.
    assert request(client, "POST", "/api/queue", carol, json={}).is_success
    assert request(client, "POST", "/api/queue/bots", carol).json()["state"] == "seated"
    assert server.hall is not None
    ids = {name: server.hall.store.player_named(name).id for name in ("Alice", "Bob", "Carol")}  # type: ignore[union-attr]
    assert server.hall.store.add_operator(ids["Bob"], time.time())
    return World(
        client,
        alice,
        bob,
        carol,
        ids,
        mine["table"],
        other["table"],
        {seat: kept["token"] for seat, kept in other["seats"].items()},
        invite,
    )


# --------------------------------------------------------------------------- the secrets


def rows(server: Server, query: str) -> list[tuple[Any, ...]]:
    assert server.hall is not None
    with server.hall.store._transaction() as run:
        return list(run(query))


def secrets_of(server: Server, world: World) -> dict[str, str]:
    """Every secret the database and the tables hold, named for the message of a failure:
    hashes, sessions' ids, CSRF tokens, seat tokens (kept raw for a queue or an invitation,
    given at a table's making) and their digests."""
    found: dict[str, str] = {}
    for (kept,) in rows(server, "SELECT password FROM players"):
        if kept:
            found[kept] = "a password's hash"
    for kept, csrf in rows(server, "SELECT id, csrf FROM sessions"):
        found[kept] = "a session's id"
        found[csrf] = "a CSRF token"
    for (token,) in rows(server, "SELECT token FROM queue WHERE token IS NOT NULL"):
        found[token] = "a seat's token (the quick match's)"
    for (token,) in rows(server, "SELECT token FROM invites"):
        found[token] = "a seat's token (an invitation's)"
    for token in world.other_tokens.values():
        found[token] = "a seat's token"
    for token in world.alice.seats | world.bob.seats:
        found[token] = "a seat's token"
    for (config,) in rows(server, "SELECT config FROM tables"):
        for digest in json.loads(config).get("tokens", {}).values():
            found[digest] = "a seat token's digest"
    for who in (world.alice, world.bob, world.carol):
        assert who.token is not None
        found[who.token] = "a session's cookie"
    return found


def allowed_for(who: Who, response: httpx.Response, server: Server) -> set[str]:
    """What ``who`` may see in ``response``: their own CSRF token and seats, and a session
    the answer itself opened for them (its cookie, its CSRF token)."""
    own = {who.csrf, *who.seats} - {None}
    for cookie in response.headers.get_list("set-cookie"):
        token = cookie.split(";", 1)[0].removeprefix(f"{COOKIE}=")
        kept = session_id(token) if token else None
        if kept is not None:
            own |= {csrf for (csrf,) in rows_of(server, kept)}
    return {str(secret) for secret in own}


def rows_of(server: Server, kept: str) -> list[tuple[Any, ...]]:
    assert server.hall is not None
    with server.hall.store._transaction() as run:
        return list(run("SELECT csrf FROM sessions WHERE id = ?", (kept,)))


def shown_cards(value: Any, hands: list[set[str]]) -> bool:
    """Whether a JSON value holds a list with two cards or more of one seat's hidden hand."""
    if isinstance(value, dict):
        return any(shown_cards(item, hands) for item in value.values())
    if isinstance(value, list):
        cards = {item for item in value if isinstance(item, str)}
        if any(len(cards & hand) >= 2 for hand in hands):
            return True
        return any(shown_cards(item, hands) for item in value)
    return False


def assert_keeps_secrets(
    seen: str,
    set_cookies: list[str],
    who: Who,
    secrets: dict[str, str],
    allowed: set[str],
    hands: list[set[str]],
    what: str,
) -> None:
    for secret, kind in secrets.items():
        if secret in allowed:
            continue
        assert secret not in seen, f"{what} as {who.label} shows {kind}"
        for cookie in set_cookies:
            assert secret not in cookie or secret == who.token, f"{what} sets {kind}"
    try:
        answered = json.loads(seen.split("\n", 1)[1])
    except (ValueError, IndexError):
        return
    assert not shown_cards(answered, hands), f"{what} as {who.label} shows hidden cards"


# --------------------------------------------------------------------------- the walk

#: The bodies and queries the routes document, by method and path; {} for any other POST.
BODIES: dict[tuple[str, str], Any] = {
    ("POST", "/api/tables"): {"seats": {"S": "human", "N": "bot:random", "E": "bot:random"}},
    ("POST", "/api/tables/{table}/rematch"): {"token": "guess"},
    ("POST", "/api/words"): {"lang": "ar", "sheet": [], "hint": []},
    ("POST", "/api/account/register"): {"name": "New{n}", "password": PASSWORD},
    ("POST", "/api/account/login"): {"name": "Alice", "password": WRONG},
    ("POST", "/api/account/password"): {"old": WRONG, "new": "another secret"},
    ("POST", "/api/account/delete"): {"password": WRONG},
    ("POST", "/api/account/seats"): {"tokens": [{"table": "{other}", "token": "guess"}]},
    ("POST", "/api/invites"): {"table": "{other}", "friend": "Bob", "token": "guess"},
    ("POST", "/api/queue"): {"preset": "classic", "timer": None},
}
QUERIES: dict[str, str] = {
    "/api/tables/{table}/sheet": "?hand=1&seat=S",
    "/api/leaderboard": "?preset=classic&period=all&offset=0",
    "/api/matches": "?offset=0",
}
#: What ends a session: walked last.
LAST = ("/api/account/logout", "/api/account/delete")


def paths(template: str, world: World) -> list[str]:
    """``template`` with its parameters filled by real ids, once for each table."""
    names = {"name": "Carol", "hand": "1", "invite": world.invite}
    filled = [template]
    if "{table}" in template:
        filled = [template.replace("{table}", table) for table in (world.mine, world.other)]
    for key, value in names.items():
        filled = [path.replace("{" + key + "}", value) for path in filled]
    return filled


def body_of(method: str, template: str, world: World, number: int) -> Any:
    found = BODIES.get((method, template), {} if method == "POST" else None)
    if found is None:
        return None
    text = json.dumps(found).replace("{other}", world.other).replace("{n}", str(number))
    return json.loads(text)


def walked(world: World) -> list[tuple[str, str]]:
    """Every HTTP route's method and path template, those that end a session last."""
    app = world.client.app
    found: list[tuple[str, str]] = []
    for route in app.routes:  # type: ignore[attr-defined]
        if isinstance(route, Route):
            methods = sorted((route.methods or {"GET"}) - {"HEAD"} | {"GET"})
            found += [(method, route.path) for method in methods]
        elif isinstance(route, Mount):
            found.append(("GET", route.path + "/lobby.js"))
        else:
            assert isinstance(route, WebSocketRoute), route
    return sorted(found, key=lambda item: item[1] in LAST)


def test_no_route_shows_another_players_secrets(server: Server, world: World) -> None:
    client = world.client
    guest = Who("a guest")
    hands = hidden_cards(server, world.other)
    answers: list[tuple[Who, str, httpx.Response]] = []
    numbers = itertools.count()
    routes = walked(world)
    assert len({path for _, path in routes}) >= 30
    for method, template in routes:
        for path in paths(template, world):
            path += QUERIES.get(template, "")
            for who in (guest, world.alice, world.bob):
                body = body_of(method, template, world, next(numbers))
                more = {} if body is None else {"json": body}
                response = request(client, method, path, who, **more)
                assert response.status_code < 500, (method, path, who.label, response.text)
                answers.append((who, f"{method} {path}", response))
    for template in ("/ws/tables/{table}", "/ws/lobby"):
        for path in paths(template, world):
            for who in (guest, world.alice, world.bob):
                client.cookies.clear()
                with client.websocket_connect(path, headers=who.headers()) as socket:
                    if "tables" in template:
                        seen = json.dumps(socket.receive_json())
                        secrets = secrets_of(server, world)
                        what = f"the socket {path}"
                        assert_keeps_secrets("\n" + seen, [], who, secrets, set(), hands, what)
    statuses = {(who.label, what): response.status_code for who, what, response in answers}
    assert statuses[(world.bob.label, "GET /api/operator/screen")] == 200  # as an operator
    assert statuses[(world.alice.label, "GET /api/operator/screen")] == 403
    secrets = secrets_of(server, world)  # with the sessions and hashes the walk made
    for who, what, response in answers:
        headers = {k: v for k, v in response.headers.items() if k != "set-cookie"}
        seen = json.dumps(headers) + "\n" + response.text
        allowed = allowed_for(who, response, server)
        cookies = response.headers.get_list("set-cookie")
        assert_keeps_secrets(seen, cookies, who, secrets, allowed, hands, what)


def test_the_walk_covers_every_route_of_the_players(shared_world: World) -> None:
    covered = {path for _, path in walked(shared_world)}
    for path in (
        "/api/account/seats",
        "/api/invites/{invite}/accept",
        "/api/queue/bots",
        "/api/operator/screen",
        "/api/operator/screen/reviews",
    ):
        assert path in covered
    assert ("DELETE", "/api/friends/{name}") in walked(shared_world)


# --------------------------------------------------------------------------- cookies


def signed_in_as(client: TestClient, cookie: str | None) -> Any:
    client.cookies.clear()
    headers = {} if cookie is None else {"cookie": f"{COOKIE}={cookie}"}
    answer = client.get("/api/account", headers=wire(headers))
    assert answer.status_code == 200
    return answer.json()["player"]


#: Cookies no session has: made up, malformed, too long, not ASCII.
FORGED_COOKIES: list[str] = [
    "x" * 43,
    "A" * 42 + "=",
    "",
    "short",
    "a" * 5000,
    "é" * 43,
    '"quoted"',
    "a;b=c",
    "%00" * 20,
]


def test_a_forged_or_malformed_cookie_is_a_guest_everywhere(shared_world: World) -> None:
    client = shared_world.client
    for cookie in FORGED_COOKIES:
        assert signed_in_as(client, cookie) is None, cookie
        forged = Who("a forger", cookie, shared_world.alice.csrf)
        for method, path in [
            ("GET", "/api/friends"),
            ("POST", "/api/queue"),
            ("GET", "/api/invites"),
        ]:
            answer = request(client, method, path, forged, json={})
            assert (answer.status_code, answer.json()) == (401, {"error": "sign in first"}), cookie


def test_a_cookie_replayed_after_signing_out_or_expired_is_a_guest(
    server: Server, world: World
) -> None:
    client = world.client
    assert signed_in_as(client, world.alice.token)["name"] == "Alice"
    assert request(client, "POST", "/api/account/logout", world.alice).status_code == 200
    assert signed_in_as(client, world.alice.token) is None
    answer = request(client, "POST", "/api/friends/Carol", world.alice)
    assert answer.status_code == 401
    assert server.hall is not None
    with server.hall.store._transaction() as run:
        run("UPDATE sessions SET expires = 1")
    assert signed_in_as(client, world.bob.token) is None
    assert request(client, "GET", "/api/friends", world.bob).status_code == 401


# --------------------------------------------------------------------------- CSRF


def test_another_sessions_csrf_token_is_a_403_and_changes_nothing(shared_world: World) -> None:
    client = shared_world.client
    crossed = Who("Alice with Bob's token", shared_world.alice.token, shared_world.bob.csrf)
    friends_before = request(client, "GET", "/api/friends", shared_world.alice).json()
    asks: list[tuple[str, str, Any]] = [
        ("POST", "/api/account/logout", {}),
        ("POST", "/api/account/password", {"old": PASSWORD, "new": "another secret"}),
        ("POST", "/api/account/delete", {"password": PASSWORD}),
        ("POST", "/api/account/seats", {"tokens": []}),
        ("POST", "/api/friends/Carol", None),
        ("DELETE", "/api/friends/Bob", None),
        ("POST", "/api/blocks/Bob", None),
        ("POST", "/api/queue", {}),
        ("DELETE", f"/api/invites/{shared_world.invite}", None),
        ("POST", "/api/invites", {"table": shared_world.mine, "friend": "Bob", "token": "x"}),
    ]
    for method, path, body in asks:
        answer = request(client, method, path, crossed, **({} if body is None else {"json": body}))
        assert (answer.status_code, answer.json()) == (
            403,
            {"error": "the form is out of date: reload the page"},
        ), path
    assert request(client, "GET", "/api/friends", shared_world.alice).json() == friends_before
    assert signed_in_as(client, shared_world.alice.token)["name"] == "Alice"
    sent = request(client, "GET", "/api/invites", shared_world.alice).json()["sent"]
    assert [invite["id"] for invite in sent] == [shared_world.invite]
    assert request(client, "GET", "/api/queue", shared_world.alice).json() == {"state": None}
    client.cookies.clear()
    signed = client.post("/api/account/login", json={"name": "Alice", "password": PASSWORD})
    assert signed.status_code == 200  # the password unchanged, the account there


# --------------------------------------------------------------------------- another's id


def test_another_players_id_in_a_body_or_a_path_is_never_acted_on(
    server: Server, world: World
) -> None:
    """Every change acts as the signed-in player: an id (or a ``player`` field) is read from
    no request."""
    client = world.client
    carol_id, bob_id = world.ids["Carol"], world.ids["Bob"]
    extra = {"player": carol_id, "player_id": carol_id, "id": carol_id, "from": carol_id}
    answer = request(client, "POST", "/api/queue", world.alice, json={"preset": "classic", **extra})
    assert answer.status_code == 200 and answer.json()["state"] == "waiting"
    assert request(client, "GET", "/api/queue", world.carol).json()["state"] == "seated"
    assert request(client, "DELETE", "/api/queue", world.alice).is_success
    # An id in a path is no name: nobody is asked, nothing is blocked.
    for method, path in [("POST", "friends"), ("POST", "blocks"), ("DELETE", "friends")]:
        answer = request(client, method, f"/api/{path}/{bob_id}", world.alice, json=extra)
        assert (answer.status_code, answer.json()) == (404, {"error": "no such player"}), path
    assert [
        f["state"] for f in request(client, "GET", "/api/friends", world.bob).json()["friends"]
    ] == ["friends"]
    # Carol cannot take or drop the invitation Alice sent Bob, by its id.
    taken = request(client, "POST", f"/api/invites/{world.invite}/accept", world.carol, json=extra)
    assert (taken.status_code, taken.json()) == (404, {"error": "no such invitation"})
    assert request(client, "DELETE", f"/api/invites/{world.invite}", world.carol).is_success
    received = request(client, "GET", "/api/invites", world.bob).json()["received"]
    assert [invite["id"] for invite in received] == [world.invite]
    # The account's endpoints read no id either: Alice's password and seats are hers alone.
    body = {"old": WRONG, "new": "another secret", **extra}
    assert (
        request(client, "POST", "/api/account/password", world.carol, json=body).status_code == 401
    )
    seats = {"tokens": [], **extra}
    assert request(client, "POST", "/api/account/seats", world.carol, json=seats).json() == {
        "seats": []
    }
    assert server.hall is not None
    held = server.hall.store.seat_players_of(world.mine)
    assert held == {"S": world.ids["Alice"], "N": bob_id}


# --------------------------------------------------------------------------- sign-ins


class CountingHasher(PasswordHasher):
    """argon2's hasher, noting each hash a password is verified against."""

    def __init__(self) -> None:
        super().__init__()
        self.verified: list[str] = []

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        self.verified.append(hash if isinstance(hash, str) else hash.decode())
        return super().verify(hash, password)


@pytest.mark.parametrize("other", ["Nobody", "", "x" * 300, "Deleted", "nob ody"])
def test_a_sign_in_for_an_unknown_name_is_answered_and_worked_as_a_wrong_password(
    server: Server, world: World, monkeypatch: pytest.MonkeyPatch, other: str
) -> None:
    client = world.client
    deleted = register(server, "Deleted")
    assert request(
        client, "POST", "/api/account/delete", deleted, json={"password": PASSWORD}
    ).is_success
    counting = CountingHasher()
    monkeypatch.setattr(passwords, "_HASHER", counting)
    dummy = passwords._dummy()

    def login(name: str) -> httpx.Response:
        client.cookies.clear()
        return client.post("/api/account/login", json={"name": name, "password": WRONG})

    wrong = login("Alice")
    assert len(counting.verified) == 1 and counting.verified[0] != dummy
    unknown = login(other)
    assert counting.verified[1:] == [dummy]  # the same argon2 work, against the dummy hash
    assert (unknown.status_code, unknown.json()) == (wrong.status_code, wrong.json())
    assert wrong.json() == {"error": "wrong name or password"} and wrong.status_code == 401
    drop = {"date", "content-length"}
    assert {k: v for k, v in unknown.headers.items() if k not in drop} == {
        k: v for k, v in wrong.headers.items() if k not in drop
    }


def test_a_deleted_name_is_answered_as_a_name_nobody_ever_had(server: Server, world: World) -> None:
    client = world.client
    deleted = register(server, "Deleted")
    request(client, "POST", "/api/friends/Alice", deleted)
    assert request(
        client, "POST", "/api/account/delete", deleted, json={"password": PASSWORD}
    ).is_success
    for method, path in [
        ("GET", "/api/players/{}"),
        ("GET", "/players/{}"),
        ("POST", "/api/friends/{}"),
        ("DELETE", "/api/friends/{}"),
        ("POST", "/api/blocks/{}"),
        ("DELETE", "/api/blocks/{}"),
    ]:
        gone = request(client, method, path.format("Deleted"), world.alice)
        never = request(client, method, path.format("Nevers"), world.alice)
        assert gone.status_code == never.status_code, path
        assert gone.text.replace("Deleted", "Nevers") == never.text, path
    names = [
        friend["name"]
        for friend in request(client, "GET", "/api/friends", world.alice).json()["friends"]
    ]
    assert "Deleted" not in names and "" not in names


# --------------------------------------------------------------------------- bad input

LONE = b'"\\ud800"'
BAD_BODIES: list[bytes] = [
    b"",
    b"not json",
    b"\xff\xfe\x00{",  # not UTF-8
    b'{"name": ' + LONE + b', "password": ' + LONE + b"}",
    b'{"name": "Sa\\u0000ad", "password": "a long secret"}',
    b"[" * 100_000,
    b'{"a": "' + b"x" * 70_000 + b'"}',  # over the limit
    b"[]",
    b"null",
    b"7",
    b'{"name": [], "password": {}, "tokens": {}, "old": [], "new": 7, "preset": [],'
    b' "timer": [], "table": [], "token": {}, "friend": [], "seat": [], "lang": [],'
    b' "sheet": 7, "hint": "x", "seats": [], "rules": []}',
    b'{"name": {}, "preset": {}, "timer": "10", "seat": {}, "lang": {}, "tokens": [{"table": [],'
    b' "token": []}]}',
]


def post_routes(world: World) -> list[tuple[str, str]]:
    return [(method, path) for method, path in walked(world) if method in ("POST", "DELETE")]


def one_line_4xx(response: httpx.Response, what: str) -> None:
    assert 400 <= response.status_code < 500, (what, response.status_code, response.text)
    said = response.json()["error"]
    assert isinstance(said, str) and said and "\n" not in said, what


def test_every_bad_body_is_one_line_and_a_4xx(world: World) -> None:
    client = world.client
    for (method, template), content in itertools.product(post_routes(world), BAD_BODIES):
        if template in LAST or template == "/api/queue/bots":
            continue  # they read no body
        for path in paths(template, world):
            for who in (Who("a guest"), world.alice):
                response = request(
                    client,
                    method,
                    path,
                    who,
                    content=content,
                    headers={"content-type": "application/json"},
                )
                if response.status_code < 300:
                    continue  # a body an endpoint reads nothing of (a DELETE's)
                one_line_4xx(response, f"{method} {path} {content[:40]!r}")


#: Names no player can have, as a path holds them (escaped): halves, NUL, slashes, too long.
BAD_NAMES: list[str] = [
    "%ED%A0%80",
    "%00",
    "%FF%FE",
    "a%2Fb",
    "x" * 300,
    "%F0%9F%98%80" * 30,
    "..",
    "%20",
    "Sa%E2%80%8Bad",
]


def test_every_bad_name_in_a_path_is_one_line_and_a_4xx(shared_world: World) -> None:
    client = shared_world.client
    for name in BAD_NAMES:
        for method, path in [
            ("GET", "/api/players/{}"),
            ("POST", "/api/friends/{}"),
            ("DELETE", "/api/friends/{}"),
            ("POST", "/api/blocks/{}"),
            ("DELETE", "/api/blocks/{}"),
            ("POST", "/api/invites/{}/accept"),
            ("DELETE", "/api/invites/{}"),
            ("GET", "/api/tables/{}"),
            ("GET", "/api/matches/{}/record"),
        ]:
            response = request(client, method, path.format(name), shared_world.alice)
            if response.status_code < 300:
                continue  # a DELETE of nothing is done
            one_line_4xx(response, f"{method} {path.format(name)}")
        page = request(client, "GET", f"/players/{name}", shared_world.alice)
        assert page.status_code in (200, 404)


#: CSRF and origin headers a page never sends.
BAD_HEADERS: list[dict[str, str]] = [
    {"x-csrf-token": "é" * 43},
    {"x-csrf-token": "\x7f" * 10},
    {"x-csrf-token": "x" * 10_000},
    {"origin": "http://[::1"},
    {"origin": "not a url"},
    {"origin": "null"},
    {"origin": "http://testserver:99999"},
    {"sec-fetch-site": "cross-site"},
]


def test_a_bad_csrf_or_origin_header_is_one_line_and_a_4xx(world: World) -> None:
    client = world.client
    for headers in BAD_HEADERS:
        alice = Who(
            "Alice", world.alice.token, world.alice.csrf if "x-csrf-token" not in headers else None
        )
        for method, path, body in [
            ("POST", "/api/account/logout", {}),
            ("POST", "/api/account/login", {"name": "Alice", "password": WRONG}),
            ("POST", "/api/friends/Carol", None),
            ("POST", "/api/queue", {}),
        ]:
            response = request(
                client,
                method,
                path,
                alice,
                headers=headers,
                **({} if body is None else {"json": body}),
            )
            one_line_4xx(response, f"{method} {path} {headers}")
        assert signed_in_as(client, world.alice.token)["name"] == "Alice"


#: Cookie headers that cannot be read as the session's cookie.
BAD_COOKIE_HEADERS: list[str] = [
    "baloot_session=é",
    "baloot_session",
    "=;;;=",
    "baloot_session=" + "x" * 8000,
    "a=b; baloot_session=\x7f",
]


def test_a_bad_cookie_header_is_a_guest_never_a_5xx(shared_world: World) -> None:
    client = shared_world.client
    for cookie in BAD_COOKIE_HEADERS:
        client.cookies.clear()
        sent = wire({"cookie": cookie})
        answer = client.get("/api/account", headers=sent)
        assert (answer.status_code, answer.json()) == (200, {"player": None, "csrf": None}), cookie
        one_line_4xx(client.post("/api/account/logout", headers=sent), cookie)

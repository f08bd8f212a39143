"""The accounts' endpoints as a browser meets them (``docs/players-api.md``): registering,
signing in and out, the session's cookie and CSRF token, throttled sign-ins, a changed
password, a deleted account, and a guest's seats that become the account's; on SQLite and on
PostgreSQL."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import httpx2 as httpx
import pytest
from conftest import Server
from starlette.testclient import TestClient

from baloot.server.players import account_api
from baloot.server.players.sessions import COOKIE, LIFETIME

PASSWORD = "a long secret"


def client_of(server: Server) -> TestClient:
    assert server.client is not None
    return server.client


def register(
    client: TestClient, name: str = "Saad", password: str = PASSWORD, **more: Any
) -> dict[str, Any]:
    response = client.post(
        "/api/account/register", json={"name": name, "password": password, **more}
    )
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def login(client: TestClient, name: str = "Saad", password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/account/login", json={"name": name, "password": password})


def account(client: TestClient) -> dict[str, Any]:
    answer: dict[str, Any] = client.get("/api/account").json()
    return answer


def post(client: TestClient, path: str, csrf: str | None, body: Any = None) -> httpx.Response:
    headers = {} if csrf is None else {"X-CSRF-Token": csrf}
    return client.post(path, json={} if body is None else body, headers=headers)


def one_line_error(response: httpx.Response, status: int, words: str = "") -> None:
    assert response.status_code == status, response.text
    said = response.json()["error"]
    assert isinstance(said, str) and "\n" not in said and words in said


def human_table(client: TestClient) -> tuple[str, str]:
    """A new table with South a human: its id and South's token."""
    created = client.post("/api/tables", json={"seats": {"S": "human"}}).json()
    return created["table"], created["seats"]["S"]["token"]


# --------------------------------------------------------------------------- registering


def test_registering_signs_in_and_the_account_says_who(server: Server) -> None:
    client = client_of(server)
    assert account(client) == {"player": None, "csrf": None}
    made = register(client, "سعد")
    assert made["player"]["name"] == "سعد" and len(made["player"]["id"]) == 16
    assert made["seats"] == [] and made["csrf"]
    assert account(client) == {"player": made["player"], "csrf": made["csrf"]}


def test_the_password_is_stored_as_an_argon2id_hash(server: Server) -> None:
    register(client_of(server))
    assert server.hall is not None
    with server.hall.store._transaction() as run:
        [(kept,)] = run("SELECT password FROM players")
    assert kept.startswith("$argon2id$") and PASSWORD not in kept


@pytest.mark.parametrize("same", ["saad", "SAAD", "Sаad", "Ｓaad"])
def test_a_name_taken_in_any_spelling_is_a_409(server: Server, same: str) -> None:
    client = client_of(server)
    register(client)
    client.cookies.clear()
    response = client.post("/api/account/register", json={"name": same, "password": PASSWORD})
    one_line_error(response, 409, "that name is taken")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"name": "Saad Ali", "password": PASSWORD}, "letters, digits, _ and - only"),
        ({"name": "x" * 25, "password": PASSWORD}, "at most 24 characters"),
        ({"name": "", "password": PASSWORD}, "at least one character"),
        ({"name": "Saad", "password": "short"}, "at least 8 characters"),
        ({"name": "Saad", "password": "x" * 129}, "at most 128 characters"),
        ({"name": "Saad", "password": 12345678}, "is text"),
        ({"name": "Saad"}, "needs password"),
        ({"password": PASSWORD}, "needs name"),
        ({"name": "Saad", "password": PASSWORD, "tokens": "all"}, "tokens is a list"),
        ({"name": "Saad", "password": PASSWORD, "tokens": [1]}, "tokens is a list"),
        (["Saad", PASSWORD], "a JSON object"),
    ],
)
def test_a_bad_registration_is_a_400_with_its_rule_and_makes_nothing(
    shared_server: Server, body: Any, words: str
) -> None:
    client = client_of(shared_server)
    one_line_error(client.post("/api/account/register", json=body), 400, words)
    assert COOKIE not in client.cookies
    assert shared_server.hall is not None and shared_server.hall.store.player_named("Saad") is None


@pytest.mark.parametrize(
    "content",
    [b"not json", b'{"name": "Sa\\u0000ad", "password": "a long secret"}', b"[" * 100_000],
)
def test_a_body_that_is_no_json_or_too_long_or_unstorable_is_a_400(
    shared_server: Server, content: bytes
) -> None:
    response = client_of(shared_server).post("/api/account/register", content=content)
    assert response.status_code == 400 and "\n" not in response.json()["error"]


# --------------------------------------------------------------------------- the session


def test_the_cookie_is_http_only_same_site_lax_for_the_whole_site_and_lasts_30_days(
    server: Server,
) -> None:
    client = client_of(server)
    response = client.post("/api/account/register", json={"name": "Saad", "password": PASSWORD})
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "Path=/" in cookie
    assert "SameSite=lax" in cookie and f"Max-Age={LIFETIME}" in cookie
    assert "Secure" not in cookie  # plain http: the browser would never send it back


def test_over_https_the_cookie_is_secure_too(server: Server) -> None:
    secure = TestClient(client_of(server).app, base_url="https://testserver")
    response = secure.post("/api/account/register", json={"name": "Saad", "password": PASSWORD})
    assert response.status_code == 201 and "Secure" in response.headers["set-cookie"]


def test_signing_out_ends_the_session_on_the_server(server: Server) -> None:
    client = client_of(server)
    made = register(client)
    token = client.cookies[COOKIE]
    response = post(client, "/api/account/logout", made["csrf"])
    assert response.status_code == 200 and response.json() == {"player": None, "csrf": None}
    cleared = response.headers["set-cookie"]
    assert cleared.startswith(f"{COOKIE}=") and "Max-Age=0" in cleared
    client.cookies.set(COOKIE, token)  # replayed: the server no longer knows it
    assert account(client) == {"player": None, "csrf": None}


@pytest.mark.parametrize("forged", ["x" * 43, "short", "", "a" * 500, "!" * 43])
def test_a_forged_cookie_is_a_guest(server: Server, forged: str) -> None:
    client = client_of(server)
    register(client)
    client.cookies.clear()
    client.cookies.set(COOKIE, forged)
    assert account(client) == {"player": None, "csrf": None}
    one_line_error(post(client, "/api/account/logout", "x"), 401, "sign in first")


def test_an_expired_session_is_a_guest(server: Server) -> None:
    client = client_of(server)
    register(client)
    assert server.hall is not None
    with server.hall.store._transaction() as run:
        run("UPDATE sessions SET expires = 1")
    assert account(client) == {"player": None, "csrf": None}


def test_a_session_in_use_is_renewed(server: Server) -> None:
    client = client_of(server)
    register(client)
    assert server.hall is not None
    with server.hall.store._transaction() as run:
        run("UPDATE sessions SET expires = ?", (server.hall.clock() + 3600,))
    assert account(client)["player"]["name"] == "Saad"
    with server.hall.store._transaction() as run:
        [(expires,)] = run("SELECT expires FROM sessions")
    assert expires > server.hall.clock() + LIFETIME - 60


def test_signing_in_again_gives_a_new_session(server: Server) -> None:
    client = client_of(server)
    made = register(client)
    first = client.cookies[COOKIE]
    client.cookies.clear()
    response = login(client, "SAAD")
    assert response.status_code == 200
    assert response.json()["player"] == made["player"]
    assert client.cookies[COOKIE] != first and response.json()["csrf"] != made["csrf"]


@pytest.mark.parametrize(
    ("name", "password"), [("Saad", "a wrong secret"), ("Nobody", PASSWORD), ("", PASSWORD)]
)
def test_a_wrong_name_or_password_is_one_401_that_tells_nothing_more(
    server: Server, name: str, password: str
) -> None:
    client = client_of(server)
    register(client)
    client.cookies.clear()
    one_line_error(login(client, name, password), 401, "wrong name or password")
    assert COOKIE not in client.cookies


def test_no_answer_holds_a_hash_a_session_id_or_the_cookies_token(server: Server) -> None:
    client = client_of(server)
    table_id, token = human_table(client)
    answers = [client.post("/api/account/register", json={"name": "Saad", "password": PASSWORD})]
    csrf = answers[0].json()["csrf"]
    cookie = client.cookies[COOKIE]
    answers.append(client.get("/api/account"))
    answers.append(
        post(client, "/api/account/seats", csrf, {"tokens": [{"table": table_id, "token": token}]})
    )
    answers.append(
        post(client, "/api/account/password", csrf, {"old": PASSWORD, "new": "another secret"})
    )
    answers.append(post(client, "/api/account/logout", csrf))
    answers.append(login(client, "Saad", "another secret"))
    answers.append(login(client, "Saad", "a wrong one"))
    secrets = (
        "$argon2",
        cookie,
        hashlib.sha256(cookie.encode()).hexdigest(),
        client.cookies[COOKIE],
    )
    for response in answers:
        text = response.text + json.dumps(
            {k: v for k, v in response.headers.items() if k != "set-cookie"}
        )
        assert not any(secret in text for secret in secrets), response.text


# --------------------------------------------------------------------------- CSRF and origins


@pytest.mark.parametrize("csrf", [None, "", "wrong", "x" * 43])
def test_a_state_change_without_the_sessions_csrf_token_is_a_403_and_changes_nothing(
    server: Server, csrf: str | None
) -> None:
    client = client_of(server)
    register(client)
    table_id, token = human_table(client)
    asks = [
        ("/api/account/password", {"old": PASSWORD, "new": "another secret"}),
        ("/api/account/delete", {"password": PASSWORD}),
        ("/api/account/seats", {"tokens": [{"table": table_id, "token": token}]}),
        ("/api/account/logout", {}),
    ]
    for path, body in asks:
        one_line_error(post(client, path, csrf, body), 403, "reload the page")
    assert account(client)["player"]["name"] == "Saad"  # still signed in
    assert server.hall is not None and server.hall.store.seat_players_of(table_id) == {}
    client.cookies.clear()
    assert login(client).status_code == 200  # the password unchanged, the account there


def test_a_request_from_another_site_is_a_403(server: Server) -> None:
    client = client_of(server)
    made = register(client)
    evil = {"Origin": "https://evil.example", "X-CSRF-Token": made["csrf"]}
    response = client.post("/api/account/logout", json={}, headers=evil)
    one_line_error(response, 403, "another site")
    cross = {"Sec-Fetch-Site": "cross-site", "X-CSRF-Token": made["csrf"]}
    one_line_error(client.post("/api/account/logout", json={}, headers=cross), 403)
    client.cookies.clear()
    body = {"name": "Nora", "password": PASSWORD}
    one_line_error(client.post("/api/account/register", json=body, headers=evil), 403)
    one_line_error(client.post("/api/account/login", json=body, headers=evil), 403)
    ours = {"Origin": "http://testserver"}
    assert client.post("/api/account/register", json=body, headers=ours).status_code == 201


# --------------------------------------------------------------------------- throttling


def test_failed_sign_ins_for_one_name_are_throttled_with_when_to_try_again(
    server: Server,
) -> None:
    client = client_of(server)
    register(client)
    client.cookies.clear()
    for _ in range(account_api.NAME_FAILURES):
        one_line_error(login(client, "Saad", "a wrong secret"), 401)
    refused = login(client, "saad", PASSWORD)  # even the right password, for a while
    one_line_error(refused, 429, "try again in 15 minutes")
    assert int(refused.headers["retry-after"]) <= account_api.WINDOW
    assert login(client, "Nora", PASSWORD).status_code == 401  # another name: not throttled


def test_failed_sign_ins_from_one_address_are_throttled(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(account_api, "ADDRESS_FAILURES", 3)
    client = client_of(server)
    for name in ("a", "b", "c"):
        one_line_error(login(client, name, PASSWORD), 401)
    one_line_error(login(client, "d", PASSWORD), 429, "too many failed sign-ins")


def test_old_failures_no_longer_count_and_are_forgotten(server: Server) -> None:
    client = client_of(server)
    register(client)
    client.cookies.clear()
    for _ in range(account_api.NAME_FAILURES):
        login(client, "Saad", "a wrong secret")
    assert server.hall is not None
    with server.hall.store._transaction() as run:
        run("UPDATE login_attempts SET at = at - ?", (account_api.WINDOW + 1,))
    assert login(client).status_code == 200
    login(client, "Saad", "a wrong secret")  # a new failure forgets the old ones
    with server.hall.store._transaction() as run:
        assert len(run("SELECT key FROM login_attempts")) == 2  # its name and its address


# --------------------------------------------------------------------------- the password


def test_changing_the_password_asks_the_old_one_and_ends_the_other_sessions(
    server: Server,
) -> None:
    client = client_of(server)
    made = register(client)
    other = TestClient(client.app)
    assert login(other).status_code == 200
    wrong = {"old": "not the password", "new": "another secret"}
    one_line_error(
        post(client, "/api/account/password", made["csrf"], wrong), 401, "wrong password"
    )
    short = {"old": PASSWORD, "new": "short"}
    one_line_error(post(client, "/api/account/password", made["csrf"], short), 400, "at least 8")
    right = {"old": PASSWORD, "new": "another secret"}
    assert post(client, "/api/account/password", made["csrf"], right).status_code == 200
    assert account(client)["player"]["name"] == "Saad"  # this session goes on
    assert account(other) == {"player": None, "csrf": None}
    client.cookies.clear()
    assert login(client).status_code == 401
    assert login(client, "Saad", "another secret").status_code == 200


# --------------------------------------------------------------------------- deleting


def test_deleting_asks_the_password_and_keeps_the_seats_as_a_deleted_players(
    server: Server,
) -> None:
    client = client_of(server)
    table_id, token = human_table(client)
    made = register(client, tokens=[{"table": table_id, "token": token}])
    assert made["seats"] == [{"table": table_id, "seat": "S"}]
    one_line_error(
        post(client, "/api/account/delete", made["csrf"], {"password": "nope, wrong"}), 401
    )
    response = post(client, "/api/account/delete", made["csrf"], {"password": PASSWORD})
    assert response.status_code == 200 and response.json() == {"player": None, "csrf": None}
    assert account(client) == {"player": None, "csrf": None}
    assert server.hall is not None
    player_id = made["player"]["id"]
    assert server.hall.store.seat_players_of(table_id) == {"S": player_id}
    kept = server.hall.store.player(player_id)
    assert kept is not None and kept.name == ""
    assert login(client).status_code == 401
    assert register(client)["player"]["id"] != player_id  # the name is free again


# --------------------------------------------------------------------------- seats


def test_a_guests_seats_become_the_accounts_on_signing_in(server: Server) -> None:
    client = client_of(server)
    register(client)
    post(client, "/api/account/logout", account(client)["csrf"])
    first, first_token = human_table(client)
    second, second_token = human_table(client)
    tokens = [
        {"table": first, "token": first_token},
        {"table": second, "token": second_token},
        {"table": second, "token": "not a token"},
        {"table": "nonesuch", "token": first_token},
    ]
    response = client.post(
        "/api/account/login", json={"name": "Saad", "password": PASSWORD, "tokens": tokens}
    )
    assert response.status_code == 200
    seats = response.json()["seats"]
    assert seats == [{"table": first, "seat": "S"}, {"table": second, "seat": "S"}]
    assert server.hall is not None
    player_id = response.json()["player"]["id"]
    assert server.hall.store.seat_players_of(first) == {"S": player_id}


def test_a_seat_another_account_holds_is_never_taken_over(server: Server) -> None:
    client = client_of(server)
    table_id, token = human_table(client)
    held = [{"table": table_id, "token": token}]
    saad = register(client, tokens=held)
    client.cookies.clear()
    nora = register(client, "Nora")
    answer = post(client, "/api/account/seats", nora["csrf"], {"tokens": held})
    assert answer.status_code == 200 and answer.json() == {"seats": []}
    assert server.hall is not None
    assert server.hall.store.seat_players_of(table_id) == {"S": saad["player"]["id"]}


def test_a_seat_opened_by_a_signed_in_players_socket_becomes_theirs(server: Server) -> None:
    client = client_of(server)
    made = register(client)
    table_id, token = human_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
        spectator.receive_json()
    assert server.hall is not None and server.hall.store.seat_players_of(table_id) == {}
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as seat:
        seat.receive_json()
    assert server.hall.store.seat_players_of(table_id) == {"S": made["player"]["id"]}


def test_a_guests_socket_binds_nothing(server: Server) -> None:
    client = client_of(server)
    table_id, token = human_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as seat:
        seat.receive_json()
    assert server.hall is not None and server.hall.store.seat_players_of(table_id) == {}


def test_binding_seats_needs_a_session_and_a_list(server: Server) -> None:
    client = client_of(server)
    one_line_error(post(client, "/api/account/seats", "x", {"tokens": []}), 401, "sign in first")
    made = register(client)
    one_line_error(post(client, "/api/account/seats", made["csrf"], {}), 400, "needs tokens")
    too_many = {"tokens": [{"table": "t", "token": "x"}] * 51}
    one_line_error(post(client, "/api/account/seats", made["csrf"], too_many), 400, "at most 50")


# --------------------------------------------------------------------------- the page


@pytest.mark.parametrize(
    ("query", "lang", "direction"), [("", "en", "ltr"), ("?lang=ar", "ar", "rtl")]
)
def test_the_account_page_is_served_in_english_and_arabic(
    shared_server: Server, query: str, lang: str, direction: str
) -> None:
    client = client_of(shared_server)
    page = client.get(f"/account{query}")
    assert page.status_code == 200 and f'<html lang="{lang}" dir="{direction}">' in page.text
    assert '<script type="module" src="/static/account.js">' in page.text
    assert 'href="/account"' in client.get("/").text


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("/api/account/login", {"name": 7, "password": PASSWORD}, 400, "are text"),
        ("/api/account/login", {"name": "Saad"}, 400, "needs password"),
        ("/api/account/login", "Saad", 400, "a JSON object"),
        ("/api/account/password", {"old": PASSWORD}, 400, "needs new"),
        ("/api/account/password", {"old": 7, "new": "another secret"}, 400, "is text"),
        ("/api/account/delete", {}, 400, "needs password"),
        ("/api/account/delete", {"password": ["x"]}, 400, "is text"),
        ("/api/account/seats", {"tokens": [{"table": 1, "token": "x"}]}, 400, "tokens is a list"),
    ],
)
def test_every_bad_body_is_a_4xx_with_one_line_and_changes_nothing(
    server: Server, path: str, body: Any, status: int, words: str
) -> None:
    client = client_of(server)
    made = register(client)
    one_line_error(post(client, path, made["csrf"], body), status, words)
    assert account(client)["player"] == made["player"]


def test_a_get_of_a_post_endpoint_is_a_405_in_json(server: Server) -> None:
    one_line_error(client_of(server).get("/api/account/login"), 405, "method not allowed")

"""The analysis of a finished hand in the web server: ``GET /api/tables/ID/hands/N/analysis``
(``docs/analysis.md``) answers 409 for a hand in progress, 202 while it computes and then the
analysis, kept in the store (SQLite and PostgreSQL) so that it is computed once; at most so
many wait at once; its page in both languages; a link from the history."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import FAST as QUICK
from conftest import Opener, Server
from helpers import WAIT, wait_for
from spec_example import ACTIONS, record_text
from starlette.testclient import TestClient
from test_analysis import FAST, THROWN, THROWN_ACTIONS, THROWN_DECK
from test_server import Seen, create

from baloot.analysis import SolverAndBot, analyze_position, analyze_record
from baloot.core.match import Match
from baloot.records.record import Record, loads
from baloot.records.writer import dumps
from baloot.server.analyses import ANNULLED, IN_PROGRESS, NOT_DEALT, Source
from baloot.server.journal import TableConfig
from baloot.server.storage import Store, open_store

API = "/api/tables/{table}/hands/{hand}/analysis"
#: What the server's worker calls to analyse a hand.
COMPUTE = "baloot.server.analyses.analyze_record"
PLAYERS = {"N": "bot:heuristic", "E": "bot:heuristic", "S": "Saad", "W": "bot:heuristic"}


@pytest.fixture
def server(opener: Opener) -> Iterator[Server]:
    """A server whose analyses judge exact values only (quick), on SQLite and PostgreSQL."""
    running = Server(opener, {**QUICK, "analysis_bot": None})
    running.start()
    yield running
    running.stop()


def client_of(server: Server) -> TestClient:
    assert server.client is not None
    return server.client


def wait_done(client: TestClient, table: str, hand: int, limit: float = WAIT) -> dict[str, Any]:
    """Ask until the analysis is done (202 meanwhile); its 200 body."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        response = client.get(API.format(table=table, hand=hand))
        if response.status_code == 200:
            body: dict[str, Any] = response.json()
            return body
        assert response.status_code == 202, response.text
        assert response.headers["retry-after"] == "1"
        time.sleep(0.05)
    raise AssertionError("the analysis never finished")


def status(client: TestClient, table: str) -> str:
    """What the analysis of the table's first hand is doing: ``queued``, ``computing``…"""
    found: str = client.get(API.format(table=table, hand=1)).json()["status"]
    return found


def stored_match(store: Store, table: str, text: str, status: str = "over") -> None:
    """A table no longer in play, kept with its record (as a finished or closed match)."""
    config = TableConfig(table, PLAYERS, ("S",), "classic", 7, None, True, {"S": "ab"}, 1.7e9)
    store.create(config)
    if status == "over":
        store.finish(table, text, {"players": PLAYERS, "winner": None}, when=1.7e9 + 60)
    else:
        store.close_table(table, 1.7e9 + 60, {"players": PLAYERS}, text)


THROWN_RECORD = record_text(THROWN_ACTIONS, deck=THROWN_DECK)


# --------------------------------------------------------------------------- a table in play


def test_a_hand_in_progress_is_refused_and_a_finished_one_analysed(server: Server) -> None:
    client = client_of(server)
    created = create(client)
    table, token = created["table"], created["seats"]["S"]["token"]
    hand_1 = API.format(table=table, hand=1)  # not dealt while its entropy is awaited
    assert client.get(hand_1).json()["error"] in (NOT_DEALT, IN_PROGRESS)
    assert wait_for(lambda: client.get(hand_1).json()["error"] == IN_PROGRESS)
    refused = client.get(hand_1)
    assert refused.status_code == 409
    assert refused.json() == {"error": IN_PROGRESS, "finished": []}
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket:
        number = Seen(socket).play_to_hand_over()["match"]["hand"]
    first = client.get(API.format(table=table, hand=number))
    assert first.status_code == 202
    assert first.json()["status"] in ("queued", "computing")
    body = wait_done(client, table, number)
    assert (body["status"], body["table"], body["hand"]) == ("done", table, number)
    assert number in body["finished"]
    assert server.hall is not None
    match = server.hall.tables[table].room.table.match
    record = Record.of(match, players=dict(server.hall.tables[table].config.players))
    expected = analyze_record(record, SolverAndBot(None), hand=number).to_json()
    # The next hand may have been dealt between the analysis and now.
    analysis = body["analysis"]
    assert analysis.pop("in_progress") in ([], [number + 1])
    expected.pop("in_progress")
    assert analysis == expected


def test_unknown_tables_and_hands_are_404(server: Server) -> None:
    client = client_of(server)
    assert client.get(API.format(table="nope", hand=1)).status_code == 404
    table = create(client)["table"]
    missing = client.get(API.format(table=table, hand=5))
    assert missing.status_code == 404 and missing.json()["error"] == "no such hand"
    assert client.get(f"/api/tables/{table}/hands/x/analysis").status_code == 404


def test_an_annulled_hand_waits_for_the_end_of_the_match() -> None:
    match = Match(dealer="E")
    match.deal(THROWN_DECK)
    for call in ("N pass", "W pass", "S pass", "E pass") * 2:
        match.apply(call)
    assert match.hands[0].is_over
    source = Source.of_match(match, PLAYERS)
    assert source.finished == () and source.refused == {1: ANNULLED, 2: NOT_DEALT}
    stored = Source.of_record(dumps(Record.of(match)))
    assert stored.finished == (1,)  # once the match is no longer in play, it is shown


def test_a_hand_played_again_after_an_undo_has_another_digest() -> None:
    first = Source.of_record(THROWN_RECORD)
    replayed = loads(THROWN_RECORD)
    replayed.hands[0].actions[THROWN - 1] = "N play As"
    del replayed.hands[0].actions[THROWN:]
    assert first.digest(1) != Source.of_record(dumps(replayed)).digest(1)
    assert first.digest(1) == Source.of_record(THROWN_RECORD).digest(1)


# --------------------------------------------------------------------------- kept in the store


def test_a_stored_match_is_analysed_once_and_kept_across_a_restart(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert server.hall is not None
    stored_match(server.hall.store, "old", THROWN_RECORD)
    client = client_of(server)
    body = wait_done(client, "old", 1)
    analysis = body["analysis"]
    assert analysis == analyze_record(loads(THROWN_RECORD), SolverAndBot(None)).to_json()
    decision = next(d for d in analysis["hands"][0]["decisions"] if d["position"] == THROWN)
    assert (decision["mark"], decision["loss"]) == ("blunder", 22)

    def never(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("computed again")

    monkeypatch.setattr(COMPUTE, never)
    client = server.restart()
    again = client.get(API.format(table="old", hand=1))
    assert again.status_code == 200 and again.json()["analysis"] == analysis


def test_a_closed_tables_hand_in_progress_is_refused(server: Server) -> None:
    assert server.hall is not None
    stored_match(server.hall.store, "closed", record_text(ACTIONS[:20]), status="closed")
    refused = client_of(server).get(API.format(table="closed", hand=1))
    assert refused.status_code == 409 and refused.json()["error"] == IN_PROGRESS


def test_the_history_links_each_match_to_its_analysis(server: Server) -> None:
    assert server.hall is not None
    stored_match(server.hall.store, "old", THROWN_RECORD)
    rows = client_of(server).get("/api/matches").json()["matches"]
    assert [row["analysis"] for row in rows] == ["/t/old/hands/1/analysis"]


def test_with_a_bot_the_analysis_shows_its_choices(tmp_path: Path) -> None:
    """Any store will do here (SQLite): what is checked is the bot's part."""
    running = Server(lambda: open_store(str(tmp_path / "db")), {**QUICK, "analysis_bot": FAST})
    client = running.start()
    try:
        assert running.hall is not None
        stored_match(running.hall.store, "old", THROWN_RECORD)
        body = wait_done(client, "old", 1)
    finally:
        running.stop()
    analysis = body["analysis"]
    assert analysis["bot"] == FAST
    decisions = {d["position"]: d for d in analysis["hands"][0]["decisions"]}
    judge = SolverAndBot(FAST)
    for position in (4, THROWN):  # a call and a card: as the command line judges them
        _, alone = analyze_position(loads(THROWN_RECORD), judge, 1, position)
        assert decisions[position] == alone.to_json()
    assert not decisions[4]["exact"] and decisions[4]["expert"] is not None


# --------------------------------------------------------------------------- bounded work


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Analyses that wait for the event before they finish, reporting progress meanwhile."""
    release = threading.Event()
    real = analyze_record

    def slow(record: Record, judge: Any, *, hand: int, progress: Callable[[int, int], None]) -> Any:
        while not release.wait(0.01):
            progress(0, 10)
        return real(record, judge, hand=hand, progress=progress)

    monkeypatch.setattr(COMPUTE, slow)
    yield release
    release.set()


def test_one_analysis_runs_at_a_time_and_the_queue_is_bounded(
    server: Server, held: threading.Event
) -> None:
    assert server.hall is not None
    server.hall.analyses.queue = 2
    for table in ("a", "b", "c"):
        stored_match(server.hall.store, table, THROWN_RECORD)
    client = client_of(server)
    assert client.get(API.format(table="a", hand=1)).status_code == 202
    assert client.get(API.format(table="b", hand=1)).status_code == 202
    assert wait_for(lambda: status(client, "a") == "computing")
    statuses = {t: client.get(API.format(table=t, hand=1)).json()["status"] for t in "ab"}
    assert statuses == {"a": "computing", "b": "queued"}
    busy = client.get(API.format(table="c", hand=1))
    assert busy.status_code == 503 and "busy" in busy.json()["error"]
    held.set()
    assert wait_done(client, "a", 1)["status"] == wait_done(client, "b", 1)["status"] == "done"
    assert wait_done(client, "c", 1)["status"] == "done"


def test_a_stopping_server_ends_the_analysis_in_progress_and_keeps_nothing(
    server: Server, held: threading.Event
) -> None:
    assert server.hall is not None
    store = server.hall.store
    stored_match(store, "a", THROWN_RECORD)
    client = client_of(server)
    assert client.get(API.format(table="a", hand=1)).status_code == 202
    assert wait_for(lambda: status(client, "a") == "computing")
    rescue = threading.Timer(WAIT, held.set)  # lets a stop that waits for the analysis end
    rescue.start()
    server.stop()
    rescue.cancel()
    assert not held.is_set(), "the stop waited for the analysis to finish"
    client = server.start()
    assert client.get(API.format(table="a", hand=1)).status_code == 202  # computed anew


# --------------------------------------------------------------------------- the page


def test_the_page_is_served_in_english_and_arabic(server: Server) -> None:
    client = client_of(server)
    english = client.get("/t/abc/hands/2/analysis")
    assert english.status_code == 200 and 'src="/static/analysis.js"' in english.text
    arabic = client.get("/t/abc/hands/2/analysis?lang=ar")
    assert 'lang="ar" dir="rtl"' in arabic.text
    assert "script-src 'self'" in english.headers["content-security-policy"]
    assert client.get("/static/analysis.js").status_code == 200

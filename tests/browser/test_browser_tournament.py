"""A Swiss tournament for pairs run on a real server (``baloot serve`` and Chromium, as in
``test_browser.py``; skipped without Chromium): the organiser makes it on ``/tournaments``,
three pairs enter on its page (each registered by one player and accepted by the partner),
the organiser starts it; each round's table is shown with a link to watch it and, to its four
players, a link to their own seat; the server is restarted in the middle of the first round
and loses nothing; the seat holders play each round's match to its end over the table's
WebSocket (their seats' links, first taken from the page); the standings are read with their
tie-breaks. In English and in Arabic, on a phone, with no serious accessibility fault
(axe-core)."""

from __future__ import annotations

import json
import random
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from helpers import WAIT
from social_accounts import Account
from test_browser import (
    ARABIC,
    Served,
    _start_server,
    _stop_server,
    artifacts,  # noqa: F401 - a fixture
    browser,  # noqa: F401 - a fixture
    fits_the_phone,
    shot,
)
from test_browser_feel import no_serious_fault
from test_browser_players_queue import accounts, open_page, opened  # noqa: F401 - a fixture
from websockets.sync.client import ClientConnection, connect

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from playwright.sync_api import Browser, Page

#: The most one match of four seats playing at once may take, in seconds.
MATCH_CEILING = 240
#: Who plays, in pairs: each first one registers the pair, the second accepts.
NAMES = ("Amal", "Badr", "Dana", "Fahd", "Hind", "Omar")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[list[Served]]:
    """A ``baloot serve`` of the test's own database; the list holds the one running now
    (the test restarts it)."""
    running = [_start_server(tmp_path)]
    yield running
    for server in running:
        _stop_server(server.process)


def api(server: Served, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(server.url + path, timeout=WAIT) as answer:
        return dict(json.loads(answer.read()))


def seat_links(
    server: Served, tournament: str, people: dict[str, Account]
) -> dict[str, tuple[str, str]]:
    """Each player's own seat and its link at the current round's tables, as the page gives
    them."""
    links = {}
    for name, me in people.items():
        request = urllib.request.Request(
            f"{server.url}/api/tournaments/{tournament}",
            headers={"cookie": f"baloot_session={me.token}"},
        )
        with urllib.request.urlopen(request, timeout=WAIT) as answer:
            for table in json.loads(answer.read())["current"]["tables"]:
                if table["url"]:
                    links[name] = (table["seat"], table["url"])
    return links


def play_match(server: Served, links: list[tuple[str, str]], over: Callable[[], bool]) -> None:
    """The four seats of one table play until ``over``: each, on the latest view it was
    sent and once its last action is answered, makes a decision at its turn (a Sun bid when
    offered, for a shorter match; otherwise one drawn from a seeded generator), and says
    ``next`` after each hand with its entropy, as a page does."""
    rng = random.Random(28)
    seats = [Seat(*connect_seat(server, link), seat) for seat, link in links]
    deadline = time.monotonic() + MATCH_CEILING
    checked = time.monotonic()
    try:
        while True:
            if time.monotonic() - checked > 1:
                if over():
                    return
                checked = time.monotonic()
            assert time.monotonic() < deadline, "the match did not end"
            for seat in seats:
                seat.take_turn(rng)
    finally:
        for seat in seats:
            seat.ws.close()


def connect_seat(server: Served, link: str) -> tuple[ClientConnection, dict[str, Any]]:
    """A seat's socket and the snapshot it was sent (its entropy given for a first hand)."""
    table, token = link.removeprefix("/t/").split("?token=")
    ws = connect(
        f"ws{server.url.removeprefix('http')}/ws/tables/{table}?token={token}", legacy=True
    )
    snapshot = json.loads(ws.recv(timeout=WAIT))
    fair = (snapshot.get("match") or {}).get("fair")
    if fair and not snapshot.get("view"):
        send(ws, {"type": "entropy", "hand": fair["hand"], "entropy": uuid.uuid4().hex})
    return ws, snapshot


@dataclass
class Seat:
    """One seat's socket, its latest view, and the action it awaits an answer to."""

    ws: ClientConnection
    last: dict[str, Any]
    seat: str
    asked: str | None = None

    def take_turn(self, rng: random.Random) -> None:
        """Read what came, then act on the latest view if it is this seat's turn."""
        while True:
            try:
                message = json.loads(self.ws.recv(timeout=0.005))
            except TimeoutError:
                break
            if message.get("type") in ("ack", "reject") and message.get("id") == self.asked:
                self.asked = None
            elif message.get("type") == "hand-over":
                send(self.ws, {"type": "next", "entropy": uuid.uuid4().hex})
            if "view" in message:
                self.last = message
        view = self.last.get("view") or {}
        legal = [str(a) for a in view.get("legal") or []]
        if self.asked is None and view.get("to_act") == self.seat and legal:
            sun = [a for a in legal if a.endswith(" sun")]
            self.asked = send(
                self.ws, {"type": "act", "action": sun[0] if sun else rng.choice(legal)}
            )
            self.last = {}


def send(ws: ClientConnection, message: dict[str, Any]) -> str:
    id_ = uuid.uuid4().hex[:12]
    ws.send(json.dumps({**message, "id": id_}))
    return id_


def check_page(page: Page, folder: Path, name: str) -> None:
    fits_the_phone(page)
    no_serious_fault(page, name)
    shot(page, folder, name)


@pytest.mark.timeout(3 * MATCH_CEILING + 240)
def test_three_pairs_play_a_tournament_through_a_restart_and_read_the_standings(
    browser: Browser,  # noqa: F811
    served: list[Served],
    opened: list[Page],  # noqa: F811
    artifacts: Path,  # noqa: F811
) -> None:
    people = dict(zip(NAMES, accounts(served[0], *NAMES), strict=True))
    organiser = people["Amal"]
    # The organiser makes the tournament on the list's form, in Arabic.
    page = open_page(browser, served[0], "/tournaments?lang=ar", opened, organiser)
    page.locator("#to-preset option").first.wait_for(state="attached")
    assert ARABIC.search(page.locator("h1").inner_text())
    check_page(page, artifacts, "tournaments-ar")
    page.locator("#to-name").fill("كأس الجمعة")
    page.locator("#to-rounds").fill("2")
    page.locator("#to-create button").click()
    page.wait_for_url("**/tournaments/*")
    tournament = page.url.split("/tournaments/")[1].split("?")[0]
    # Each pair: the first registers it naming the partner, who accepts on the page.
    for first, second in zip(NAMES[::2], NAMES[1::2], strict=True):
        mine = open_page(browser, served[0], f"/tournaments/{tournament}", opened, people[first])
        mine.locator("#to-partner").fill(second)
        mine.locator("#to-register button").click()
        mine.locator("[data-withdraw]").wait_for()
        if first == NAMES[0]:
            check_page(mine, artifacts, "tournament-registration-en")
        theirs = open_page(browser, served[0], f"/tournaments/{tournament}", opened, people[second])
        theirs.locator("[data-accept]").click()
        theirs.locator("[data-accept]").wait_for(state="detached")
    page.locator("#to-start").click()
    page.locator("#to-tables li").first.wait_for()
    assert page.locator("#to-tables [data-my-seat]").count() == 1  # Amal plays at the table
    check_page(page, artifacts, "tournament-round-1-ar")
    # A spectator (signed out) sees the table and may watch it, but no seat of its own.
    spectator = open_page(browser, served[0], f"/tournaments/{tournament}", opened)
    spectator.locator("#to-tables li a").first.wait_for()
    assert spectator.locator("[data-my-seat]").count() == 0
    assert spectator.locator("#to-bye").inner_text()
    check_page(spectator, artifacts, "tournament-round-1-en")
    before = api(served[0], f"/api/tournaments/{tournament}")
    links = seat_links(served[0], tournament, people)
    assert len(links) == 4
    # The server restarts in the middle of the round: nothing is lost.
    _stop_server(served[0].process)
    served[0] = _start_server(served[0].log.parent)
    after = api(served[0], f"/api/tournaments/{tournament}")
    assert after == before
    assert seat_links(served[0], tournament, people) == links
    for round_no in (1, 2):

        def round_over(round_no: int = round_no) -> bool:
            now = api(served[0], f"/api/tournaments/{tournament}")["tournament"]
            return bool(now["round"] > round_no or now["state"] == "over")

        play_match(served[0], list(seat_links(served[0], tournament, people).values()), round_over)
    final = api(served[0], f"/api/tournaments/{tournament}")
    assert final["tournament"]["state"] == "over"
    scores = [row["score"] for row in final["standings"]]
    assert sum(scores) == 8 and scores == sorted(scores, reverse=True)  # two tables, two byes
    # The standings with their tie-breaks, on a phone, in both languages.
    for lang in ("en", "ar"):
        page = open_page(browser, served[0], f"/tournaments/{tournament}?lang={lang}", opened)
        page.locator("#to-standings-rows tr").nth(2).wait_for()
        rows = page.locator("#to-standings-rows tr")
        assert rows.count() == 3
        first = final["standings"][0]
        cells = rows.first.locator("td").all_inner_texts()
        shown = [float(cell) for cell in cells[2:]]
        assert shown == [first["score"], first["buchholz"], first["sonneborn_berger"]]
        check_page(page, artifacts, f"tournament-standings-{lang}")

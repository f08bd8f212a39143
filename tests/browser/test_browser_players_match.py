"""Four people play a rated match, as each of them uses the pages (``baloot serve`` and
Chromium, as in ``test_browser.py``; skipped without Chromium, failed under ``CI=true``).

Four browser contexts register on ``/account``, press "Play now" on ``/play``, are seated
together at one table by the quick match, play the match to its end by clicking the table page
whenever it is their turn (Sawa when the page offers it, every hand's "next"), then find their
ratings changed on their profiles and themselves on the leaderboard (``baloot serve
--leaderboard-matches 1``: one rated match is enough here).

On PostgreSQL with two nodes over one database, two contexts at each: the queue pairs them
across the nodes, and the table page asked of the node that does not serve the table sends
them to the one that does (the players' endpoints on SQLite have their own tests, without a
browser: a whole match takes a minute or two). The profile and the leaderboard are
photographed in Arabic on a phone, and checked with axe-core.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from test_browser import (
    ARABIC,
    PHONE,
    Pages,
    artifacts,  # noqa: F401 - a fixture
    browser,  # noqa: F401 - a fixture
    check_offer,
    fits_the_phone,
    glance,
    shot,
    take,
    visible,
)
from test_browser_feel import no_serious_fault
from test_browser_players_account import sign_in
from test_nodes import (
    Node,
    database,  # noqa: F401 - a fixture
    holder,
    start_node,
    stop_node,
)

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from playwright.sync_api import Browser, Page

#: The most a whole match of four people clicking may take, in seconds: a match takes about
#: a minute on the 2-core development machine; the ceiling is generous for a busy one.
MATCH_CEILING = 600
#: Who plays: each registers with this name.
NAMES = ("Lina", "Omar", "Hind", "Fahd")
#: Only one rated match is needed to be on the leaderboard of these servers.
ONE_MATCH = ("--leaderboard-matches", "1")


@dataclass
class Person:
    """One player: their name, their browser context's page, and the node they use."""

    name: str
    page: Page
    base: str
    seat: str = ""


@pytest.fixture
def two_nodes(database: str, tmp_path: Path) -> Iterator[list[Node]]:  # noqa: F811
    """Nodes a and b over the test's PostgreSQL schema, leaderboards from one match."""
    started: list[Node] = []
    try:
        for name in "ab":
            started.append(start_node(name, database, tmp_path, *ONE_MATCH))
        yield started
    finally:
        for node in started:
            stop_node(node)
            # Shown with a failure: what each node did, to tell a stuck page from a stuck node.
            print(f"--- the end of node {node.name}'s log:")
            print(node.log.read_text(errors="replace")[-6000:])
    for node in started:
        assert "Traceback" not in node.log.read_text(errors="replace"), node.log.read_text()


@pytest.mark.timeout(MATCH_CEILING + 240)
def test_four_people_queue_across_two_nodes_play_a_rated_match_and_are_ranked(
    browser: Browser,  # noqa: F811
    two_nodes: list[Node],
    database: str,  # noqa: F811
    artifacts: Path,  # noqa: F811
) -> None:
    a, b = two_nodes
    urls = {a.name: a.url, b.name: b.url}

    def serving(table: str) -> str:
        """The node that holds the table's lease while it is played."""
        return urls[str(holder(database, table))]

    play_a_rated_match(browser, [a.url, a.url, b.url, b.url], artifacts, "pg", serving)


def play_a_rated_match(
    chromium: Browser, bases: list[str], folder: Path, tag: str, serving: Callable[[str], str]
) -> None:
    """Four people, the i-th at ``bases[i]``, register, queue, play a match and read their
    ratings and the leaderboard; ``serving`` names the address of the node that serves a
    table, where every table page must end."""
    opened: list[Pages] = []
    try:
        people = [
            register(chromium, base, name, opened) for base, name in zip(bases, NAMES, strict=True)
        ]
        table, base = queue_and_sit(people)
        # Whichever node each asked for the table, the page is the serving node's: those who
        # asked another were sent there.
        assert base == serving(table), (base, table)
        started = time.monotonic()
        play_the_match(people)
        print(f"\n[{tag}] the match took {time.monotonic() - started:.0f} s")
        winners = check_ratings(people)
        check_pages(people, winners, folder, tag)
        for pages in opened:
            assert pages.errors == [], "the pages reported script errors"
    finally:
        for pages in opened:
            pages.close()


def register(chromium: Browser, base: str, name: str, opened: list[Pages]) -> Person:
    """A new browser context at ``base`` registers ``name`` on the account page."""
    pages = Pages(chromium, base)
    opened.append(pages)
    page = pages.open("/account")
    sign_in(page, "register", name)
    return Person(name, page, base)


def queue_and_sit(people: list[Person]) -> tuple[str, str]:
    """Each presses Play now on /play; once the page gives the seat, each goes to it. The
    four sit at one table, each in a seat of their own; the table's id, and the node whose
    address every table page ends at."""
    for person in people:
        person.page.goto("/play")
        person.page.locator("#qm-join").click()
        person.page.locator("#qm-status").filter(has_text=re.compile(r"\S")).wait_for()
    tables = set()
    for person in people:
        go = person.page.locator("#qm-go")
        go.wait_for()
        href = go.get_attribute("href") or ""
        assert href.startswith("/t/") and "token=" in href, href
        tables.add(href.split("/t/")[1].split("?")[0])
    assert len(tables) == 1, f"the four were seated at {tables}"
    (table,) = tables
    for person in people:
        person.page.locator("#qm-go").click()
        person.page.wait_for_url(re.compile(rf"/t/{table}\?token="))
        person.page.locator("#felt").wait_for()
    # Whichever node each asked, every page is now at the node that serves the table.
    served_at = {person.page.url.split("/t/")[0] for person in people}
    assert len(served_at) == 1, served_at
    for person in people:
        person.seat = str(api(person.page, "/api/queue")["seat"])
    assert sorted(person.seat for person in people) == ["E", "N", "S", "W"]
    (base,) = served_at
    return table, base


def play_the_match(people: list[Person]) -> None:
    """Whoever the page offers a decision to makes it, until every page shows the match's
    end. A seat whose page offers Sawa (its cards sure to win every remaining trick) takes
    it; in the bidding a Sun is bid when offered (a Sun hand counts for more points, so the
    match ends sooner); otherwise a decision is drawn, from a seeded generator."""
    rng = random.Random(27)
    deadline = time.monotonic() + MATCH_CEILING
    over = [False] * len(people)
    while not all(over):
        assert time.monotonic() < deadline, "the match did not end"
        acted = False
        for n, person in enumerate(people):
            page = person.page
            if over[n]:
                continue
            seen = glance(page)
            if seen.over:
                over[n] = True
                continue
            if seen.sawa:
                acted = take(visible(page, '[data-control="claim"]:not([disabled])')) or acted
                continue
            check_offer(seen.actions, person.seat)
            if not seen.actions:
                continue
            if seen.actions == ["next"]:
                acted = take(page.locator('[data-action="next"]')) or acted
                # Said once: the page waits for the others (or shows the next hand).
                page.locator('[data-action="next"]').filter(visible=True).wait_for(state="hidden")
            else:
                suns = [action for action in seen.actions if action.endswith(" sun")]
                choice = suns[0] if suns else rng.choice(seen.actions)
                acted = take(page.locator(f'[data-action="{choice}"]')) or acted
        if not acted:
            people[0].page.wait_for_timeout(20)


def check_ratings(people: list[Person]) -> set[str]:
    """Each one's profile, as the API gives it: one rated match of four accounts, each rating
    moved (the winners' up, above the losers'), provisional; the winners' names."""
    profiles = {person.name: api(person.page, f"/api/players/{person.name}") for person in people}
    winners = set()
    for name, profile in profiles.items():
        classic = profile["ratings"]["classic"]
        assert classic["matches"] == 1 and classic["provisional"] is True, classic
        (match,) = profile["matches"]
        assert match["status"] == "over" and match["won"] in (True, False), match
        assert {seat["name"] for seat in match["players"].values()} == set(NAMES), match
        assert match["rated"] is not None and match["rated"]["rating"] == classic["rating"]
        (point,) = profile["history"]
        assert point["change"] == classic["rating"] != 0, point
        if match["won"]:
            winners.add(name)
    assert len(winners) == 2, winners
    lowest_winner = min(profiles[name]["ratings"]["classic"]["rating"] for name in winners)
    highest_loser = max(
        profiles[name]["ratings"]["classic"]["rating"] for name in set(NAMES) - winners
    )
    assert lowest_winner > 0 > highest_loser or lowest_winner > highest_loser
    return winners


def api(page: Page, path: str) -> Any:
    """``GET path`` from the page's own context (its node, its cookie)."""
    response = page.context.request.get(path)
    assert response.ok, (path, response.status)
    return response.json()


def check_pages(people: list[Person], winners: set[str], folder: Path, tag: str) -> None:
    """Each opens their own profile (its rating with "?", one rated match, the match won or
    lost) and the leaderboard, where all four are, the winners first; in Arabic on a phone
    too, photographed and checked with axe-core."""
    for person in people:
        page = person.page
        page.goto(f"/players/{person.name}")
        line = page.locator("#ratings li[data-preset=classic]")
        line.wait_for()
        rating = api(page, f"/api/players/{person.name}")["ratings"]["classic"]["rating"]
        assert line.inner_text() == f"classic: {rating}? · rated matches: 1"
        result = page.locator("#matches li .match-result").inner_text()
        assert result == ("Won" if person.name in winners else "Lost"), result
        page.goto("/leaderboard")
        rows = page.locator("#board-rows tr[data-player]")
        rows.first.wait_for()
        listed = rows.evaluate_all("rows => rows.map(r => r.dataset.player)")
        assert sorted(listed) == sorted(NAMES) and set(listed[:2]) == winners, listed
        assert "1 or more rated matches" in page.locator("#board-intro").inner_text()
        mine = page.locator(f'#board-rows tr[data-player="{person.name}"]')
        assert mine.locator("td").nth(3).inner_text() == "1"
    # In Arabic, on a phone: a loser's profile (a rating below zero, its sign) and the board.
    loser = next(person for person in people if person.name not in winners)
    page = loser.page
    page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    page.goto(f"/players/{loser.name}?lang=ar")
    page.locator("#ratings li[data-preset=classic]").wait_for()
    assert page.evaluate("() => document.documentElement.dir") == "rtl"
    assert ARABIC.search(page.locator("#ratings li").inner_text())
    # The plot runs from where the player started (0) to the rating after the match.
    page.locator("#plots svg circle").wait_for()
    drawn = page.locator("#plots svg polyline").get_attribute("points") or ""
    assert len(drawn.split()) == 2, drawn
    signs_before_numbers(page)
    fits_the_phone(page)
    no_serious_fault(page, "a player's profile after a rated match, in Arabic")
    shot(page, folder, f"match-profile-phone-ar-{tag}")
    page.goto("/leaderboard?lang=ar")
    page.locator("#board-rows tr[data-player]").nth(3).wait_for()
    signs_before_numbers(page)
    fits_the_phone(page)
    no_serious_fault(page, "the leaderboard after a rated match, in Arabic")
    shot(page, folder, f"match-leaderboard-phone-ar-{tag}")
    page.goto("/leaderboard")
    page.locator("#board-rows tr[data-player]").nth(3).wait_for()
    no_serious_fault(page, "the leaderboard after a rated match")


#: Where each minus sign of the page's text is drawn, and the first digit of its number: for
#: each, [the sign's left edge, the digit's left edge] in pixels (in a plot's text, in its
#: units).
SIGNS_AND_DIGITS = r"""root => {
  const found = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/[-\u2212][\u2066-\u2069]*(\d)/g)) {
      const sign = match.index;
      const digit = match.index + match[0].length - 1;
      const parent = node.parentElement;
      if (parent instanceof SVGTextContentElement) {
        found.push([parent.getExtentOfChar(sign).x, parent.getExtentOfChar(digit).x]);
        continue;
      }
      const left = (at) => {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        return range.getBoundingClientRect().left;
      };
      found.push([left(sign), left(digit)]);
    }
  }
  return found;
}"""


def signs_before_numbers(page: Page) -> None:
    """Every negative number on the page is drawn with its minus on the left of its digits,
    right to left as the page is: the bidirectional algorithm would put a bare one after."""
    placed: list[list[float]] = page.locator("main").evaluate(SIGNS_AND_DIGITS)
    assert placed, "no negative number on the page"
    wrong = [pair for pair in placed if pair[0] >= pair[1]]
    assert not wrong, f"a minus drawn after its number: {wrong} of {placed}"

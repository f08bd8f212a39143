"""The operators' page of the collusion screen in a real browser (``baloot serve`` and
Chromium, as in ``test_browser.py``; skipped without Chromium, failed under ``CI=true``): an
operator signs in on a phone, follows the account page's link, reads the kept run (the
distribution, the listed pair with links to its players' profiles, the others) and marks the
pair reviewed; the page in Arabic runs right to left; a player who is no operator finds no
link and one line; a guest is asked to sign in; with no serious accessibility fault
(axe-core).

The database is made before the server starts: the accounts with a password, one of them an
operator, and a run kept as ``baloot screen --keep`` keeps one, of blind leads written out
(``screen_helpers.keep_a_run``: no solver runs here)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from argon2 import PasswordHasher
from screen_helpers import keep_a_run
from test_browser import (
    ARABIC,
    PHONE,
    Pages,
    Served,
    _start_server,
    _stop_server,
    artifacts,  # noqa: F401 - a fixture
    browser,  # noqa: F401 - a fixture
    fits_the_phone,
    shot,
)
from test_browser_feel import no_serious_fault
from test_browser_players_account import PASSWORD, sign_in

from baloot.server.storage import open_store

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from playwright.sync_api import Browser

from playwright.sync_api import expect

#: The six players of the kept run: Amal and Badr read the deal.
SIX = ("Amal", "Badr", "Dana", "Fahd", "Huda", "Jud")


@pytest.fixture(scope="module")
def screened(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server whose database has an operator (Rashid), a player (Noura) and a kept run."""
    workdir = tmp_path_factory.mktemp("operator")
    kept = PasswordHasher().hash(PASSWORD)
    with open_store(str(workdir / "tables.db")) as store:
        made = {name: store.register(name, kept, 1.0) for name in ("Rashid", "Noura", *SIX)}
        assert store.add_operator(made["Rashid"].id, when=2.0)
        keep_a_run(store, [made[name].id for name in SIX])
    served = _start_server(workdir)
    yield served
    _stop_server(served.process)


@pytest.fixture
def pages(browser: Browser, screened: Served) -> Iterator[Pages]:  # noqa: F811
    opened = Pages(browser, screened.url)
    yield opened
    opened.close()
    assert opened.errors == [], "the pages reported script errors"


def refused(pages: Pages, status: int) -> None:
    """The page and its API answered ``status``, which the browser reports: expected here."""
    pages.errors[:] = [error for error in pages.errors if f"status of {status}" not in error]


def test_an_operator_reads_the_screen_and_marks_the_listed_pair_reviewed(
    pages: Pages,
    artifacts: Path,  # noqa: F811
) -> None:
    page = pages.open("/account", PHONE)
    sign_in(page, "login", "Rashid")
    page.locator("#operator-link a").click()
    page.wait_for_url("**/operator/screen")
    listed = page.locator("#op-listed li[data-pair='1']")
    # Each name is isolated (a name in one script within a line in another reads in order).
    expect(listed.locator("h3")).to_have_text("\u2068Amal\u2069 + \u2068Badr\u2069")
    expect(listed).to_contain_text("Found the best card: 40 of 40 (100.0%)")
    expect(listed).to_contain_text("The other pairs: 51.0% · how far out: z = +6.2")
    expect(page.locator("#op-others tr[data-pair]")).to_have_count(2)
    expect(page.locator("#op-histogram tr")).to_have_count(10)
    expect(page.locator("#op-counts")).to_have_text(
        "Matches: 2 · hands: 70 · blind leads: 140 · pairs: 3"
    )
    expect(page.locator(".op-note")).to_contain_text("never a verdict")
    fits_the_phone(page)
    no_serious_fault(page, "the operators' page")
    shot(page, artifacts, "operator-screen-phone")

    listed.locator("button").click()  # no note yet: said, nothing sent
    expect(page.locator("#op-error")).to_have_text("Write a note first.")
    listed.locator("textarea").fill("Read their matches: every lead found. Spoke to both.")
    listed.locator("button").click()
    expect(page.locator("#op-status")).to_have_text("Marked reviewed.")
    expect(listed.locator(".op-reviews li")).to_contain_text("Reviewed by \u2068Rashid\u2069 on")
    expect(page.locator("#op-error")).to_be_empty()
    page.reload()  # kept: the page reads it again
    expect(listed.locator(".op-reviews li")).to_contain_text("Spoke to both.")

    listed.locator("a", has_text="Amal").click()
    page.wait_for_url("**/players/Amal")
    expect(page.locator("#player-name")).to_have_text("Amal")


def test_the_screen_in_arabic_runs_right_to_left_on_a_phone(
    pages: Pages,
    artifacts: Path,  # noqa: F811
) -> None:
    page = pages.open("/account?lang=ar", PHONE)
    sign_in(page, "login", "Rashid")
    page.goto("/operator/screen?lang=ar")
    listed = page.locator("#op-listed li[data-pair='1']")
    listed.wait_for()
    assert page.evaluate("() => document.documentElement.dir") == "rtl"
    assert ARABIC.search(page.locator("h1").inner_text())
    assert ARABIC.search(page.locator(".op-note").inner_text())
    # The z-score keeps its sign before its number: the number is isolated left to right.
    against = listed.locator("p").nth(1).text_content() or ""
    assert re.search(r"\u2066\+6\.2\u2069", against), against
    fits_the_phone(page)
    no_serious_fault(page, "the operators' page in Arabic")
    shot(page, artifacts, "operator-screen-phone-ar")


def test_a_player_who_is_no_operator_finds_no_link_and_one_line(pages: Pages) -> None:
    page = pages.open("/account", PHONE)
    sign_in(page, "login", "Noura")
    expect(page.locator("#operator-link")).to_be_hidden()
    page.goto("/operator/screen")
    expect(page.locator("#op-error")).to_have_text("This page is for the server's operators.")
    expect(page.locator("#op-screen")).to_be_hidden()
    expect(page.locator("#op-sign-in")).to_be_hidden()
    assert "Amal" not in page.content()
    no_serious_fault(page, "the operators' page, refused")
    refused(pages, 403)


def test_a_guest_is_asked_to_sign_in(pages: Pages) -> None:
    page = pages.open("/operator/screen?lang=ar", PHONE)
    expect(page.locator("#op-error")).to_have_text("سجّل الدخول أولًا: هذه الصفحة لمشرفي الخادم.")
    expect(page.locator("#op-sign-in a")).to_have_attribute("href", "/account?lang=ar")
    no_serious_fault(page, "the operators' page, signed out")
    refused(pages, 401)

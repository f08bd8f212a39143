"""The analysis page in a real browser: ``baloot serve`` in a subprocess, Chromium through
Playwright, as in ``test_browser.py`` (skipped without Chromium, failed under ``CI=true``).

A hand played by clicking, then the hand-over screen's link to its analysis; a finished
match from the history to the analysis of its thrown trick, in Arabic; a phone; a hand in
progress, refused."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from helpers import WAIT, free_port
from spec_example import record_text
from test_analysis import THROWN, THROWN_ACTIONS, THROWN_DECK
from test_browser import (
    ARABIC,
    PHONE,
    Pages,
    Served,
    _answers,
    _stop_server,
    artifacts,  # noqa: F401 - a fixture
    browser,  # noqa: F401 - a fixture
    fits_the_phone,
    play_until,
    shot,
    visible,
)
from test_browser_feel import no_serious_fault
from test_server_analysis import stored_match

import baloot
from baloot.server.storage import open_store

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``baloot serve`` whose analyses judge exact values only (the quickest), with a
    finished match kept in its database: the thrown hand."""
    workdir = tmp_path_factory.mktemp("serve-analysis")
    database = workdir / "tables.db"
    with open_store(str(database)) as store:
        stored_match(store, "thrown", record_text(THROWN_ACTIONS, deck=THROWN_DECK))
    source = str(Path(baloot.__file__).resolve().parents[1])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [source, env.get("PYTHONPATH")]))
    log = workdir / "serve.log"
    port = free_port()
    command = [sys.executable, "-m", "baloot", "serve", "--port", str(port), "--db"]
    command += [str(database), "--bot-pause", "0", "--analysis-bot", "none"]
    with log.open("ab") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + WAIT
    while not _answers(url):
        assert process.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)
    yield Served(url, process, log)
    _stop_server(process)


@pytest.fixture
def pages(browser: Browser, server: Served) -> Iterator[Pages]:  # noqa: F811
    opened = Pages(browser, server.url)
    yield opened
    opened.close()
    assert opened.errors == [], "the pages reported script errors"


def test_the_hand_over_screen_links_to_the_hands_analysis(
    pages: Pages,
    server: Served,
    artifacts: Path,  # noqa: F811
) -> None:
    created = server.create({"S": "human"})
    page = pages.open(created["seats"]["S"]["url"])
    play_until(page, "S", lambda p: visible(p, ".analysis-link").count() > 0, limit=400)
    link = visible(page, ".analysis-link").first
    number = link.get_attribute("data-analysis")
    assert page.locator(f'#running a[data-analysis="{number}"]').count() == 1
    assert "token" not in (link.get_attribute("href") or "")
    with page.context.expect_page() as opening:
        link.click()
    analysis = opening.value
    analysis.locator("#decisions tbody tr[data-position]").first.wait_for()
    assert analysis.locator("#analysis-title").inner_text() == f"Analysis · hand {number}"
    rows = analysis.locator("#decisions tbody tr[data-position]")
    assert rows.count() >= 10
    assert analysis.locator("#summary tbody tr[data-seat]").count() == 4
    assert "Back to the table" in analysis.locator("#table-link").inner_text()
    no_serious_fault(analysis, "the analysis")
    shot(analysis, artifacts, "analysis-after-hand")


def test_the_history_leads_to_the_analysis_of_a_thrown_trick_in_arabic(
    pages: Pages,
    artifacts: Path,  # noqa: F811
) -> None:
    history = pages.open("/history?lang=ar")
    link = visible(history, '[data-analysis="thrown"]').first
    link.wait_for()
    no_serious_fault(history, "the history")
    link.click()
    history.wait_for_url("**/t/thrown/hands/1/analysis?lang=ar")
    row = history.locator(f'#decisions tr[data-position="{THROWN}"]')
    row.wait_for()
    assert row.get_attribute("data-mark") == "blunder"
    text = row.inner_text()
    assert "??" in text and "خطأ فادح" in text and "A♠" in text and "22" in text
    assert history.locator("html").get_attribute("dir") == "rtl"
    assert ARABIC.search(history.locator("#analysis-notes").inner_text())
    assert history.locator("#hand-links strong").inner_text() == "1"
    no_serious_fault(history, "the Arabic analysis")
    shot(history, artifacts, "analysis-ar")


def test_the_analysis_fits_a_phone(pages: Pages, artifacts: Path) -> None:  # noqa: F811
    page = pages.open("/t/thrown/hands/1/analysis", viewport=PHONE)
    page.locator("#decisions tbody tr").first.wait_for()
    fits_the_phone(page)
    hidden = page.evaluate(
        "() => [...document.querySelectorAll('.scroll')]"
        ".filter(box => box.scrollWidth > box.clientWidth).length"
    )
    assert hidden == 0, "a table of the analysis needs sideways scrolling on a phone"
    assert page.locator(".scroll-hint").count() == 0
    shot(page, artifacts, "analysis-phone")
    # Narrower still, a table that no longer fits says that it scrolls.
    page.set_viewport_size({"width": 240, "height": PHONE["height"]})
    page.wait_for_function(
        """() => [...document.querySelectorAll('.scroll')].every((box) =>
            box.scrollWidth <= box.clientWidth + 1
            || box.previousElementSibling?.classList.contains('scroll-hint'))"""
    )
    assert page.locator(".scroll-hint").count() > 0


def test_a_hand_in_progress_has_no_analysis_yet(pages: Pages, server: Served) -> None:
    created = server.create({"S": "human"})
    page = pages.open(f"/t/{created['table']}/hands/1/analysis")
    status = page.locator("#analysis-status")
    status.filter(has_text="not over").wait_for()
    assert page.locator("#analysis-hand").is_hidden()
    # The browser logs the 409 it was answered: expected here, and nothing else.
    refused = [e for e in pages.errors if "status of 409 (Conflict)" in e]
    assert len(refused) == 1
    pages.errors.remove(refused[0])

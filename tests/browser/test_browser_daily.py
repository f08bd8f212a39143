"""The daily page in a real browser (``baloot serve --daily-bot easy`` and Chromium, as in
``test_browser.py``; skipped without Chromium, failed under ``CI=true``): a player registers,
opens /daily on a phone and plays deal 1 to its end by clicking, with no serious
accessibility fault (axe-core)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from test_browser import (
    PHONE,
    Pages,
    Served,
    _start_server,
    _stop_server,
    browser,  # noqa: F401 - a fixture
    fits_the_phone,
)
from test_browser_feel import no_serious_fault
from test_browser_players_account import sign_in

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from playwright.sync_api import Browser

from playwright.sync_api import expect


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = _start_server(tmp_path_factory.mktemp("daily"), "--daily-bot", "easy")
    yield running
    _stop_server(running.process)


@pytest.fixture
def pages(browser: Browser, served: Served) -> Iterator[Pages]:  # noqa: F811
    opened = Pages(browser, served.url)
    yield opened
    opened.close()
    assert opened.errors == [], "the pages reported script errors"


def test_a_player_plays_deal_one_of_the_day_by_clicking(pages: Pages) -> None:
    page = pages.open("/account", PHONE)
    sign_in(page, "register", "DailyPlayer")
    page.goto("/daily")
    page.locator("#daily-deals li[data-deal='1'] button").click()
    expect(page.locator("#daily-play")).to_be_visible()
    no_serious_fault(page, "/daily while playing")
    fits_the_phone(page)
    for _ in range(60):
        if page.locator("#daily-result").inner_text():
            break
        page.locator("#daily-legal button:enabled").first.click()
        page.wait_for_function(
            "() => document.querySelector('#daily-result').textContent"
            " || document.querySelector('#daily-legal button:enabled')"
        )
    expect(page.locator("#daily-result")).not_to_be_empty()
    expect(page.locator("#daily-deals li[data-deal='1']")).to_contain_text("Score")
    expect(page.locator("#daily-board-rows tr")).to_have_count(1)

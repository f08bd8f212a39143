"""The daily pages in a real browser (``baloot serve --daily-bot easy`` and Chromium, as in
``test_browser.py``; skipped without Chromium, failed under ``CI=true``): a player registers,
opens /daily on a phone and plays deal 1 to its end by clicking; with yesterday's plays and an
earlier fortnight's kept in the database, they open yesterday's deal 3 from /daily and read
its hands, field, histogram and their own decisions, see their series level, and read the
rules, in English and Arabic, with no serious accessibility fault (axe-core)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from social_accounts import add_player
from test_browser import (
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
from test_browser_players_account import sign_in

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from playwright.sync_api import Browser

from playwright.sync_api import Page, expect

from baloot.server.players import daily_hand
from baloot.server.players.daily import instance_of, today
from baloot.server.players.daily_series import period_bounds, period_of
from baloot.server.storage import Store, open_store


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


def seed_past_days(store: Store, me: str) -> str:
    """Yesterday's deal 3 played out by ``me`` and two others (South taking the first legal
    action), and a day of the last fortnight won by ``me`` on every deal; yesterday's date."""
    now = today(time.time())
    yesterday = (now - dt.timedelta(days=1)).isoformat()
    others = [add_player(store, name).id for name in ("Amal", "Badr")]
    secret, _ = store.daily_day(yesterday, bytes(range(32)), 0.0)
    for player in (me, *others):
        instance = instance_of(secret, 3, player)
        hand = daily_hand.rebuilt(secret, 3, instance, ())
        moves = daily_hand.bots_turns(hand, secret, 3, "easy")
        while not hand.is_over:
            moves.append(daily_hand.south_acts(hand, str(hand.legal_actions()[0])))
            moves += daily_hand.bots_turns(hand, secret, 3, "easy")
        play = store.daily_start(yesterday, 3, player, instance, 0.0)
        assert store.daily_advance(play, moves, *daily_hand.outcome(hand), 1.0)
    earlier = period_bounds(period_of(now) - 1)[0].isoformat()
    store.daily_day(earlier, bytes(32), 0.0)
    for deal in range(1, 9):
        for player, score in ((me, 20), (others[0], 0), (others[1], -20)):
            play = store.daily_start(earlier, deal, player, 0, 0.0)
            assert store.daily_advance(play, ["kept"], score, None, 1.0)
    return yesterday


def read_the_deal(page: Page, lang: str) -> None:
    """The deal's page as it should read: four hands of eight, the field of three with me
    marked, a histogram of three plays, and my decisions."""
    expect(page.locator("#deal-hands-panel")).to_be_visible()
    expect(page.locator(".daily-seat")).to_have_count(4)
    for seat in ("N", "W", "S", "E"):
        expect(page.locator(f".daily-seat[data-seat='{seat}'] .card")).to_have_count(8)
    expect(page.locator("#deal-field-rows tr")).to_have_count(3)
    expect(page.locator("#deal-field-rows tr.daily-me")).to_have_count(1)
    expect(page.locator("#deal-field-rows tr.daily-me")).to_contain_text("PastPlayer")
    expect(page.locator("#deal-histogram li")).to_have_count(10)
    counts = page.locator("#deal-histogram .daily-count").all_inner_texts()
    assert sum(int(count) for count in counts) == 3
    expect(page.locator("#deal-mine-panel")).to_be_visible()
    assert page.locator("#deal-mine-rows tr").count() >= 1
    expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "ar" else "ltr")
    no_serious_fault(page, f"the deal's page ({lang})")
    fits_the_phone(page)


def test_a_past_deal_shows_its_hands_field_and_my_decisions_in_both_languages(
    pages: Pages,
    served: Served,
    artifacts: Path,  # noqa: F811
) -> None:
    page = pages.open("/account", PHONE)
    sign_in(page, "register", "PastPlayer")
    store = open_store(str(served.log.parent / "tables.db"))
    try:
        me = store.player_named("PastPlayer")
        assert me is not None
        yesterday = seed_past_days(store, me.id)
    finally:
        store.close()
    for lang, words in (("en", ("Deal 3", "Silver")), ("ar", ("التوزيع 3", "فضي"))):
        page.goto("/daily" + ("?lang=ar" if lang == "ar" else ""))
        expect(page.locator("#daily-yesterday")).to_be_visible()
        expect(page.locator("#yesterday-board-rows tr")).to_have_count(3)
        expect(page.locator("#series-mine")).to_contain_text(words[1])
        expect(page.locator(".series-level")).to_have_count(2)
        no_serious_fault(page, f"/daily with a past day ({lang})")
        fits_the_phone(page)
        shot(page, artifacts, f"daily-{lang}")
        page.locator("#yesterday-deals a[data-deal='3']").click()
        page.wait_for_url(f"**/daily/{yesterday}/3**")
        expect(page.locator("#deal-title")).to_contain_text(words[0])
        read_the_deal(page, lang)
        shot(page, artifacts, f"daily-deal-{lang}")
        page.goto("/daily/rules" + ("?lang=ar" if lang == "ar" else ""))
        expect(page.locator("#rules-example tbody tr")).to_have_count(5)
        no_serious_fault(page, f"the rules ({lang})")
        fits_the_phone(page)
        shot(page, artifacts, f"daily-rules-{lang}")

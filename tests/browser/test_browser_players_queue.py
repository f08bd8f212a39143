"""The play page in a real browser (``baloot serve`` and Chromium, as in ``test_browser.py``;
skipped without Chromium): signed out it leads to signing in; signed in, "Play now" waits, then
"Fill with bots now" gives the seat's link; the friends list asks, shows, blocks; in English
and in Arabic, on a phone, with no serious accessibility fault (axe-core)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from social_accounts import Account, add_player
from test_browser import (
    ARABIC,
    PHONE,
    WAIT_MS,
    Served,
    browser,  # noqa: F401 - a fixture
    fits_the_phone,
    server,  # noqa: F401 - a fixture
)
from test_browser_feel import no_serious_fault

from baloot.server.storage import open_store

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from playwright.sync_api import Browser, Page


@pytest.fixture
def opened(browser: Browser) -> Iterator[list[Page]]:  # noqa: F811
    pages: list[Page] = []
    yield pages
    for page in pages:
        page.context.close()


def open_page(
    browser: Browser,  # noqa: F811
    served: Served,
    path: str,
    opened: list[Page],
    account: Account | None = None,
) -> Page:
    """``path`` in a context of its own, signed in as ``account`` when given: its session's
    cookie, and ``GET /api/account`` answered as the accounts' endpoint answers it."""
    context = browser.new_context(viewport=PHONE, base_url=served.url, reduced_motion="reduce")  # type: ignore[arg-type]
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    opened.append(page)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    if account is not None:
        context.add_cookies([{"name": "baloot_session", "value": account.token, "url": served.url}])
        player = {"player": {"id": account.id, "name": account.name}, "csrf": account.csrf}
        page.route(
            "**/api/account",
            lambda route: route.fulfill(
                status=200, content_type="application/json", body=json.dumps(player)
            ),
        )
    page.goto(path)
    return page


def accounts(served: Served, *names: str) -> list[Account]:
    database = served.log.parent / "tables.db"
    store = open_store(str(database))
    try:
        return [add_player(store, name) for name in names]
    finally:
        store.close()


def test_signed_out_the_play_page_leads_to_signing_in(
    browser: Browser,  # noqa: F811
    server: Served,  # noqa: F811
    opened: list[Page],
) -> None:
    for lang in ("en", "ar"):
        page = open_page(browser, server, f"/play?lang={lang}", opened)
        page.locator("#signed-out").wait_for()
        assert page.locator("#queue-box").is_hidden()
        if lang == "ar":
            assert ARABIC.search(page.locator("#signed-out").inner_text())
        fits_the_phone(page)
        no_serious_fault(page, f"/play?lang={lang} signed out")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_play_now_then_bots_gives_my_seat_and_friends_are_listed(
    browser: Browser,  # noqa: F811
    server: Served,  # noqa: F811
    opened: list[Page],
    lang: str,
) -> None:
    me, friend = accounts(server, f"Me {lang}", f"Friend {lang}")
    page = open_page(browser, server, f"/play?lang={lang}", opened, me)
    page.locator("#qm-preset option").first.wait_for(state="attached")
    page.locator("#qm-join").click()
    page.locator("#qm-bots").wait_for()
    assert page.locator("#qm-status").inner_text()
    no_serious_fault(page, f"/play?lang={lang} waiting")
    page.locator("#qm-bots").click()
    page.locator("#qm-go").wait_for()
    assert "/t/" in (page.locator("#qm-go").get_attribute("href") or "")
    page.locator("#fr-name").fill(friend.name)
    page.locator("#fr-ask-form button").click()
    page.locator(f'[data-friend="{friend.name}"]').wait_for()
    fits_the_phone(page)
    no_serious_fault(page, f"/play?lang={lang} seated, a friend asked")
    # The friend sees the request and accepts it: now friends, and online.
    theirs = open_page(browser, server, f"/play?lang={lang}", opened, friend)
    row = theirs.locator(f'[data-friend="{me.name}"]')
    row.locator("button").first.click()
    theirs.locator(f'[data-friend="{me.name}"] .presence.online').wait_for()

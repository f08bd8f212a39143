"""Inviting a friend in one tap, in a real browser (``baloot serve`` and Chromium, as in
``test_browser.py``; skipped without Chromium): two people register and become friends; one
makes a table in the lobby with a human seat for the other, taps "Invite" beside their name
under that seat's link, and the other taps "Join" on the play page (the lobby notes the
invitation) and is seated; in English and in Arabic, on a phone, with no serious accessibility
fault (axe-core)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from test_browser import (
    ARABIC,
    PHONE,
    Pages,
    Served,
    browser,  # noqa: F401 - a fixture
    fits_the_phone,
    pages,  # noqa: F401 - a fixture
    server,  # noqa: F401 - a fixture
)
from test_browser_feel import no_serious_fault
from test_browser_players_account import seats_of

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from playwright.sync_api import Page

from playwright.sync_api import expect

PASSWORD = "a long secret"


def registered(pages: Pages, name: str, lang: str) -> tuple[Page, str]:  # noqa: F811
    """A phone's page (in a context of its own) whose person registered as ``name``: the
    page, and the session's CSRF token."""
    page = pages.open(f"/?lang={lang}", PHONE)
    answer = page.request.post("/api/account/register", data={"name": name, "password": PASSWORD})
    assert answer.status == 201, answer.text()
    csrf: str = answer.json()["csrf"]
    return page, csrf


def befriend(page: Page, csrf: str, name: str) -> Any:
    answer = page.request.post(f"/api/friends/{name}", headers={"x-csrf-token": csrf})
    assert answer.ok, answer.text()
    return answer.json()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_friend_is_invited_in_one_tap_and_joins_in_one_tap(
    pages: Pages,  # noqa: F811
    server: Served,  # noqa: F811
    tmp_path: Path,
    lang: str,
) -> None:
    host, host_csrf = registered(pages, f"Host_{lang}", lang)
    guest, guest_csrf = registered(pages, f"Guest_{lang}", lang)
    befriend(host, host_csrf, f"Guest_{lang}")
    assert befriend(guest, guest_csrf, f"Host_{lang}")["state"] == "friends"
    # The host makes a table with North a human seat: under its link, the friends to invite.
    host.goto(f"/?lang={lang}")
    host.locator("#seat-N option").first.wait_for(state="attached")
    host.select_option("#seat-N", "human")
    host.click("#create-btn")
    invite = host.locator(f'[data-invite-seat="N"] button[data-friend="Guest_{lang}"]')
    expect(invite).to_be_visible()
    if lang == "ar":
        assert host.locator("html").get_attribute("dir") == "rtl"
        assert ARABIC.search(host.locator(".invite-title").first.inner_text())
    fits_the_phone(host)
    no_serious_fault(host, f"/?lang={lang} a table made, friends to invite")
    invite.click()
    expect(invite).to_be_disabled()
    expect(host.locator("#invite-friends [role=status]")).to_contain_text(f"Guest_{lang}")
    links = host.locator("#links input").first.input_value()
    table = re.search(r"/t/([A-Za-z0-9_-]+)", links)
    assert table is not None
    shots = os.environ.get("BALOOT_SHOTS")
    host.locator("#created").scroll_into_view_if_needed()
    host.screenshot(path=str(Path(shots or tmp_path) / f"invite-{lang}.png"))
    # The friend's lobby notes the invitation; the play page joins in one tap.
    guest.goto(f"/?lang={lang}")
    expect(guest.locator("#invited-line")).to_contain_text(f"Host_{lang}")
    no_serious_fault(guest, f"/?lang={lang} invited")
    guest.click("#invited-box a")
    join = guest.locator("#invites li[data-invite] button.primary")
    expect(join).to_be_visible()
    fits_the_phone(guest)
    no_serious_fault(guest, f"/play?lang={lang} invited")
    join.click()
    guest.wait_for_url(re.compile(rf"/t/{table.group(1)}\?token="))
    assert seats_of(server, table.group(1)).get("N") == f"Guest_{lang}"

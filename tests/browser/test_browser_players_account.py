"""The account page in a real browser (``baloot serve`` and Chromium, as in ``test_browser.py``;
skipped without Chromium, failed under ``CI=true``): a guest registers on a phone, the seat
this browser held becomes the account's, signs out and signs in again, in English and in
Arabic, with no serious accessibility fault (axe-core)."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from test_browser import (
    ARABIC,
    PHONE,
    Pages,
    Served,
    browser,  # noqa: F401 - a fixture
    pages,  # noqa: F401 - a fixture
    server,  # noqa: F401 - a fixture
)
from test_browser_feel import no_serious_fault

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from playwright.sync_api import Page

from playwright.sync_api import expect

PASSWORD = "a long secret"


def sign_in(page: Page, form: str, name: str, shown: str | None = None) -> None:
    """Fill the form ``form`` (login or register) with ``name`` and the password, send it,
    and wait until the page says who is signed in (``shown``: the name as kept)."""
    page.fill(f"#{form}-name", name)
    page.fill(f"#{form}-password", PASSWORD)
    page.click(f"#{form} button[type=submit]")
    expect(page.locator("#member")).to_be_visible()
    expect(page.locator("#signed-in-as")).to_contain_text(shown or name)


def sign_out(page: Page) -> None:
    page.click("#logout")
    expect(page.locator("#guest")).to_be_visible()
    expect(page.locator("#member")).to_be_hidden()


def seats_of(served: Served, table: str) -> dict[str, str]:
    """The seats of ``table`` that accounts hold, read from the server's database."""
    with sqlite3.connect(served.log.parent / "tables.db") as database:
        rows = database.execute(
            "SELECT seat, p.name FROM seat_players s JOIN players p ON p.id = s.player_id"
            " WHERE table_id = ?",
            (table,),
        ).fetchall()
    return {str(seat): str(name) for seat, name in rows}


def test_a_guest_registers_keeps_its_seat_signs_out_and_in_again_in_english(
    pages: Pages,  # noqa: F811
    server: Served,  # noqa: F811
) -> None:
    created = server.create({"S": "human"})
    page = pages.open(created["seats"]["S"]["url"], PHONE)
    page.wait_for_function("() => localStorage.getItem('baloot.my-tables')")
    page.goto("/")
    page.click("a[href='/account']")
    page.wait_for_url("**/account")
    expect(page.locator("#guest")).to_be_visible()
    expect(page.locator("h1")).to_have_text("Your account")
    no_serious_fault(page, "the account page, signed out")

    sign_in(page, "register", "Saad_1")
    assert seats_of(server, created["table"]) == {"S": "Saad_1"}
    expect(page.locator("#account-status")).to_have_text(
        "Your account is made, and you are signed in."
    )
    no_serious_fault(page, "the account page, signed in")
    page.reload()  # the cookie keeps the session
    expect(page.locator("#signed-in-as")).to_contain_text("Saad_1")

    sign_out(page)
    sign_in(page, "login", "saad_1", "Saad_1")  # the name in another case is the same name


def test_the_account_page_in_arabic(
    pages: Pages,  # noqa: F811
    server: Served,  # noqa: F811
) -> None:
    page = pages.open("/account?lang=ar", PHONE)
    assert page.locator("html").get_attribute("dir") == "rtl"
    expect(page.locator("#guest")).to_be_visible()
    assert ARABIC.search(page.locator("h1").inner_text())
    assert ARABIC.search(page.locator("#login button").inner_text())
    no_serious_fault(page, "the Arabic account page, signed out")

    sign_in(page, "register", "سعد")
    assert ARABIC.search(page.locator("#account-status").inner_text())
    no_serious_fault(page, "the Arabic account page, signed in")
    sign_out(page)
    sign_in(page, "login", "سعد")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the page is wider than the phone"

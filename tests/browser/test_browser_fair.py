"""Fair deals in a real browser (``baloot serve`` and Chromium, as in ``test_browser.py``;
skipped without Chromium, failed under ``CI=true``): a seat's page sends its 16 bytes as soon as
it sees the commitment of a hand not yet dealt (the first hand waits for them), its score sheet
then says the deal was verified, and a deal no player's bytes went into is said to be the
server's alone, on the sheet and on ``/fair``, in both languages."""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING, Any

from helpers import WAIT
from test_browser import (
    ARABIC,
    Pages,
    Served,
    browser,  # noqa: F401 - a fixture
    expect_deal_verified,
    pages,  # noqa: F401 - a fixture
    play_until,
    server,  # noqa: F401 - a fixture
    visible,
)

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from playwright.sync_api import Page, WebSocket

#: Checks a reveal with no player's entropy and one with South's, as the page's fair.js does.
CHECK_REVEALS = """async () => {
    const fair = await import("/static/fair.js");
    const secret = "00112233445566778899aabbccddeeff".repeat(2);
    const commitment = await fair.commitmentOf(secret);
    fair.rememberCommitment("t-alone", { hand: 1, commitment });
    const found = [];
    for (const entropy of [{}, { S: "9f" }]) {
        const deck = await fair.derivedDeck(secret, entropy);
        const view = { seat: null, exposed: deck[20], dealer: "E", tricks: [], hand: [] };
        const reveal = { hand: 1, commitment, secret, entropy };
        found.push(await fair.checkReveal("t-alone", reveal, view, null));
    }
    return found;
}"""


def heard_frames(page: Page) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The messages the page's table sockets send and receive, from now on."""
    sent: list[dict[str, Any]] = []
    received: list[dict[str, Any]] = []

    def listen(socket: WebSocket) -> None:
        socket.on("framesent", lambda payload: sent.append(json.loads(payload)))
        socket.on("framereceived", lambda payload: received.append(json.loads(payload)))

    page.on("websocket", listen)
    return sent, received


def until(page: Page, done: Any) -> None:
    """Wait, the page running on, until ``done()`` holds."""
    ceiling = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < ceiling, "never done"
        page.wait_for_timeout(100)


def test_a_page_sends_its_entropy_for_the_first_hand_and_its_sheet_says_deal_verified(
    pages: Pages,  # noqa: F811
    server: Served,  # noqa: F811
) -> None:
    created = server.create({"S": "human"})  # no entropy with the table: it comes after
    page = pages.open("/fair")  # a page of the server first, so that every frame is heard
    sent, received = heard_frames(page)
    page.goto(created["seats"]["S"]["url"])
    play_until(page, "S", lambda p: visible(p, '[data-action="next"]').count() > 0)
    expect_deal_verified(page)
    given = [message for message in sent if message.get("type") == "entropy"]
    first = given[0]
    assert first["hand"] == 1 and re.fullmatch(r"[0-9a-f]{32}", first["entropy"])
    over = next(m for m in received if m.get("type") == "hand-over")
    assert over["fair"]["hand"] == 1 and over["fair"]["commitment"] == created["fair"]["commitment"]
    assert over["fair"]["entropy"] == {"S": first["entropy"]}  # the first hand was dealt from it
    # The next hand's bytes go as soon as the hand-over commits to it, before Next is pressed.
    until(page, lambda: any(m.get("type") == "entropy" and m["hand"] == 2 for m in sent))
    assert [m for m in received if m.get("type") == "reject"] == []


def test_a_deal_no_players_bytes_went_into_is_said_to_be_the_servers_alone(
    pages: Pages,  # noqa: F811
) -> None:
    page = pages.open("/fair")
    assert page.evaluate(CHECK_REVEALS) == ["alone", "verified"]
    words = "async () => (await import('/static/i18n.js')).t('deal_alone')"
    assert page.evaluate(words).startswith("Deal verified ✓ — but no player's bytes")
    assert "the server alone chose that deck" in page.locator(".fair-explained").inner_text()
    arabic = pages.open("/fair?lang=ar")
    assert ARABIC.search(arabic.evaluate(words))
    assert "الخادم وحده" in arabic.locator(".fair-explained").inner_text()

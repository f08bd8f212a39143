"""A past daily deal on SQLite and PostgreSQL: its four hands, my play judged by the exact
solver, the deal's and the rules' pages in both languages, and one clear line with a 4xx for
every bad request."""

from __future__ import annotations

import re
from collections import Counter

from social_accounts import add_player
from test_players_daily import DAY, Daily, daily, doc_table  # noqa: F401 - a fixture

from baloot.server.players.daily import deal_deck


def test_the_hands_of_a_past_deal_are_its_deck_as_my_play_completed_it(
    daily: Daily,  # noqa: F811
) -> None:
    players = [add_player(daily.store, name) for name in ("Amal", "Badr", "Dana")]
    day = daily.get("/api/daily")[1]["date"]
    plays = [daily.play_out(who, 3) for who in players]
    assert daily.get(f"/api/daily/{day}/leaderboard")[1]["pages"] == []
    daily.offset += DAY
    pages = daily.get(f"/api/daily/{day}/leaderboard")[1]["pages"]
    assert pages == [f"/daily/{day}/{n}" for n in range(1, 9)]
    secret = bytes.fromhex(daily.get("/api/daily")[1]["yesterday"]["secret"])
    for who, play in zip(players, plays, strict=True):
        status, shown = daily.get(f"/api/daily/{day}/3", who)
        hands = shown["hands"]
        assert status == 200 and hands["instance"] == play["instance"]
        deck = {c.text for c in deal_deck(secret, 3, play["instance"])}
        assert all(len(cards) == 8 for cards in hands["seats"].values())
        assert {card for cards in hands["seats"].values() for card in cards} == deck
        contract = play["contract"]
        assert hands["taker"] == (None if contract is None else contract["declarer"])
        assert hands["trump"] == (None if contract is None else contract["trump"])
    _, anonymous = daily.get(f"/api/daily/{day}/3")
    takers = Counter(p["contract"]["declarer"] for p in plays if p["contract"] is not None)
    assert anonymous["hands"]["instance"] == 0
    if takers:
        assert takers[anonymous["hands"]["taker"]] == max(takers.values())
    assert anonymous["hands"]["exposed"] == deal_deck(secret, 3, 0)[20].text


def test_my_past_play_is_judged_decision_by_decision(daily: Daily) -> None:  # noqa: F811
    amal, badr = add_player(daily.store, "Amal"), add_player(daily.store, "Badr")
    day = daily.get("/api/daily")[1]["date"]
    play = daily.play_out(amal, 1)
    status, early = daily.get(f"/api/daily/{day}/1/analysis", amal)
    assert status == 403 and early == {"error": "a deal is shown once its day is over"}
    daily.offset += DAY
    status, judged = daily.get(f"/api/daily/{day}/1/analysis", amal)
    assert status == 200 and judged["score"] == play["score"]
    assert judged["instance"] == play["instance"] and judged["contract"] == play["contract"]
    south = [a for a in play["view"]["actions"] if a.startswith("S ")]
    chosen = [d["action"] for d in judged["decisions"]]
    assert chosen and all(any(a.startswith(c) for a in south) for c in chosen)
    for decision in judged["decisions"]:
        assert decision["action"].startswith("S ")
        assert decision["loss"] == decision["best_value"] - decision["value"] >= 0
    assert daily.get(f"/api/daily/{day}/1/analysis")[0] == 401
    status, none = daily.get(f"/api/daily/{day}/1/analysis", badr)
    assert status == 404 and none == {"error": f"you did not play deal 1 on {day}"}
    status, bad = daily.get(f"/api/daily/{day}/9/analysis", amal)
    assert status == 400 and bad == {"error": "a deal is a number from 1 to 8"}
    assert daily.get("/api/daily/1999-01-01/1/analysis", amal)[0] == 404


def test_the_deal_and_rules_pages_are_served_in_both_languages(daily: Daily) -> None:  # noqa: F811
    pages = (("/daily/2026-01-05/3", "daily-deal.js"), ("/daily/rules", "daily-rules.js"))
    for path, script in pages:
        for lang, direction in (("en", "ltr"), ("ar", "rtl")):
            response = daily.client.get(f"{path}?lang={lang}")
            assert response.status_code == 200
            assert f'dir="{direction}"' in response.text and f"/static/{script}" in response.text


def test_the_rules_page_shows_the_worked_example_of_the_docs(daily: Daily) -> None:  # noqa: F811
    html = daily.client.get("/daily/rules").text
    cells = re.findall(
        r"<tr><td>(\w+)</td><td>(?:<bdi dir=\"ltr\">)?(-?\d+)(?:</bdi>)?</td>"
        r"<td>\d+</td><td>\d+</td><td>([\d.]+)</td></tr>",
        html,
    )
    assert [(name, int(score), float(points)) for name, score, points in cells] == doc_table()

"""The daily series: the worked example of docs/daily.md, the levels folded period after
period (Hypothesis: in any order, one level a period at most, always a level), and
``GET /api/daily/series`` over plays kept on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import itertools
import random
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from social_accounts import Account, add_player
from test_players_daily import Daily, daily  # noqa: F401 - a fixture

from baloot.server.players.daily_series import (
    FIRST_DAY,
    LEAST,
    LEVELS,
    PERIOD_DAYS,
    PROMOTE,
    RELEGATE,
    WINDOW,
    Result,
    moved,
    period_bounds,
    period_of,
    standings,
)
from baloot.server.storage import Store

DOC = Path(__file__).parents[2] / "docs" / "daily.md"
CATALOGS = Path(__file__).parents[2] / "src" / "baloot" / "server" / "static" / "i18n.js"
NAMES = [english for english, _ in LEVELS]


def doc_rows() -> list[tuple[str, int, int, float, int]]:
    """The series' worked example: each player, level, results, average and level after."""
    text = DOC.read_text(encoding="utf-8").split("## Series", 1)[1]
    text = text.split("### Worked example", 1)[1]
    rows = re.findall(r"^\| (\w+) +\| (\w+) +\| (\d+) +\| ([\d.]+) +\| (\w+) +\|$", text, re.M)
    return [
        (name, NAMES.index(level) + 1, int(results), float(points), NAMES.index(after) + 1)
        for name, level, results, points, after in rows
    ]


def test_the_worked_example_of_the_docs_is_what_the_rules_give() -> None:
    rows = doc_rows()
    assert len(rows) == 6
    for _, level, results, points, after in rows:
        assert moved(level, points, results) == after


def test_the_docs_and_the_rules_page_say_the_numbers_the_rules_use() -> None:
    numbers = [str(n) for n in (WINDOW, LEAST, int(PROMOTE), int(RELEGATE), PERIOD_DAYS)]
    section = DOC.read_text(encoding="utf-8").split("## Series", 1)[1].split("###", 1)[0]
    assert all(re.search(rf"\b{n}\b", section) for n in numbers)
    assert "5 January 2026" in section and all(english in section for english in NAMES)
    catalogs = CATALOGS.read_text(encoding="utf-8")
    said = re.findall(r'^  rules_(?:series|moves): "(.*)",$', catalogs, re.M)
    assert len(said) == 4
    for english, arabic in (said[:2], said[2:]):
        assert all(re.search(rf"\b{n}\b", english + " " + arabic) for n in numbers)
    assert all(name in said[0] for name in NAMES)
    assert all(name in said[2] for _, name in LEVELS)


def test_the_periods_are_fortnights_from_the_first_monday() -> None:
    assert FIRST_DAY.weekday() == 0 and PERIOD_DAYS == 14
    start, end = period_bounds(period_of(dt.date(2026, 12, 4)))
    assert start.weekday() == 0 and end.weekday() == 6 and start <= dt.date(2026, 12, 4) <= end
    assert period_of(FIRST_DAY - dt.timedelta(days=1)) == -1


def deals_of(player: str, day: dt.date, points: float) -> list[Result]:
    return [Result(player, day, deal, points) for deal in range(1, 9)]


def test_a_steady_winner_climbs_a_level_a_period_to_the_top_and_stays() -> None:
    results = []
    for period in range(7):
        results += deals_of("amal", period_bounds(period)[0], 80.0)
        results += deals_of("huda", period_bounds(period)[0], 10.0)
    levels = [standings(results, period_bounds(p)[0]) for p in range(1, 8)]
    assert [s["amal"].level for s in levels] == [2, 3, 4, 5, 5, 5, 5]
    assert {s["huda"].level for s in levels} == {1}
    # A period without a play moves nobody, whatever the window says.
    later = standings(results[:8], period_bounds(5)[0])
    assert later["amal"].level == 2 and not later["amal"].active


days = st.integers(min_value=-3, max_value=6 * PERIOD_DAYS)
results = st.lists(
    st.builds(
        Result,
        st.sampled_from(["amal", "badr", "dana"]),
        days.map(lambda n: FIRST_DAY + dt.timedelta(days=n)),
        st.integers(min_value=1, max_value=8),
        st.sampled_from([0.0, 25.0, 39.99, 40.0, 50.0, 59.99, 60.0, 100.0]),
    ),
    max_size=120,
)


@given(results, st.randoms(use_true_random=False))
def test_levels_are_the_same_in_any_order_and_move_one_a_period_at_most(
    kept: list[Result], shuffler: random.Random
) -> None:
    ends = [period_bounds(p)[0] for p in range(8)]
    before = None
    for day in ends:
        now = standings(kept, day)
        again = list(kept)
        shuffler.shuffle(again)
        assert standings(again, day) == now
        for player, standing in now.items():
            assert 1 <= standing.level <= len(LEVELS)
            if before is not None and player in before:
                assert abs(standing.level - before[player].level) <= 1
        before = now


@given(results)
def test_a_player_who_never_falls_below_the_bar_never_goes_down(kept: list[Result]) -> None:
    steady = [r for r in kept if r.points >= PROMOTE]
    levels = [standings(steady, period_bounds(p)[0]) for p in range(8)]
    for before, after in itertools.pairwise(levels):
        assert all(after[player].level >= standing.level for player, standing in before.items())


def play_day(store: Store, day: dt.date, scores: dict[Account, int]) -> None:
    """Every deal of ``day`` finished by each player with their score."""
    store.daily_day(day.isoformat(), bytes([day.day]) * 32, 0.0)
    for deal in range(1, 9):
        for who, score in scores.items():
            play = store.daily_start(day.isoformat(), deal, who.id, 0, 0.0)
            assert store.daily_advance(play, ["x"], score, None, 1.0)


def test_the_series_lists_each_level_and_mine(daily: Daily) -> None:  # noqa: F811
    store = daily.store
    amal, badr, dana = (add_player(store, name) for name in ("Amal", "Badr", "Dana"))
    today = dt.date.fromisoformat(daily.get("/api/daily")[1]["date"])
    now = period_of(today)
    # Two periods ago Amal beat everyone and Badr lost to everyone, Dana between them; last
    # period again, and on its last day Amal and Badr tied.
    for period in (now - 2, now - 1):
        play_day(store, period_bounds(period)[0], {amal: 20, badr: -20, dana: 0})
    play_day(store, period_bounds(now - 1)[1], {amal: 0, badr: 0})
    status, series = daily.get("/api/daily/series", amal)
    assert status == 200 and series["window"] == 40 and series["least"] == LEAST
    start, end = period_bounds(now)
    assert series["period"] == {"number": now, "start": start.isoformat(), "end": end.isoformat()}
    assert [level["names"]["en"] for level in series["levels"]] == NAMES
    players = {level["level"]: level["players"] for level in series["levels"]}
    assert players[3] == [{"rank": 1, "name": "Amal", "average": 83.33, "results": 24}]
    assert players[2] == []
    assert players[1] == [
        {"rank": 1, "name": "Dana", "average": 50.0, "results": 16},
        {"rank": 2, "name": "Badr", "average": 16.67, "results": 24},
    ]
    assert series["me"] == {"level": 3, "average": 83.33, "results": 24, "outlook": "stay"}
    assert daily.get("/api/daily/series")[1]["me"] is None
    assert daily.get("/api/daily/series", add_player(store, "Fahd"))[1]["me"] is None
    # Today's plays do not count until the day is over.
    daily.play_out(badr, 1)
    assert daily.get("/api/daily/series", badr)[1]["me"]["results"] == 24

"""A client chooses a bot and a level, never its budget beyond the bounds the bot declares
(``docs/bots.md``), and the decision's clock is a ceiling everywhere in the search: from the
first world drawn and weighed, not only once the worlds are solved."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from conftest import Server

from baloot.bots.base import check_bot_name
from baloot.bots.clock import Clock, deciding
from baloot.bots.expert import ExpertBot
from baloot.bots.expert.inference import Evidence
from baloot.bots.names import UnknownBotError
from baloot.bots.worlds import WorldSampler
from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.view.seat_view import SeatView


@pytest.mark.parametrize(
    ("bot", "words"),
    [
        ("bot:expert:deals=100000,pool=100", "deals is at most 192 at a web table"),
        ("bot:expert:hard,samples=1201", "samples is at most 1200 at a web table"),
        ("bot:ismcts:iterations=10000000", "iterations is at most 12000 at a web table"),
        ("bot:expert:cpu=9", "option 'cpu' is not taken at a web table"),
    ],
)
def test_a_table_request_for_a_bots_budget_beyond_its_bounds_is_a_400_naming_the_bound(
    server: Server, bot: str, words: str
) -> None:
    assert server.client is not None
    response = server.client.post("/api/tables", json={"seats": {"S": "human", "E": bot}})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error.startswith("seat E: bot ") and words in error and "\n" not in error


@pytest.mark.parametrize(
    "bot", ["bot:expert:hard", "bot:expert:fast,deals=192,mode=points", "bot:ismcts:fast"]
)
def test_a_table_request_for_a_bots_level_or_a_budget_within_bounds_is_taken(
    server: Server, bot: str
) -> None:
    assert server.client is not None
    response = server.client.post("/api/tables", json={"seats": {"S": "human", "E": bot}})
    assert response.status_code == 201, response.text


def test_only_a_web_tables_names_are_bounded_the_arenas_are_not() -> None:
    check_bot_name("expert:deals=100000,pool=100")
    with pytest.raises(UnknownBotError, match="deals is at most 192"):
        check_bot_name("expert:deals=100000,pool=100", programs=False, bounded=True)


def expired() -> Clock:
    """A decision's clock that has run out from its first reading on."""
    ticks = itertools.chain([0.0], itertools.repeat(10.0))
    return Clock(wall=1.0, wall_time=lambda: next(ticks))


def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many worlds the search draws and weighs, counted as it goes."""
    seen = {"drawn": 0, "weighed": 0}
    draw, weigh = WorldSampler._draw, Evidence.__call__

    def drawing(self: WorldSampler, *args: Any, **kwargs: Any) -> Any:
        seen["drawn"] += 1
        return draw(self, *args, **kwargs)

    def weighing(self: Evidence, world: Hand) -> float:
        seen["weighed"] += 1
        return weigh(self, world)

    monkeypatch.setattr(WorldSampler, "_draw", drawing)
    monkeypatch.setattr(Evidence, "__call__", weighing)
    return seen


def test_the_clock_is_a_ceiling_for_the_deals_drawn_and_weighed_for_a_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hand = Hand.new(rng=random.Random(5))
    seat = hand.to_act
    assert seat is not None
    view, legal = SeatView.of(hand, seat), hand.legal_actions()
    seen = counted(monkeypatch)
    bot = ExpertBot(random.Random(1), {"deals": "2000", "pool": "5"})  # 10,000 draws
    with deciding(expired()):
        values = bot.evaluate(view, legal)
    assert set(values) == set(legal)
    assert 1 <= seen["drawn"] <= 2 and 1 <= seen["weighed"] <= 2, seen


def test_the_clock_is_a_ceiling_for_the_worlds_drawn_and_weighed_for_a_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hand = Hand.new(rng=random.Random(5))
    while hand.trick_number < 1 or hand.to_act is not Seat.S or len(hand.legal_actions()) < 2:
        hand.apply(hand.legal_actions()[0])
        assert not hand.is_over
    view, legal = SeatView.of(hand, Seat.S), hand.legal_actions()
    seen = counted(monkeypatch)
    bot = ExpertBot(random.Random(1), {"samples": "2000", "first": "2000", "pool": "5"})
    with deciding(expired()):
        values = bot.evaluate(view, legal)
    assert set(values) == set(legal)
    assert 1 <= seen["drawn"] <= 2 and 1 <= seen["weighed"] <= 2, seen

"""The levels for players: registered names that map to a bot and a budget."""

from __future__ import annotations

import dataclasses
import inspect
import random

import pytest

from baloot import Hand, Seat
from baloot.analysis import SolverAndBot
from baloot.bots import Bot, play_hand
from baloot.bots.base import available_bots, make_bot
from baloot.bots.best_hints import BestHints
from baloot.bots.expert import ExpertBot, SearchBudget
from baloot.bots.heuristic import HeuristicBot
from baloot.bots.levels import LEVELS, ROLES, make_level
from baloot.bots.names import UnknownBotError
from baloot.server.app import create_app
from baloot.server.hall import Hall


def test_the_three_levels_are_registered_and_named_after_themselves() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard"]
    for level in LEVELS:
        assert level in available_bots()
        assert make_bot(level, random.Random(1)).name == level


def test_each_level_is_its_bot_and_budget() -> None:
    easy, medium, hard = (make_level(name, random.Random(1)) for name in LEVELS)
    assert isinstance(easy, HeuristicBot)
    assert isinstance(medium, ExpertBot) and isinstance(hard, ExpertBot)
    assert medium.budget == SearchBudget.of({"fast": ""})
    assert hard.budget == SearchBudget.of({"hard": ""})
    assert medium.budget.samples < hard.budget.samples


def test_a_level_takes_no_options() -> None:
    with pytest.raises(UnknownBotError, match="'hard' has no option 'samples'"):
        make_bot("hard:samples=3", random.Random(1))


def test_easy_plays_a_hand_as_the_heuristic_bot_does() -> None:
    easy = play_hand(
        Hand.new(rng=random.Random(8)), {s: make_bot("easy", random.Random(int(s))) for s in Seat}
    )
    plain = play_hand(Hand.new(rng=random.Random(8)), {s: HeuristicBot() for s in Seat})
    assert easy.actions == plain.actions


def test_every_role_is_a_bot_and_the_defaults_follow_the_roles() -> None:
    for role in dataclasses.fields(ROLES):
        name = getattr(ROLES, role.name)
        assert isinstance(make_bot(name, random.Random(1)), Bot), role.name
    assert inspect.signature(create_app).parameters["lobby_bot"].default == ROLES.opponent
    assert inspect.signature(SolverAndBot).parameters["bot"].default == ROLES.analysis
    assert inspect.signature(Hall).parameters["analysis_bot"].default == ROLES.server_analysis
    hard = make_level(ROLES.hint, random.Random(1))
    assert isinstance(hard, ExpertBot)
    assert BestHints(random.Random(1)).expert.budget == hard.budget

"""The bot interface: the registry, entry points, the driver's checks, seeded bots."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import pytest

import baloot.bots.base as base
from baloot import Action, Hand, Seat, Team, Verb
from baloot.bots import (
    Bot,
    BotError,
    BotTimer,
    HeuristicBot,
    RandomBot,
    UnknownBotError,
    available_bots,
    choose,
    make_bot,
    play_hand,
    play_match,
)
from baloot.bots.arena import ArenaConfig, run_arena
from baloot.core.match import Match
from baloot.records.record import Record
from baloot.view.seat_view import SeatView


def test_the_built_in_bots_are_registered_and_satisfy_the_protocol() -> None:
    bots = available_bots()
    assert {"random", "heuristic"} <= set(bots)
    for name in ("random", "heuristic"):
        bot = make_bot(name, random.Random(1))
        assert isinstance(bot, Bot) and bot.name == name
    assert isinstance(make_bot("heuristic", random.Random(1)), HeuristicBot)


def test_an_unknown_bot_names_the_known_ones() -> None:
    with pytest.raises(UnknownBotError, match=r"unknown bot 'nope'.*heuristic.*random"):
        make_bot("nope", random.Random(1))


@dataclass
class _EntryPoint:
    name: str
    factory: base.BotFactory | None
    value: str = "plugin.bots:Bot"

    def load(self) -> base.BotFactory:
        if self.factory is None:
            raise ModuleNotFoundError("No module named 'plugin'")
        return self.factory


class _FirstLegal:
    name = "first"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return legal[0]


Installs = Callable[[list[_EntryPoint]], None]


@pytest.fixture
def install(monkeypatch: pytest.MonkeyPatch) -> Iterator[Installs]:
    """Makes the entry points of group ``pybaloot.bots`` those given, as if installed."""

    def installs(entries: list[_EntryPoint]) -> None:
        def fake_entry_points(group: str) -> list[_EntryPoint]:
            assert group == "pybaloot.bots"
            return entries

        monkeypatch.setattr(base, "entry_points", fake_entry_points)
        base._installed.cache_clear()

    yield installs
    base._installed.cache_clear()


def test_bots_of_installed_packages_are_found_by_their_entry_point(install: Installs) -> None:
    install([_EntryPoint("first", _FirstLegal)])
    assert isinstance(make_bot("first", random.Random(1)), _FirstLegal)


def test_an_installed_bot_that_cannot_be_loaded_is_left_out_said_once_on_stderr(
    install: Installs, capsys: pytest.CaptureFixture[str]
) -> None:
    install([_EntryPoint("broken", None), _EntryPoint("first", _FirstLegal)])
    for _ in range(2):
        bots = available_bots()
        assert "broken" not in bots and {"first", "heuristic", "random"} <= set(bots)
    assert isinstance(make_bot("first", random.Random(1)), _FirstLegal)
    assert capsys.readouterr().err == (
        "baloot: the installed bot 'broken' (plugin.bots:Bot) cannot be loaded, so it is left "
        "out: ModuleNotFoundError: No module named 'plugin'\n"
    )


class _Cheat:
    """Plays a card that is not legal whenever it can."""

    name = "cheat"

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if legal[-1].verb is Verb.PLAY and view.seat is not None:
            for card in view.cards:
                action = Action(view.seat, Verb.PLAY, card=card)
                if action not in legal:
                    return action
        return legal[0]


def test_the_driver_refuses_an_illegal_choice_and_applies_nothing() -> None:
    bots: dict[Seat, Bot] = {seat: _Cheat() for seat in Seat}
    hand = Hand.new(rng=random.Random(4))
    with pytest.raises(BotError, match=r"bot cheat at .* chose an illegal action"):
        play_hand(hand, bots)
    assert hand.to_act is not None and not hand.is_over


def test_a_bot_is_given_its_own_seat_view_and_the_legal_actions() -> None:
    seen: list[tuple[Seat | None, Seat | None, int]] = []

    class Spy:
        name = "spy"

        def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
            seen.append((view.seat, view.to_act, len(view.cards)))
            assert tuple(legal) == view.legal
            return legal[0]

    hand = play_hand(Hand.new(rng=random.Random(2)), {seat: Spy() for seat in Seat})
    assert len(seen) == len(hand.actions), "each action is one decision of its seat's bot"
    assert all(seat == to_act for seat, to_act, _ in seen)


def test_the_timer_counts_each_decision_by_bot_name_or_by_its_own_key() -> None:
    bots: dict[Seat, Bot] = {
        s: (HeuristicBot if s.team is Team.NS else RandomBot)(random.Random(int(s))) for s in Seat
    }
    by_name, by_team = BotTimer(), BotTimer(key=lambda seat, bot: seat.team)
    hand = Hand.new(rng=random.Random(3))
    while not hand.is_over:
        timer = by_name if len(hand.actions) % 2 else by_team
        hand.apply(choose(hand, bots, timer))
    actions = hand.actions
    assert set(by_name.decisions) <= {"heuristic", "random"}
    assert set(by_team.decisions) <= set(Team)
    assert sum(by_name.decisions.values()) == len(actions) // 2
    assert sum(by_team.decisions.values()) == len(actions) - len(actions) // 2
    ns = sum(a.seat.team is Team.NS for i, a in enumerate(actions) if i % 2 == 0)
    assert by_team.decisions.get(Team.NS, 0) == ns
    assert by_team.mean(Team.NS) == by_team.seconds.get(Team.NS, 0.0) / max(1, ns)
    assert BotTimer().mean("nobody") == 0.0


def test_seeded_random_bots_replay_the_same_match() -> None:
    def record() -> list[list[str]]:
        match = Match.new(rng=random.Random(8))
        bots: dict[Seat, Bot] = {s: RandomBot(random.Random(int(s))) for s in Seat}
        play_match(match, bots)
        return [h.actions for h in Record.of(match).hands]

    assert record() == record()


def test_the_driver_announces_baloot_for_a_bot() -> None:
    announced = 0
    for seed in range(60):
        hand = Hand.new(rng=random.Random(seed))
        play_hand(hand, {s: RandomBot(random.Random(seed * 4 + int(s))) for s in Seat})
        announced += sum(a.baloot for a in hand.actions)
        trump = None if hand.contract is None else hand.contract.trump
        for action in hand.actions:
            if action.baloot:
                assert action.card is not None and action.card.suit == trump
    assert announced > 0


@pytest.mark.parametrize(
    "hands", [1_000, pytest.param(10_000, marks=pytest.mark.slow)], ids=lambda n: f"{n}_hands"
)
def test_no_bot_plays_an_illegal_action_in_thousands_of_hands_under_random_flags(
    hands: int,
) -> None:
    """Every choice of both built-in bots is checked by the driver (BotError otherwise); the
    ten thousand hands run with ``--run-slow``."""
    summary = run_arena(
        ArenaConfig("heuristic", "random", pairs=hands // 2, seed=12, hands=True, rules=None),
        jobs=2,
    )
    assert summary.hands == hands

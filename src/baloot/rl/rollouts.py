"""Rollout labels: every legal action of a decision played out to the hand's end in the true
deal, by the current networks at every seat.

A hand's outcome is mostly the cards: one hand's score says little about one decision in it.
Here the legal actions of a decision are each played out from the same position, in the same
deal, by the same players, each seat deciding from its own observation (its tracker's gather,
:mod:`baloot.rl.tracker`): the luck of the cards is the same for every action and cancels out
of their differences, which are what the network learns. An action's label is the hand's
written score, the deciding team's less the other's; a Gahwa hand decides the match, and its
label is :data:`GAHWA_POINTS` to the team that won it.

Many hands are played side by side (``width`` deals and all their rollouts): each step of the
loop gathers every line's observation and asks each network once, for all the lines whose
seat it plays. The deals' own play explores a little (``explore``: a random card now and
then) so that the labels cover positions the policy would not reach; the rollouts never do.
A share of the deals (``snapshots``) puts one team in the hands of an earlier network, so
that the policy learns to play against more than itself. Cards and declarations are labelled
at every decision with a choice; calls (bids, the trump, each doubling step) on the fraction
``calls`` of them, since a call's rollouts are whole hands. Calls are the heuristic bot's
until the network has learned them (``Policy.calls``).

>>> import numpy as np
>>> from baloot.rl.network import shipped
>>> labels = label_deals(Policy([shipped()]), 2, np.random.default_rng(1), LabelConfig(width=2))
>>> labels.deals, len(labels.observations) == len(labels.values) > 10
(2, True)
>>> legal = ~np.isnan(labels.values)
>>> bool((legal.sum(axis=1) > 1).all())     # only decisions with a choice are labelled
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

import numpy as np
import numpy.typing as npt

from baloot.bots.heuristic import HeuristicBot
from baloot.core.hand import Hand
from baloot.core.rules import Rules
from baloot.core.seats import SEATS, Seat
from baloot.core.vocabulary import Phase
from baloot.rl.action_space import NUM_ACTIONS, action_at
from baloot.rl.network import Network
from baloot.rl.observation import SIZE
from baloot.rl.tracker import Tracker
from baloot.view.seat_view import SeatView

#: The label of a Gahwa hand, won or lost: the whole match, in game points.
GAHWA_POINTS: Final = 152.0
#: The network that is being trained, in a :class:`Policy`'s list.
CURRENT: Final = 0

Floats = npt.NDArray[np.float32]


@dataclass(frozen=True)
class LabelConfig:
    """How the deals are played and labelled (see the module)."""

    #: Deals played side by side.
    width: int = 16
    #: The share of call decisions labelled.
    calls: float = 0.3
    #: The chance that a deal's own card is drawn at random.
    explore: float = 0.03
    #: The share of deals where one team is an earlier network (when there is one).
    snapshots: float = 0.3
    #: The rules of every deal.
    rules: Rules = field(default_factory=Rules)


@dataclass(frozen=True)
class Policy:
    """Who decides: ``networks[0]`` the network being trained, the others earlier ones;
    ``calls`` whether the networks call, or the heuristic bot does."""

    networks: Sequence[Network]
    calls: bool = False


@dataclass
class Labels:
    """Labelled decisions: each one's observation, and each legal action's label (NaN where
    not legal); which were calls; how many deals and line decisions it took."""

    observations: Floats
    values: Floats
    calls: npt.NDArray[np.bool_]
    deals: int
    decisions: int
    seconds: float


class _Line:
    """One hand being played: a deal's own play, or a rollout of one action of a labelled
    decision (``row``, ``action``) for ``team``."""

    __slots__ = ("action", "explores", "hand", "players", "row", "team", "tracker")

    def __init__(
        self, hand: Hand, tracker: Tracker, players: tuple[int, ...], row: int = -1
    ) -> None:
        self.hand = hand
        self.tracker = tracker
        self.players = players
        self.row = row
        self.action = -1
        self.team = 0
        self.explores = row < 0

    def fork(self, row: int, action: int) -> _Line:
        """A rollout of ``action`` from this line's position, labelling ``row``."""
        hand = self.hand.copy()
        line = _Line(hand, self.tracker.fork(hand), self.players, row)
        line.action = action
        line.team = self.tracker.to_act % 2
        return line

    def apply(self, index: int) -> bool:
        """Apply the action at ``index`` for the seat to act; whether the hand is over."""
        hand = self.hand
        applied = hand.apply(hand.announced(action_at(index, SEATS[self.tracker.to_act])))
        self.tracker.follow(applied)
        return hand.is_over

    def worth(self) -> float:
        """The ended hand's label for this line's team."""
        result = self.hand.result()
        if result.gahwa_winner is not None:
            return GAHWA_POINTS if int(result.gahwa_winner) == self.team else -GAHWA_POINTS
        score = result.score or (0, 0)
        diff = float(score[0] - score[1])
        return diff if self.team == 0 else -diff


def label_deals(
    policy: Policy,
    deals: int,
    rng: np.random.Generator,
    config: LabelConfig | None = None,
    deadline: float | None = None,
) -> Labels:
    """Play ``deals`` deals (fewer if ``deadline``, a ``time.monotonic()``, passes: the deals
    begun are finished) and label their decisions; deals and choices drawn from ``rng``."""
    config = config or LabelConfig()
    start = time.process_time()
    caller = HeuristicBot(random.Random(int(rng.integers(2**63))))
    rows: list[Floats] = []
    values: list[Floats] = []
    calls: list[bool] = []
    lines: list[_Line] = []
    begun = decisions = 0
    observations = np.empty((0, SIZE), np.float32)
    masks = np.empty((0, NUM_ACTIONS), np.int8)
    while True:
        dealing = deadline is None or time.monotonic() < deadline
        while dealing and begun < deals and sum(line.row < 0 for line in lines) < config.width:
            lines.append(_deal(policy, rng, config))
            begun += 1
        if not lines:
            break
        count = len(lines)
        if len(observations) < count:
            observations = np.empty((2 * count, SIZE), np.float32)
            masks = np.empty((2 * count, NUM_ACTIONS), np.int8)
        for i, line in enumerate(lines):
            line.tracker.observe(line.tracker.to_act, out=observations[i])
            line.tracker.legal(masks[i])
        forks: list[_Line] = []
        for i, line in enumerate(lines):
            seat = line.tracker.to_act
            if line.row >= 0 or line.players[seat] != CURRENT:
                continue
            legal = np.flatnonzero(masks[i])
            if len(legal) < 2:
                continue
            call = line.hand.phase is not Phase.PLAYING
            if call and rng.random() >= config.calls:
                continue
            row = len(rows)
            rows.append(observations[i].copy())
            labels = np.full(NUM_ACTIONS, np.nan, np.float32)
            values.append(labels)
            calls.append(call)
            for index in legal.tolist():
                fork = line.fork(row, index)
                if fork.apply(index):
                    labels[index] = fork.worth()
                else:
                    forks.append(fork)
        chosen = _choose(policy, lines, observations[:count], masks[:count], caller)
        survivors: list[_Line] = []
        for i, (line, index) in enumerate(zip(lines, chosen.tolist(), strict=True)):
            if line.explores and line.hand.phase is Phase.PLAYING and rng.random() < config.explore:
                index = int(rng.choice(np.flatnonzero(masks[i])))
            if not line.apply(index):
                survivors.append(line)
            elif line.row >= 0:
                values[line.row][line.action] = line.worth()
        decisions += count
        lines = survivors + forks
    return Labels(
        np.array(rows, np.float32).reshape(-1, SIZE),
        np.array(values, np.float32).reshape(-1, NUM_ACTIONS),
        np.array(calls, np.bool_),
        begun,
        decisions,
        time.process_time() - start,
    )


def _deal(policy: Policy, rng: np.random.Generator, config: LabelConfig) -> _Line:
    """A new deal's own line: a random dealer, and one team an earlier network at times."""
    hand = Hand.new(
        rng=random.Random(int(rng.integers(2**63))),
        dealer=Seat(int(rng.integers(4))),
        rules=config.rules,
    )
    players = [CURRENT] * 4
    earlier = len(policy.networks) - 1
    if earlier and rng.random() < config.snapshots:
        snapshot = 1 + int(rng.integers(earlier))
        team = int(rng.integers(2))
        players[team] = players[team + 2] = snapshot
    return _Line(hand, Tracker(hand), tuple(players))


def _choose(
    policy: Policy,
    lines: list[_Line],
    observations: Floats,
    masks: npt.NDArray[np.int8],
    caller: HeuristicBot,
) -> npt.NDArray[np.intp]:
    """Each line's action: its seat's network's legal action of highest value, or the
    heuristic bot's call while the networks do not call."""
    players = np.array([line.players[line.tracker.to_act] for line in lines])
    outputs = np.empty((len(lines), NUM_ACTIONS), np.float32)
    for player in np.unique(players).tolist():
        at = np.flatnonzero(players == player)
        outputs[at] = policy.networks[player](observations[at])
    chosen: npt.NDArray[np.intp] = np.where(masks > 0, outputs, -np.inf).argmax(axis=1)
    if not policy.calls:
        from baloot.rl.action_space import index_of

        for i, line in enumerate(lines):
            hand = line.hand
            if hand.phase is not Phase.PLAYING:
                seat = SEATS[line.tracker.to_act]
                chosen[i] = index_of(caller.choose(SeatView.of(hand, seat), hand.legal_actions()))
    return chosen

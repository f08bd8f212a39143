"""The ISMCTS bot: single-observer information-set Monte Carlo tree search for the play.

One tree over this seat's information: each iteration deals the unseen cards one way (a
*determinization*, drawn from the world sampler and weighted like the expert's worlds), walks
the tree choosing among the cards legal in that deal by UCB (each child's trials counted
only when it was available), adds one node, plays the hand out with a quick greedy policy
and backs up the card points won by the side that chose each card. The card tried most at
the root is played. Bids, doubles and declarations are the expert's
(:mod:`baloot.bots.expert`), so that the two families differ only in the play.

Its budget is ``iterations`` (and ``worlds``, the determinizations it cycles through), so a
run is the same on any machine for the same seed; the clock is only a ceiling.

>>> import random
>>> from baloot.core.hand import Hand
>>> from baloot.view.seat_view import SeatView
>>> hand = Hand.new(rng=random.Random(1))
>>> bot = IsmctsBot(random.Random(2), {"iterations": "50"})
>>> bot.choose(SeatView.of(hand, hand.to_act), hand.legal_actions()) in hand.legal_actions()
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from baloot.bots.expert.bidding import decide_call
from baloot.bots.expert.budget import SearchBudget
from baloot.bots.expert.inference import view_worlds_weigh, weighted_worlds
from baloot.bots.expert.play import declaration
from baloot.bots.expert.support import (
    BotOptions,
    OptionBounds,
    Position,
    WorldSampler,
    current_clock,
)
from baloot.core.actions import Action
from baloot.core.cards import PLAIN_POINTS, PLAIN_STRENGTH, TRUMP_POINTS, TRUMP_STRENGTH
from baloot.core.play_rules import beats
from baloot.core.vocabulary import Phase
from baloot.view.seat_view import SeatView


@dataclass(frozen=True, slots=True)
class TreeBudget:
    """The ISMCTS budget and settings: ``iterations`` per card, ``worlds`` determinizations
    cycled through, ``explore`` the UCB constant, ``greedy`` the share of greedy (rather than
    random) moves in the playouts, ``deals`` the deals per call of its (expert) bidding.

    >>> TreeBudget.of({"iterations": "300", "explore": "0.5"})
    TreeBudget(iterations=300, worlds=120, explore=0.5, greedy=0.8, deals=192)
    """

    iterations: int = 12000
    worlds: int = 120
    explore: float = 0.7
    greedy: float = 0.8
    deals: int = 192

    @classmethod
    def of(cls, options: Mapping[str, str]) -> TreeBudget:
        """The settings ``options`` ask for (a preset of :data:`TREE_BUDGETS`, then ``key=value``
        settings); an :class:`~baloot.bots.names.UnknownBotError` for anything else."""
        given = (
            options if isinstance(options, BotOptions) else BotOptions(options.items(), "ismcts")
        )
        given.check(*TREE_BUDGETS, "iterations", "worlds", "explore", "greedy", "deals")
        budget = cls()
        for word in given.words:
            budget = TREE_BUDGETS.get(word, budget)
        return replace(
            budget,
            iterations=given.integer("iterations", budget.iterations, 1, 10**7),
            worlds=given.integer("worlds", budget.worlds, 1, 10_000),
            explore=given.number("explore", budget.explore, 0.0, 100.0),
            greedy=given.number("greedy", budget.greedy, 0.0, 1.0),
            deals=given.integer("deals", budget.deals, 1, 100_000),
        )


#: Named tree budgets, as the expert's budgets: the default about a second a decision on one
#: core, ``hard`` at most about a second, ``fast`` about a tenth of a second.
TREE_BUDGETS: Final = {
    "default": TreeBudget(),
    "hard": TreeBudget(iterations=4000, worlds=60, deals=64),
    "fast": TreeBudget(iterations=1200, worlds=24, deals=16),
}


#: What a client of a web table may ask of an ISMCTS bot (``docs/bots.md``): a named budget,
#: the settings that cost no time, and no more iterations, worlds or deals than the default.
CLIENT_BOUNDS: Final = OptionBounds(
    free=(*TREE_BUDGETS, "explore", "greedy"),
    most={
        field: getattr(TREE_BUDGETS["default"], field)
        for field in ("iterations", "worlds", "deals")
    },
)


class _Node:
    """A card's node: visits, reward summed for the side that played it, availability."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0
        self.available = 1
        self.children: dict[int, _Node] = {}


class IsmctsBot:
    """A player that searches one tree over what its seat knows (see the module)."""

    name = "ismcts"
    #: What a client of a web table may ask of it: a named budget, at most the default one.
    CLIENT_OPTIONS: Final = CLIENT_BOUNDS

    def __init__(
        self, rng: random.Random | None = None, options: Mapping[str, str] | None = None
    ) -> None:
        self.rng = rng if rng is not None else random.Random()
        self.tree_budget = TreeBudget.of(options or {})
        self.budget = SearchBudget(deals=self.tree_budget.deals)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The card tried most by the search; the expert's call or declaration otherwise."""
        if len(legal) == 1:
            return legal[0]
        if view.phase is not Phase.PLAYING:
            return decide_call(view, legal, self.rng, self.budget)[0]
        declare = declaration(legal)
        if declare is not None:
            return declare
        card = self.best_card(view, legal)
        for action in legal:
            if action.card is not None and action.card.index == card and action.ekka:
                return action
        for action in legal:
            if action.card is not None and action.card.index == card:
                return action
        raise AssertionError("the search chose a card that is not legal")

    def best_card(self, view: SeatView, legal: Sequence[Action]) -> int:
        """The index of the card the search tries most at the root."""
        budget = self.tree_budget
        rng = self.rng
        drawn = WorldSampler(view).worlds(rng, budget.worlds)
        kept = weighted_worlds(drawn, view_worlds_weigh(view, rng), rng, budget.worlds)
        positions = [world.position() for world, count in kept for _ in range(count)]
        if not positions:
            card = next(a.card for a in legal if a.card is not None)
            return card.index
        root = _Node()
        trump = -1 if view.trump is None else int(view.trump)
        clock = current_clock()
        for iteration in range(budget.iterations):
            position = positions[iteration % len(positions)].copy()
            _iterate(root, position, trump, budget, rng)
            if iteration & 63 == 63 and clock.expired():
                break
        return max(root.children.items(), key=lambda item: (item[1].visits, -item[0]))[0]


def _iterate(
    root: _Node,
    position: Position,
    trump: int,
    budget: TreeBudget,
    rng: random.Random,
) -> None:
    """One iteration: select and expand in this determinization, play out, back up."""
    node = root
    path: list[tuple[_Node, int]] = []
    explore = budget.explore
    while not position.is_over:
        mask = position.legal()
        team = position.to_act & 1
        untried = [c for c in _bits(mask) if c not in node.children]
        if untried:
            card = untried[rng.randrange(len(untried))]
            child = node.children[card] = _Node()
            path.append((child, team))
            position.play(card)
            break
        best_card, best_score = -1, -1.0
        for card in _bits(mask):
            child = node.children[card]
            child.available += 1
            visits = child.visits
            score = child.reward / visits + explore * math.sqrt(math.log(child.available) / visits)
            if score > best_score:
                best_card, best_score = card, score
        node = node.children[best_card]
        path.append((node, team))
        position.play(best_card)
    _playout(position, trump, budget.greedy, rng)
    points = position.card_points()
    total = max(1, points[0] + points[1])
    for visited, team in path:
        visited.visits += 1
        visited.reward += 0.5 + (points[team] - points[team ^ 1]) / (2 * total)


def _playout(position: Position, trump: int, greedy: float, rng: random.Random) -> None:
    """Play to the end: mostly the greedy card (:func:`_greedy`), sometimes any legal card."""
    while not position.is_over:
        cards = _bits(position.legal())
        if len(cards) == 1:
            card = cards[0]
        elif rng.random() < greedy:
            card = _greedy(cards, position, trump)
        else:
            card = cards[rng.randrange(len(cards))]
        position.play(card)


def _greedy(cards: list[int], position: Position, trump: int) -> int:
    """A quick card: lead the strongest card; following, win with the cheapest card that
    takes the lead (any when last), else throw the card worth least; give the partner
    points when it wins and this seat plays last."""
    trick = position.trick
    if not trick:
        return max(cards, key=lambda c: _rank(c, trump))
    win_seat, win_card = position.winning
    partner_wins = not (win_seat ^ position.to_act) & 1
    if partner_wins and len(trick) == 3:
        return max(cards, key=lambda c: (_points(c, trump) if c >> 3 != trump else -1, -c))
    if not partner_wins:
        beating = [c for c in cards if beats(c, win_card, trump)]
        if beating:
            return min(beating, key=lambda c: (_rank(c, trump), c))
    return min(cards, key=lambda c: (_points(c, trump), _rank(c, trump), c))


def _rank(card: int, trump: int) -> int:
    if card >> 3 == trump:
        return 8 + TRUMP_STRENGTH[card & 7]
    return PLAIN_STRENGTH[card & 7]


def _points(card: int, trump: int) -> int:
    return (TRUMP_POINTS if card >> 3 == trump else PLAIN_POINTS)[card & 7]


def _bits(mask: int) -> list[int]:
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


__all__ = ["IsmctsBot", "TreeBudget"]

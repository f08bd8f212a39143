"""Bids and doubles by simulation: for each call open to the seat, deal the unseen cards many
ways, make the call, play the hand out, and take the call worth most to the match.

Deals come from :meth:`WorldSampler.deal <baloot.bots.expert.support.WorldSampler.deal>`
(consistent with the view) and are kept in proportion to how likely the others' calls make
them (:class:`~baloot.bots.expert.inference.Evidence`). Every call is tried on the same
deals, so that their differences are not noise of the deal. After the call, the rest of the
auction, the doubling and the play are played by the heuristic bot from each seat's view:
quick, and as good a stand-in for the table as any. A hand's written score
becomes match equity (:func:`~baloot.bots.expert.equity.equity`) from the totals before it,
so the target of 152, a Sun double that the match score allows and the all-or-nothing of a
Gahwa weigh as they should.

Calls that the seat's cards make hopeless (far below any sound threshold) are not tried
when only the choice is wanted, which keeps most decisions short.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Final

from baloot.bots.expert.budget import SearchBudget
from baloot.bots.expert.calls import hokum_strength
from baloot.bots.expert.equity import equity
from baloot.bots.expert.inference import Evidence, weighted_worlds
from baloot.bots.expert.support import WorldSampler, current_clock
from baloot.bots.heuristic import HeuristicBot
from baloot.bots.heuristic.tuning import Thresholds
from baloot.bots.heuristic.values import defence_value, hokum_value, sun_value
from baloot.core.actions import Action, Verb
from baloot.core.cards import Card, Suit
from baloot.core.vocabulary import Phase
from baloot.table.players import bot_action
from baloot.view.seat_view import SeatView

#: A call whose hand value lies this far below the usual threshold is not tried.
HOPELESS: Final = 4.0

_T: Final = Thresholds()
_TABLE: Final = HeuristicBot()


@dataclass(frozen=True, slots=True)
class CallValue:
    """What a call is worth over the deals: ``points``, the mean written score of the hand
    for the seat's team less the other's; ``equity``, the mean chance to win the match;
    ``equities``, the chance on each deal (in the order of the deals, each as many times as
    it was kept), for paired comparisons between calls."""

    points: float
    equity: float
    equities: tuple[float, ...] = ()


def call_values(
    view: SeatView,
    legal: Sequence[Action],
    rng: random.Random,
    budget: SearchBudget,
    prune: bool = True,
) -> dict[Action, CallValue]:
    """The value of each call of ``legal`` (all of them unless ``prune`` leaves out the
    hopeless ones) over ``budget.deals`` simulated deals."""
    me = view.seat
    assert me is not None
    calls = [a for a in legal if not prune or not hopeless(view, a)]
    if len(calls) <= 1 and prune:
        return {a: CallValue(0.0, 0.5) for a in calls}
    sampler = WorldSampler(view)
    drawn = sampler.worlds(rng, budget.deals * budget.pool)
    deals = weighted_worlds(drawn, Evidence(me, rng, plays=False), rng, budget.deals)
    ours, theirs = view.score_before[me.team], view.score_before[me.team.other]
    points = dict.fromkeys(calls, 0.0)
    equities: dict[Action, list[float]] = {call: [] for call in calls}
    clock = current_clock()
    for deal, count in deals:
        for call in calls:
            hand = deal.copy()
            hand.apply(call)
            while not hand.is_over:
                hand.apply(bot_action(hand, _TABLE))
            result = hand.result()
            score = result.score or (0, 0)
            mine, other = score[me.team], score[me.team.other]
            points[call] += count * (mine - other)
            if result.gahwa_winner is not None:
                value = 1.0 if result.gahwa_winner == me.team else 0.0
            else:
                value = equity(ours + mine, theirs + other)
            equities[call].extend([value] * count)
        if clock.expired():
            break
    weight = max(1, len(equities[calls[0]]))
    return {
        c: CallValue(points[c] / weight, sum(equities[c]) / weight, tuple(equities[c]))
        for c in calls
    }


def hopeless(view: SeatView, action: Action) -> bool:
    """True when ``action`` is a call that ``view``'s cards are far too weak for."""
    cards = list(view.cards)
    verb = action.verb
    phase = view.phase
    if phase is Phase.DOUBLING:
        contract = view.contract
        if contract is None:
            return False
        trump = contract.trump
        if verb is Verb.DOUBLE:
            if trump is None:
                return sun_value(cards) < _T.double_sun - HOPELESS
            return defence_value(cards, trump) < _T.double_hokum - HOPELESS
        if trump is not None and verb in (Verb.TRIPLE, Verb.GAHWA):
            return hokum_value(cards, trump) < _T.triple_hokum - HOPELESS
        if trump is not None and verb is Verb.FOUR:
            return defence_value(cards, trump) < _T.four_hokum - HOPELESS
        return False
    six = [*cards, view.exposed]
    if verb is Verb.SUN:
        return sun_value(six) < _T.sun_bid - HOPELESS
    if verb is Verb.ASHKAL:
        return sun_value(cards) < _T.sun_bid - HOPELESS
    if verb is Verb.HOKUM:
        return _best_hokum(six, view) < _T.hokum_bid - HOPELESS
    return False


def _best_hokum(six: list[Card], view: SeatView) -> float:
    if view.phase is Phase.BIDDING_ROUND_1:
        return hokum_strength(six, view.exposed.suit)
    return max(hokum_strength(six, s) for s in Suit if s != view.exposed.suit)


def best_call(
    values: dict[Action, CallValue],
    legal: Sequence[Action],
    usual: Action | None = None,
    confidence: float = 1.5,
) -> Action:
    """The call of most match equity. With a ``usual`` call (what sound bidding rules say),
    another call must beat it by ``confidence`` standard errors of the paired difference
    over the deals kept (a deal kept twice counts twice): the simulation overrules the rules
    only where it is sure, not on the noise of a few dozen deals."""
    order = {a: i for i, a in enumerate(legal)}
    ranked = sorted(values, key=lambda a: (-values[a].equity, -values[a].points, order[a]))
    if usual is None or usual not in values:
        return ranked[0]
    base = values[usual].equities
    for call in ranked:
        if call == usual:
            return usual
        if _paired_z(values[call].equities, base) > confidence:
            return call
    return usual


def _paired_z(these: Sequence[float], those: Sequence[float]) -> float:
    """The mean of the paired differences over their standard error (0 without spread)."""
    n = len(these)
    if n < 2 or len(those) != n:
        return 0.0
    diffs = [a - b for a, b in zip(these, those, strict=True)]
    mean = sum(diffs) / n
    spread = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if spread <= 0:
        return math.inf if mean > 0 else 0.0
    return mean / math.sqrt(spread / n)


def decide_call(
    view: SeatView,
    legal: Sequence[Action],
    rng: random.Random,
    budget: SearchBudget,
    every: bool = False,
) -> tuple[Action, dict[Action, CallValue]]:
    """The call to make, with the values of the calls tried: the usual call of sound bidding
    rules, unless the simulation is sure that another is worth more to the match
    (:func:`best_call`). With ``every``, the hopeless calls are tried too, for their values
    alone: the call chosen is the one chosen without them (their deals are the same)."""
    usual = _usual(budget.bolder).choose(view, legal)
    values = call_values(view, legal, rng, budget, prune=not every)
    weighed = {c: v for c, v in values.items() if not every or not hopeless(view, c)}
    return best_call(weighed, legal, usual, budget.confidence), values


@cache
def _usual(bolder: float) -> HeuristicBot:
    """The heuristic bot that gives the usual call, its bidding thresholds ``bolder`` lower."""
    t = Thresholds()
    return HeuristicBot(
        thresholds=replace(t, hokum_bid=t.hokum_bid - bolder, sun_bid=t.sun_bid - bolder)
    )

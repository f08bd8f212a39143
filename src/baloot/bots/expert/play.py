"""Card play by sampled solving: deal the unseen cards many ways consistent with what the seat
knows, solve each deal double-dummy, and average what each card is worth.

Worlds come from the world sampler (everything proven: voids, the exposed card, declared and
shown projects, Baloot) and are kept in proportion to how likely the others' calls and plays
make them (:mod:`~baloot.bots.expert.inference`). Each world is solved by
:func:`~baloot.bots.expert.support.values` for the team to act, which is this seat's. In
``auto`` mode the early tricks maximise card points (cheaper to solve, and the score's
thresholds are far off) and the later ones the written score, card points breaking its ties.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, assert_never

from baloot.bots.expert.budget import PlayMode, SearchBudget
from baloot.bots.expert.inference import view_worlds_weigh, weighted_worlds
from baloot.bots.expert.support import Mode, WorldSampler, current_clock, values
from baloot.core.actions import Action, Verb
from baloot.core.cards import PLAIN_STRENGTH, TRUMP_STRENGTH
from baloot.core.vocabulary import Level
from baloot.view.seat_view import SeatView

#: Game points of a hand per card point (16 of 162 in Hokum, 26 of 130 in Sun), to put
#: card-point values on the score's scale.
HOKUM_RATE: Final = 16 / 162
SUN_RATE: Final = 26 / 130
#: Weight of card points when they only break the ties of the written score.
TIE_BREAK: Final = 1e-3
#: Weight of a card's rank, taken off its value: between cards the solver finds equal, the
#: lower goes, the higher is kept (a double-dummy search sees no use in keeping it; a player
#: who does not see every card does).
RANK_BREAK: Final = 1e-5


def declaration(legal: Sequence[Action]) -> Action | None:
    """The declaration naming the most project value (the most projects on a tie), or None:
    declaring never costs a point, and only declared projects can score (R10.5)."""
    declares = [a for a in legal if a.verb is Verb.DECLARE]
    if not declares:
        return None
    return max(declares, key=lambda a: (sum(c.kind.raw for c in a.claims), len(a.claims)))


def play_values(
    view: SeatView, legal: Sequence[Action], rng: random.Random, budget: SearchBudget
) -> dict[Action, float]:
    """The expected value of each legal action in the play, in game points of the hand for
    the seat's team, over the sampled worlds the budget gives the trick
    (:meth:`~baloot.bots.expert.budget.SearchBudget.worlds`)."""
    contract = view.contract
    assert contract is not None
    count = budget.worlds(view.trick_number)
    sampler = WorldSampler(view)
    drawn = sampler.worlds(rng, count * budget.pool)
    worlds = weighted_worlds(drawn, view_worlds_weigh(view, rng), rng, count)
    match budget.mode:
        case PlayMode.POINTS:
            score, points = False, True
        case PlayMode.SCORE:
            score, points = True, False
        case PlayMode.AUTO:
            score, points = view.trick_number >= budget.score_from, True
        case unknown:
            assert_never(unknown)
    rate = SUN_RATE if contract.trump is None else HOKUM_RATE
    if contract.level is not Level.GAHWA:
        rate *= max(1, int(contract.level))
    totals = dict.fromkeys(legal, 0.0)
    weight = 0
    clock = current_clock()
    for world, count in worlds:
        if score:
            solved = values(world, Mode.SCORE)
            for action in legal:
                totals[action] += count * solved[action]
        if points:
            solved = values(world, Mode.POINTS)
            scale = TIE_BREAK if score else rate
            for action in legal:
                totals[action] += count * scale * solved[action]
        weight += count
        if clock.expired():
            break
    trump = -1 if contract.trump is None else int(contract.trump)
    return {
        action: total / max(weight, 1) - RANK_BREAK * _rank(action, trump)
        for action, total in totals.items()
    }


def _rank(action: Action, trump: int) -> int:
    """How high the card of ``action`` ranks (0 for a declaration)."""
    card = action.card
    if card is None:
        return 0
    if card.suit == trump:
        return 8 + TRUMP_STRENGTH[card.rank]
    return PLAIN_STRENGTH[card.rank]

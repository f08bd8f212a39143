"""The uniform random bot: every legal action equally likely, from its own generator."""

from __future__ import annotations

import random
from collections.abc import Sequence

from baloot.core.actions import Action
from baloot.view.seat_view import SeatView


class RandomBot:
    """Picks uniformly among the legal actions.

    >>> import random
    >>> from baloot import Hand
    >>> hand = Hand.new(rng=random.Random(1))
    >>> bot = RandomBot(random.Random(2))
    >>> bot.choose(SeatView.of(hand, "N"), hand.legal_actions()) in hand.legal_actions()
    True
    """

    name = "random"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """A uniformly random legal action."""
        return self.rng.choice(legal)

"""One episode (a hand, or a match) driven by action indices: what every environment steps.

The environments differ in how they hand out observations; what an episode is, how an index
becomes the engine's action and what it pays is said once, here.

>>> import random
>>> from baloot.rl.action_space import index_of
>>> episode = Episode(random.Random(1), Reward.HAND, Rules())
>>> episode.hand.to_act, episode.apply(index_of(episode.hand.legal_actions()[0]))
(<Seat.S: 2>, None)
"""

from __future__ import annotations

import random

from baloot.core.actions import Action
from baloot.core.hand import Hand
from baloot.core.match import Match
from baloot.core.rules import Rules
from baloot.core.seats import Seat, Team
from baloot.rl.action_space import action_at, index_of
from baloot.rl.options import Reward


class Episode:
    """A hand (``Reward.HAND``) or a match (``Reward.MATCH``) dealt by ``rng``, its dealer
    drawn from ``rng`` too."""

    __slots__ = ("_hand", "_match", "applied", "reward")

    def __init__(self, rng: random.Random, reward: Reward, rules: Rules) -> None:
        self.reward = reward
        #: The last action applied, as the hand recorded it (the Baloot word announced).
        self.applied: Action | None = None
        dealer = Seat(rng.randrange(4))
        if reward is Reward.MATCH:
            self._match: Match | None = Match.new(rng=rng, dealer=dealer, rules=rules)
            self._hand = self._match.hand
        else:
            self._match = None
            self._hand = Hand.new(rng=rng, dealer=dealer, rules=rules)

    @property
    def hand(self) -> Hand:
        """The hand in progress, or the last one once the episode is over."""
        return self._hand

    @property
    def match(self) -> Match | None:
        """The match of a ``match`` episode."""
        return self._match

    def apply(
        self, index: int, *, checked: bool = False
    ) -> tuple[float, float, float, float] | None:
        """Apply the action at ``index`` of the seat to act (the Baloot word announced as a
        player would); the pay of each seat (N, W, S, E) when the episode just ended, else
        None. An index that is not legal now is a ValueError and changes nothing.
        ``checked``: the caller found ``index`` in the mask of this position's legal actions
        already (the vector environment checks a whole step at once)."""
        hand = self._hand
        seat = hand.to_act
        if seat is None:
            raise ValueError("the episode is over: reset it")
        chosen = action_at(index, seat)
        if not checked and index not in [index_of(action) for action in hand.legal_actions()]:
            raise ValueError(f"action {index} ({chosen}) is not legal now")
        announced = hand.announced(chosen)
        match = self._match
        self.applied = hand.apply(announced) if match is None else match.apply(announced)
        if match is None:
            if not hand.is_over:
                return None
            score = hand.result().score or (0, 0)
            diff = float(score[0] - score[1])
            return (diff, -diff, diff, -diff)
        self._hand = match.hand
        if not match.is_over:
            return None
        won = 1.0 if match.winner is Team.NS else -1.0
        return (won, -won, won, -won)

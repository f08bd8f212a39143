"""An exact double-dummy solver for the play of a Baloot hand: every hand known, perfect play.

:func:`solve` gives the value of a play-phase :class:`~baloot.core.hand.Hand` for the team of
the seat to act, :func:`values` the value of each of its legal actions; both count the written
score of the hand (``Mode.SCORE``, the default) or its card points (``Mode.POINTS``). A
compiled search does the work when it was built at install (:func:`accelerated`); otherwise,
or under ``BALOOT_SOLVER=python``, the same search runs in pure Python, with the same values.
It stands on :mod:`baloot.core` alone: the rules of play and the scoring are the engine's.

>>> import random
>>> from baloot.core.hand import Hand
>>> hand = Hand.new(rng=random.Random(3))
>>> while hand.trick_number < 4:
...     _ = hand.apply(hand.legal_actions()[-1])
>>> hand.contract.kind.value, hand.to_act
('sun', <Seat.N: 0>)
>>> best = solve(hand)
>>> best == max(values(hand).values())
True
"""

from baloot.solver._api import Mode, accelerated, solve, values, world_values

__all__ = ["Mode", "accelerated", "solve", "values", "world_values"]

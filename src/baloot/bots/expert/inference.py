"""Which sampled worlds to keep: the evidence of the others' calls and plays, and resampling.

The world sampler deals the unseen cards consistently with everything *proven* (voids,
declared projects, the exposed card...). What the other seats *chose* is evidence too: each
sampled world gets an importance weight, the likelihood of the others' calls
(:mod:`~baloot.bots.expert.calls`) and telling plays (:mod:`~baloot.bots.expert.follows`)
given their cards in that world (:class:`Evidence`); :func:`weighted_worlds` draws a pool
and keeps the likely ones by systematic resampling, deterministically for the generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from baloot.bots.expert.calls import Call, calls_of, calls_weight
from baloot.bots.expert.follows import Follow, follows_of, follows_weight
from baloot.bots.expert.support import current_clock
from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.core.vocabulary import Phase
from baloot.view.seat_view import SeatView

Weigh = Callable[[Hand], float]


def weighted_worlds(
    drawn: Sequence[tuple[Hand, int]], weigh: Weigh, rng: random.Random, count: int
) -> list[tuple[Hand, int]]:
    """``count`` worlds kept by systematic resampling from the ``drawn`` ones, in proportion
    to their ``weigh``; each world kept once, with how many of the ``count`` places it took.
    ``drawn`` holds each distinct world once with how many draws gave it, as
    :meth:`~baloot.bots.worlds.WorldSampler.worlds` gives them: ``weigh`` is asked once a
    world, in order, until the decision's clock runs out (a ceiling here too: the worlds
    weighed by then are the ones kept from)."""
    if not drawn:
        return []
    clock = current_clock()
    weighed: list[tuple[Hand, float]] = []
    for world, n in drawn:
        if weighed and clock.expired():
            break
        weighed.append((world, n * weigh(world)))
    total = sum(w for _, w in weighed)
    if total <= 0:
        return list(drawn[: min(count, len(weighed))])
    step = total / count
    mark = rng.random() * step
    kept: list[tuple[Hand, int]] = []
    running = 0.0
    placed = 0
    for world, w in weighed:
        running += w
        taken = 0
        while mark < running and placed + taken < count:
            taken += 1
            mark += step
        if taken:
            kept.append((world, taken))
            placed += taken
    return kept


class Evidence:
    """The importance weight of a world for one seat: the likelihood of the others' calls
    and telling plays given their cards in it. What those depend on besides the cards is read
    from the first world weighed and kept for the others (the worlds of one view share their
    public history). ``rng`` guesses which five cards a seat was dealt first where the world
    does not say (:func:`~baloot.bots.expert.calls.calls_weight`)."""

    def __init__(self, me: Seat, rng: random.Random, plays: bool = True) -> None:
        self.me = me
        self.rng = rng
        self.plays = plays
        self._calls: tuple[Call, ...] | None = None
        self._follows: tuple[Follow, ...] = ()

    def __call__(self, world: Hand) -> float:
        calls = self._calls
        if calls is None:
            calls = self._calls = calls_of(world, self.me)
            if self.plays:
                self._follows = follows_of(world, self.me)
        return calls_weight(world, calls, self.rng) * follows_weight(world, self._follows)


def view_worlds_weigh(view: SeatView, rng: random.Random) -> Weigh:
    """The importance weight of a world for ``view``'s seat (:class:`Evidence`)."""
    me = view.seat
    assert me is not None
    return Evidence(me, rng, plays=view.phase is Phase.PLAYING)

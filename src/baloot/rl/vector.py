"""``n`` episodes stepped in one call, on NumPy arrays: the batched form of the environment.

A learner that plays many hands at once wants one array of observations and one of masks for
all of them, and one array of actions back, without an agent loop per hand. Row ``i`` is
always the decision of the seat to act in episode ``i`` (``to_act[i]``, 0–3 = N, W, S, E);
an episode that ends in a step is paid in ``rewards[i]`` (by seat), marked in ``done[i]``,
and replaced at once by the next one from its own generator, whose first decision is then
row ``i``. The arrays are the environment's own buffers, rewritten by every call: copy what
must be kept. Observations and rewards are those of :func:`~baloot.rl.aec.aec_env`; the
observations are not built from a fresh view at every decision but kept by each episode's
:class:`~baloot.rl.tracker.Tracker`, action by action, and gathered for the seat to act.

>>> env = VectorEnv(3, seed=1)
>>> observations, masks, to_act = env.reset()
>>> observations.shape, masks.shape, to_act.tolist()
((3, 988), (3, 100), [1, 2, 2])
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> observations, masks, to_act, rewards, done = env.step(random_actions(masks, rng))
>>> rewards.shape, done.tolist()
((3, 4), [False, False, False])
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

from baloot.core.rules import Rules
from baloot.rl.action_space import NUM_ACTIONS
from baloot.rl.episode import Episode
from baloot.rl.observation import SIZE
from baloot.rl.options import Reward, reward_of, rules_of
from baloot.rl.tracker import TABLE_SIZE, Tracker, observe_rows

Array = npt.NDArray[Any]
Batch = tuple[Array, Array, Array]
Stepped = tuple[Array, Array, Array, Array, Array]


class VectorEnv:
    """``n`` episodes (hands, or matches with ``reward="match"``) side by side.

    Options as :func:`~baloot.rl.aec.aec_env`: ``reward``, ``rules`` and variant flags,
    ``seed``. Episode ``i`` draws its deals from its own generator, seeded from ``seed``, so
    a run is the same for the same seed whatever the actions of the other rows.
    """

    def __init__(
        self,
        n: int,
        *,
        reward: Reward | str = Reward.HAND,
        rules: Rules | str | None = None,
        seed: int | None = None,
        **flags: Any,
    ) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"n is a whole number of episodes, at least 1, not {n!r}")
        self.n = n
        self.reward_mode = reward_of(reward)
        self.rules = rules_of(rules, flags)
        self._seed = seed
        self._rngs: list[random.Random] = []
        self._episodes: list[Episode] = []
        self._trackers: list[Tracker] = []
        self._tables = np.zeros((n, TABLE_SIZE), np.float32)
        self.observations = np.zeros((n, SIZE), np.float32)
        self.masks = np.zeros((n, NUM_ACTIONS), np.int8)
        self.to_act = np.zeros(n, np.int8)
        self.rewards = np.zeros((n, 4), np.float32)
        self.done = np.zeros(n, np.bool_)
        self._rows = np.arange(n)
        # Each row's mask, a view made once: a step writes every row.
        self._mask_rows = list(self.masks)
        self._seats = [-1] * n

    def reset(self, seed: int | None = None) -> Batch:
        """Start ``n`` new episodes; their first decisions."""
        master = random.Random(self._seed if seed is None else seed)
        self._seed = master.getrandbits(64)
        self._rngs = [random.Random(master.getrandbits(64)) for _ in range(self.n)]
        self._episodes = [self._new(i) for i in range(self.n)]
        self._trackers = [
            Tracker(episode.hand, self._tables[i]) for i, episode in enumerate(self._episodes)
        ]
        for i in range(self.n):
            self._observe(i)
        self.to_act[:] = self._seats
        observe_rows(self._tables, self.to_act, self.observations)
        self.rewards.fill(0.0)
        self.done.fill(False)
        return self.observations, self.masks, self.to_act

    def step(self, actions: npt.ArrayLike) -> Stepped:
        """Apply ``actions[i]`` in episode ``i``, for every ``i``; the next decisions, each
        ended episode's pay by seat and which ended. Every action is checked against its
        row's mask before any is applied: a wrong one is a ValueError and changes nothing."""
        if not self._episodes:
            raise RuntimeError("reset the environment before stepping it")
        chosen = np.asarray(actions)
        if chosen.shape != (self.n,) or not np.issubdtype(chosen.dtype, np.integer):
            raise ValueError(f"actions are {self.n} integers, not an array of {chosen.shape}")
        if chosen.min() < 0 or chosen.max() >= NUM_ACTIONS:
            raise ValueError(f"an action index is 0–{NUM_ACTIONS - 1}")
        wrong = np.flatnonzero(self.masks[self._rows, chosen] == 0)
        if wrong.size:
            i = int(wrong[0])
            raise ValueError(f"action {int(chosen[i])} is not legal in episode {i}")
        self.rewards.fill(0.0)
        self.done.fill(False)
        episodes, trackers = self._episodes, self._trackers
        for i, index in enumerate(chosen.tolist()):
            episode = episodes[i]
            pay = episode.apply(index, checked=True)
            tracker = trackers[i]
            if pay is not None:
                self.rewards[i] = pay
                self.done[i] = True
                episode = episodes[i] = self._new(i)
                tracker = trackers[i] = Tracker(episode.hand, tracker.table)
            elif episode.hand is not tracker.hand:
                tracker = trackers[i] = Tracker(episode.hand, tracker.table)
            elif episode.applied is not None:
                tracker.follow(episode.applied)
            self._observe(i)
        self.to_act[:] = self._seats
        observe_rows(self._tables, self.to_act, self.observations)
        return self.observations, self.masks, self.to_act, self.rewards, self.done

    def episode(self, i: int) -> Episode:
        """Episode ``i`` as it stands (its hand, its match)."""
        return self._episodes[i]

    def _new(self, i: int) -> Episode:
        return Episode(self._rngs[i], self.reward_mode, self.rules)

    def _observe(self, i: int) -> None:
        tracker = self._trackers[i]
        seat = tracker.to_act
        assert seat >= 0  # an ended episode is replaced at once
        tracker.legal(self._mask_rows[i])
        self._seats[i] = seat


def random_actions(masks: Array, rng: np.random.Generator) -> Array:
    """One legal action of each row of ``masks``, uniformly at random.

    >>> masks = np.array([[0, 1, 1], [1, 0, 0]], np.int8)
    >>> random_actions(masks, np.random.default_rng(1)).tolist()
    [1, 0]
    """
    keys = rng.random(masks.shape) * masks
    picked: Array = keys.argmax(axis=1)
    return picked

"""Baloot as a PettingZoo AEC environment: four agents ``N``, ``W``, ``S``, ``E`` in turn.

The agents are named after the seats, so an agent's name is the seat letter of every record
and view (play goes N → W → S → E). The agent to act is the seat the engine asks, which is
not always the next in order (a Sun take-over, the doubling ladder, a trick's winner leads).

Each observation is ``{"observation": float32[SIZE], "action_mask": int8[100]}``: the vector
of :mod:`baloot.rl.observation` built from the seat's view, and the mask of its legal
actions in the space of :mod:`baloot.rl.action_space` (all zero when it is not to act). A
step applies the action through the engine's one door, the Baloot word announced as a player
would. Randomness comes from one :class:`random.Random`, seeded by ``seed`` or by
``reset(seed=...)``: the same seed deals the same hands.

>>> env = aec_env(seed=7)
>>> env.reset()
>>> env.agent_selection, env.hand.to_act
('E', <Seat.E: 3>)
>>> [int(env.observe(agent)["action_mask"].sum()) for agent in env.agents]
[0, 0, 0, 3]
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from baloot.core.hand import Hand
from baloot.core.rules import Rules
from baloot.core.seats import Team
from baloot.rl.action_space import NUM_ACTIONS, index_of
from baloot.rl.episode import Episode
from baloot.rl.observation import SIZE, VERSION, encode
from baloot.rl.options import Reward, reward_of, rules_of
from baloot.view.seat_view import SeatView

AGENTS = ("N", "W", "S", "E")
Observation = dict[str, npt.NDArray[Any]]


def aec_env(
    *,
    reward: Reward | str = Reward.HAND,
    rules: Rules | str | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
    **flags: Any,
) -> AECEnv:
    """A Baloot AEC environment, wrapped so that a step before ``reset`` is one clear error.

    ``reward``: ``"hand"`` (an episode is a hand, paid its written score difference) or
    ``"match"`` (a match to 152, paid ±1); ``rules``: a :class:`Rules` value or a preset
    name, with any variant flag as a keyword on top (``must_undertrump=True``); ``seed``:
    the deals' seed; ``render_mode``: None or ``"ansi"``.
    """
    raw = BalootEnv(reward=reward, rules=rules_of(rules, flags), seed=seed, render_mode=render_mode)
    return wrappers.OrderEnforcingWrapper(raw)


class BalootEnv(AECEnv):  # type: ignore[misc]
    """The environment itself (:func:`aec_env` wraps it)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": f"baloot_v{VERSION}",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        reward: Reward | str = Reward.HAND,
        rules: Rules | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.reward_mode = reward_of(reward)
        self.rules = rules_of(rules, {})
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self._rng = random.Random(seed)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = dict.fromkeys(AGENTS, self._observation_space)
        self.action_spaces = dict.fromkeys(AGENTS, self._action_space)
        self._episode: Episode | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    @property
    def hand(self) -> Hand:
        """The hand in progress (or just finished)."""
        if self._episode is None:
            raise RuntimeError("the environment is not reset yet")
        return self._episode.hand

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self._episode = Episode(self._rng, self.reward_mode, self.rules)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._select()

    def observe(self, agent: str) -> Observation:
        view = SeatView.of(self.hand, agent)
        mask = np.zeros(NUM_ACTIONS, np.int8)
        for action in view.legal:
            mask[index_of(action)] = 1
        return {"observation": encode(view), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: an action index is needed, not None")
        assert self._episode is not None
        pay = self._episode.apply(int(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if pay is not None:
            self.rewards = dict(zip(AGENTS, pay, strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()

    def _select(self) -> None:
        to_act = self.hand.to_act
        if to_act is not None:
            self.agent_selection = to_act.name

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        hand = self.hand
        match = None if self._episode is None else self._episode.match
        score = "" if match is None else f" match {_teams(match.totals)}"
        return f"{hand!r} contract {hand.contract} tricks {_teams(hand.tricks_won)}{score}"

    def close(self) -> None:
        """Nothing to release."""


def _teams(values: tuple[int, int]) -> str:
    return f"NS {values[Team.NS]} EW {values[Team.EW]}"

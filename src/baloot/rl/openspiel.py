"""Baloot as an OpenSpiel game, ``python_baloot``: one hand, four players, explicit chance.

Players 0–3 are the seats N, W, S, E. The deal is 32 chance nodes, the deck's cards top
first (a chance outcome is a card's index, each unseen card equally likely); the hand then
goes through the engine's one door, its actions numbered as in :mod:`baloot.rl.action_space`.
The returns are each seat's team's written score minus the other team's. The game's
parameters are the variant flags (classic by default) and the dealer.

The information state of a seat is its view: its string is the seat's cards and every action
as it heard them, its tensor the observation of :mod:`baloot.rl.observation` followed by the
cards of the play in order (32 plays × 32 cards). The observation is that vector alone.
:meth:`BalootState.resample_from_infostate` deals the hidden cards again with the bots' world
sampler, so OpenSpiel's IS-MCTS searches the hand as a seat sees it.

>>> import pyspiel
>>> register_openspiel()
>>> game = pyspiel.load_game("python_baloot")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 32)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import fields
from typing import Any, Final

import numpy as np
import pyspiel

from baloot.bots.worlds import WorldSampler
from baloot.core.cards import CARDS
from baloot.core.hand import Hand
from baloot.core.rules import Rules
from baloot.core.seats import SEATS, Seat
from baloot.rl.action_space import NUM_ACTIONS, action_at, index_of, indices
from baloot.rl.observation import SIZE, encode
from baloot.view.seat_view import SeatView

NAME: Final = "python_baloot"
#: A bound on a hand's decisions: bidding, doubling, four declarations, 32 plays.
MAX_DECISIONS: Final = 120
#: A bound on a hand's written score (a Gahwa'd Kaboot with every project).
MAX_SCORE: Final = 500
#: The flags' classic values: the game's parameters, with the dealer.
_DEFAULTS: Final[dict[str, Any]] = {
    f.name: f.default if isinstance(f.default, bool) else str(f.default) for f in fields(Rules)
}

GAME_TYPE: Final = pyspiel.GameType(
    short_name=NAME,
    long_name="Python Baloot",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={**_DEFAULTS, "dealer": "E"},
)
GAME_INFO: Final = pyspiel.GameInfo(
    num_distinct_actions=NUM_ACTIONS,
    max_chance_outcomes=32,
    num_players=4,
    min_utility=-float(MAX_SCORE),
    max_utility=float(MAX_SCORE),
    utility_sum=0.0,
    max_game_length=MAX_DECISIONS,
)

_registered = False


def register_openspiel() -> None:
    """Register ``python_baloot`` with ``pyspiel.register_game`` (once; again is harmless)."""
    global _registered
    if not _registered:
        pyspiel.register_game(GAME_TYPE, BalootGame)
        _registered = True


class BalootGame(pyspiel.Game):  # type: ignore[misc]
    """The game: its rules and dealer from the parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        super().__init__(GAME_TYPE, GAME_INFO, params)
        self.dealer = Seat.parse(str(params.pop("dealer", "E")))
        self.rules = Rules().replace(**params)

    def new_initial_state(self) -> BalootState:
        """The state before the deal."""
        return BalootState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BalootObserver:
        """The observer of a seat's information state (perfect recall) or observation."""
        if params:
            raise ValueError(f"the observer takes no parameters, not {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("python_baloot observes one seat's private and public information")
        return BalootObserver(perfect_recall)


class BalootState(pyspiel.State):  # type: ignore[misc]
    """A hand: dealt card by card, then played through :class:`Hand`."""

    def __init__(self, game: BalootGame) -> None:
        super().__init__(game)
        self._game = game
        self._deck: list[int] = []
        self._hand: Hand | None = None

    @property
    def hand(self) -> Hand | None:
        """The hand once the deck is dealt."""
        return self._hand

    def current_player(self) -> int:
        """The seat to act, chance while dealing, terminal once over."""
        if self._hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        to_act = self._hand.to_act
        return int(pyspiel.PlayerId.TERMINAL) if to_act is None else int(to_act)

    def _legal_actions(self, player: int) -> list[int]:
        if self._hand is None or self._hand.to_act != player:
            return []
        return indices(self._hand.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet, each equally likely."""
        if self._hand is not None:
            raise ValueError("chance_outcomes called on a state that is not a chance node")
        left = sorted(set(range(32)) - set(self._deck))
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        if self._hand is None:
            self._deck.append(action)
            if len(self._deck) == 32:
                g = self._game
                deck = [CARDS[i] for i in self._deck]
                self._hand = Hand(deck, g.dealer, g.rules)
            return
        hand = self._hand
        assert hand.to_act is not None
        hand.apply(hand.announced(action_at(action, hand.to_act)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARDS[action].text}"
        return str(action_at(action, SEATS[player]))

    def is_terminal(self) -> bool:
        return self._hand is not None and self._hand.is_over

    def returns(self) -> list[float]:
        """Each seat's team's written score minus the other's, once the hand is over."""
        if self._hand is None or not self._hand.is_over:
            return [0.0] * 4
        score = self._hand.result().score or (0, 0)
        return [float(score[s.team] - score[s.team.other]) for s in Seat]

    def view(self, player: int) -> SeatView:
        """What ``player`` knows now."""
        if self._hand is None:
            raise ValueError("a seat knows nothing before the deal is complete")
        return SeatView.of(self._hand, SEATS[player])

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> BalootState:
        """A state that ``player_id`` cannot tell from this one: the hidden cards dealt again
        by :class:`~baloot.bots.worlds.WorldSampler`, the same actions applied, seeded by
        ``probability_sampler`` (a callable giving numbers in [0, 1))."""
        rng = random.Random(int(probability_sampler() * 2**53))
        world = WorldSampler(self.view(player_id)).world(rng)
        other = BalootState(self._game)
        for card in world.deck:
            other.apply_action(card.index)
        for action in world.actions:
            other.apply_action(index_of(action))
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> BalootState:
        """A copy sharing the game (how OpenSpiel clones a Python state), built again
        through ``apply_action`` so that OpenSpiel's own history is the original's."""
        other = BalootState(self._game)
        for action in self.history():
            other.apply_action(action)
        return other

    def __str__(self) -> str:
        if self._hand is None:
            return "deal " + " ".join(CARDS[i].text for i in self._deck)
        return "; ".join(str(a) for a in self._hand.actions) or repr(self._hand)


class BalootObserver:
    """A seat's information state or observation, as OpenSpiel's Python observers are."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = SIZE + (32 * 32 if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:SIZE]}
        if perfect_recall:
            self.dict["plays"] = self.tensor[SIZE:].reshape(32, 32)

    def set_from(self, state: BalootState, player: int) -> None:
        """Fill the tensor with what ``player`` knows of ``state``."""
        if state.hand is None:
            self.tensor.fill(0.0)
            return
        view = state.view(player)
        encode(view, self.dict["observation"])
        if self.perfect_recall:
            plays = self.dict["plays"]
            plays.fill(0.0)
            played = [card for trick in view.tricks for card in trick.cards]
            for i, card in enumerate(played):
                plays[i, card.index] = 1.0

    def string_from(self, state: BalootState, player: int) -> str:
        """The seat's cards and, for the information state, every action as it heard them;
        for the observation the public position now."""
        seat = SEATS[player]
        if state.hand is None:
            return f"{seat.name} before the deal"
        view = state.view(player)
        head = (
            f"{seat.name} dealer {view.dealer.name} exposed {view.exposed.text} hand {view.cards}"
        )
        if self.perfect_recall:
            return head + " | " + "; ".join(str(a) for a in view.actions)
        trick = " ".join(f"{s.name}:{c.text}" for s, c in view.current_trick)
        return (
            f"{head} | {view.phase.value} contract {_contract(view)} played {view.played} "
            f"trick [{trick}] won {view.tricks_won}"
        )


def _contract(view: SeatView) -> str:
    """The contract in a few words: ``hokum h W x2 locked``, ``sun N``, or ``none``."""
    contract = view.contract
    if contract is None:
        return "none"
    words = [contract.kind.value]
    if contract.trump is not None:
        words.append(contract.trump.letter)
    words.append(contract.declarer.name)
    if contract.level > 1:
        words.append(f"x{contract.level.json}")
    if contract.locked:
        words.append("locked")
    return " ".join(words)

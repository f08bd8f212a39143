"""A hint: the action the heuristic bot picks and the rules that decided it, as documented
keys with parameters for an interface to word (``baloot.words.hints`` has English and
Arabic words for every key).

Parameters are strings a player reads: cards as ``Th``, seats and suits as letters (``N``,
``h``), projects as record words (``sira fifty``), numbers in decimals (``7``, ``8.5``).

>>> why = HintReason("P7_win_cheaply", {"card": "Jd", "points": "16"})
>>> Hint(Action.parse("S play Jd"), (why,)).to_json()["why"]
[{'key': 'P7_win_cheaply', 'params': {'card': 'Jd', 'points': '16'}}]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from baloot.core.actions import Action
from baloot.core.cards import Card, Suit
from baloot.core.seats import Seat

#: Every hint key with the names of its parameters. Keys start with the rule of
#: :class:`~baloot.bots.heuristic.HeuristicBot` they come from (``forced_`` when only one
#: action is legal).
HINT_KEYS: Final[dict[str, tuple[str, ...]]] = {
    # only one legal action
    "forced_last_card": ("card",),  # the seat's last card
    "forced_follow": ("card", "suit"),  # its only card of the suit led
    "forced_trump": ("card",),  # the only trump it may play (R9.4)
    "forced_card": ("card",),  # the only card the rules allow
    "forced_pass": (),  # pass is the only answer
    "forced_action": ("action",),  # any other single action, in record notation
    # bidding
    "B1_kawesh": ("cards",),  # the first five, all 7s, 8s and 9s
    "B2_counted": ("cards",),  # after a reason that compares values: the cards counted
    "B3_sun": ("value", "need"),  # Sun value and the Sun threshold
    "B4_ashkal": ("value", "need", "card", "gain"),  # first five alone; exposed card adds gain
    "B5_hokum": ("suit", "value", "need"),  # round 1 Hokum in the exposed suit
    "B6_take_over": ("seat", "value", "need"),  # Sun over an opponent's Sun or Ashkal
    "B6_no_take_over": ("seat", "value", "need"),  # not enough for that
    "B6_partner_call": ("seat",),  # never over the partner's Sun or Ashkal
    "B6_sun_over_hokum": ("seat", "value", "need"),  # Sun over an opponent's Hokum
    "B6_no_sun_over_hokum": ("seat", "value", "need"),
    "B6_sun_over_partner": ("seat", "value", "need"),  # Sun over the partner's Hokum
    "B6_leave_partner": ("seat", "value", "need"),
    "B6_switch_to_sun": ("value", "need"),  # the Hokum bidder turns its Hokum into Sun
    "B6_keep_hokum": ("value", "need"),
    "B6_sun_closed": ("seat",),  # no Sun allowed over that Hokum
    "B7_hokum": ("suit", "value", "need"),  # round 2 Hokum, best suit
    "B7_sun": ("value", "need"),  # round 2 or 3 Sun
    "B7_name_trump": ("suit", "value"),
    "B7_sun_not_trump": ("value", "need", "suit", "hokum", "hokum_need"),
    "B8_pass": ("sun", "sun_need", "suit", "hokum", "hokum_need"),
    "B8_pass_no_trumps": ("sun", "sun_need"),  # no suit holds its J or 9 and a second card
    "B8_pass_sun": ("sun", "sun_need"),  # only Sun was open
    # doubling
    "D1_double": ("suit", "trumps", "value", "need"),
    "D1_no_double": ("trumps", "aces", "value", "need"),
    "D2_double_sun": ("aces", "value", "need"),
    "D2_no_double_sun": ("aces", "value", "need"),
    "D3_triple": ("value", "need"),
    "D3_no_triple": ("value", "need"),
    "D3_four": ("value", "need"),
    "D3_no_four": ("value", "need"),
    "D3_gahwa": ("value", "need"),
    "D3_no_gahwa": ("value", "need"),
    # projects and play
    "P1_declare": ("projects",),
    "P2_draw_trumps": ("card",),
    "P3_cash": ("card",),
    "P3_ekka": ("card",),
    "P4_lead_for_ruff": ("card", "seat", "suit"),  # seat: the partner, void in suit
    "P5_lead_cheap": ("card",),
    "P6_give_points": ("card", "seat", "points"),  # seat: the partner sure to win
    "P6_play_low": ("card", "seat"),
    "P7_win_cheaply": ("card", "points"),  # points: in the trick so far, this card's included
    "P7_ruff": ("card", "suit", "points"),  # suit: the suit led
    "P8_duck": ("card", "winner"),  # winner: the card that would have won, at too high a cost
    "P8_discard": ("card", "suit"),  # suit: the suit led, which the seat lacks
    "P8_play_low": ("card",),
    "P9_keep_trump": ("card",),
    "P9_keep_baloot": ("cards",),
    "P9_keep_master": ("card",),
    "P9_keep_honour": ("card",),
    "P9_make_void": ("card", "suit"),
    # a position no rule covers
    "default": (),
    # the search of the strongest bot, where it differs from these rules
    "S1_best_card": ("card", "value", "gain"),  # gain: over the next best card
    "S1_best_call": ("action", "value", "gain"),
}


#: A parameter as the rules give it, made a string only when a hint is asked for: text, a
#: number, a card, a suit, a seat, or cards.
Param = str | int | float | Card | Suit | Seat | tuple[Card, ...]
#: A reason as the rules give it: a key of :data:`HINT_KEYS` and its parameters. The rules
#: return these plain tuples and :meth:`Hint.of` words their parameters, so that
#: :meth:`~baloot.bots.heuristic.HeuristicBot.choose` pays (almost) nothing for them.
Why = tuple[str, dict[str, Param]]
#: An action with the reasons that decided it, most decisive first.
Decision = tuple[Action, tuple[Why, ...]]


@dataclass(frozen=True, slots=True)
class HintReason:
    """One rule that decided a hint: a key of :data:`HINT_KEYS` and its parameters."""

    key: str
    params: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{"key": ..., "params": {...}}`` as the ``hint`` message writes it."""
        return {"key": self.key, "params": dict(self.params)}


@dataclass(frozen=True, slots=True)
class Hint:
    """The action the bot picks and why, most decisive rule first."""

    action: Action
    why: tuple[HintReason, ...]

    @classmethod
    def of(cls, decision: Decision) -> Hint:
        """The hint of a decision as the rules return it."""
        action, why = decision
        return cls(
            action,
            tuple(
                HintReason(key, {name: param_text(value) for name, value in params.items()})
                for key, params in why
            ),
        )

    def to_json(self) -> dict[str, Any]:
        """The ``action`` and ``why`` of a ``hint`` message (``docs/table-protocol.md``)."""
        return {"action": str(self.action), "why": [reason.to_json() for reason in self.why]}


def param_text(value: Param) -> str:
    """A parameter as a hint writes it: cards ``Th``, suits ``h``, seats ``N``, numbers
    ``8.5``, cards in a row ``Kh Qh``.

    >>> param_text(Card.parse("Th")), param_text(Suit.HEARTS), param_text(Seat.N)
    ('Th', 'h', 'N')
    >>> param_text(7.0), param_text(3), param_text((Card.parse("Kh"), Card.parse("Qh")))
    ('7', '3', 'Kh Qh')
    """
    if isinstance(value, str):
        return value
    if isinstance(value, Card):
        return value.text
    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, Seat):
        return value.name
    if isinstance(value, tuple):
        return " ".join(card.text for card in value)
    return num(value)


def num(value: float) -> str:
    """A hand value or points as a player reads it: ``7``, ``8.5``.

    >>> num(7.0), num(8.5)
    ('7', '8.5')
    """
    if value == int(value):
        return str(int(value))
    return f"{value:.1f}"

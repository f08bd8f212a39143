"""Why an action is illegal, as a code and its parameters, so any interface can word it.

Every :class:`~baloot.core.errors.IllegalActionError` of a rule carries a ``code`` (a
:class:`ReasonCode`, a key of :data:`REASONS`) and ``params`` (plain strings: a seat letter
like ``S``, a card like ``Kh``, a suit name like ``diamonds``, a project word like ``sira``);
its English ``reason`` is the code's template filled with them.

>>> reason_text(ReasonCode.MUST_FOLLOW, seat="S", suit="diamonds")
'S must follow diamonds'
>>> sorted(reason_fields(ReasonCode.NOT_YOUR_TURN))
['seat']
>>> ReasonCode.MUST_FOLLOW == "must_follow", set(REASONS) == set(ReasonCode)
(True, True)
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final


class ReasonCode(StrEnum):
    """The rule an illegal action breaks, a key of :data:`REASONS`; equal to its text."""

    # any time
    BAD_NOTATION = "bad_notation"
    HAND_OVER = "hand_over"
    NOT_YOUR_TURN = "not_your_turn"
    NAME_ACTION = "name_action"
    NOTHING_TO_UNDO = "nothing_to_undo"
    # the match
    NO_HAND_YET = "no_hand_yet"
    MATCH_OVER = "match_over"
    HAND_NOT_OVER = "hand_not_over"
    WRONG_DEALER = "wrong_dealer"
    NO_GENERATOR = "no_generator"
    BOT_ILLEGAL = "bot_illegal"
    # a table (docs/table-protocol.md)
    NOT_YOUR_SEAT = "not_your_seat"
    NOT_HAND_OVER = "not_hand_over"
    NOT_ALLOWED = "not_allowed"
    CLAIM_NOT_PROVEN = "claim_not_proven"
    # bidding (R4–R6)
    ASHKAL_SEAT = "ashkal_seat"
    ASHKAL_ROUND2 = "ashkal_round2"
    ASHKAL_ON_ACE = "ashkal_on_ace"
    ASHKAL_AFTER_PASSES = "ashkal_after_passes"
    ASHKAL_OVER_HOKUM = "ashkal_over_hokum"
    ASHKAL_PASSES_OR_HOKUM = "ashkal_passes_or_hokum"
    ASHKAL_NOW = "ashkal_now"
    KAWESH_DISABLED = "kawesh_disabled"
    KAWESH_ROUND1 = "kawesh_round1"
    KAWESH_CARDS = "kawesh_cards"
    KAWESH_NOW = "kawesh_now"
    HOKUM_CALLED = "hokum_called"
    SUN_ON_ACE_HOKUM = "sun_on_ace_hokum"
    SUN_OR_PASS = "sun_or_pass"
    NOT_IN_BIDDING = "not_in_bidding"
    TRUMP_EXPOSED_SUIT = "trump_exposed_suit"
    NAME_TRUMP = "name_trump"
    # doubling (R8)
    DOUBLE_OPEN_OR_LOCKED = "double_open_or_locked"
    DOUBLE_SUN_PLAIN = "double_sun_plain"
    ANSWER_ONLY = "answer_only"
    # the play (R9)
    PLAY_BEFORE_PLAY = "play_before_play"
    DECLARE_BEFORE_PLAY = "declare_before_play"
    PLAY_NOW = "play_now"
    NAME_CARD = "name_card"
    NOT_HELD = "not_held"
    LEAD_TRUMP_LOCKED = "lead_trump_locked"
    TRUMP_HIGHER = "trump_higher"
    MUST_FOLLOW = "must_follow"
    OVER_TRUMP = "over_trump"
    TRUMP_PARTNER_LED = "trump_partner_led"
    MUST_TRUMP = "must_trump"
    EKKA_SUN = "ekka_sun"
    EKKA_NOT_LEADING = "ekka_not_leading"
    EKKA_TRUMP = "ekka_trump"
    EKKA_ACE = "ekka_ace"
    EKKA_HIGHER_OUT = "ekka_higher_out"
    BALOOT_NOT_DUE = "baloot_not_due"
    # declarations (R10)
    DECLARE_FIRST_TRICK = "declare_first_trick"
    DECLARED_ALREADY = "declared_already"
    DECLARE_TOO_MANY = "declare_too_many"
    PROJECT_NOT_HELD = "project_not_held"
    DECLARE_LOWER = "declare_lower"


#: Every reason code with its English template; the ``{fields}`` are the code's parameters.
REASONS: Final[dict[ReasonCode, str]] = {
    # any time
    ReasonCode.BAD_NOTATION: "{message}",
    ReasonCode.HAND_OVER: "the hand is over",
    ReasonCode.NOT_YOUR_TURN: "it is {seat}'s turn",
    ReasonCode.NAME_ACTION: "{seat} must name an action",
    ReasonCode.NOTHING_TO_UNDO: "there is nothing to undo",
    # the match
    ReasonCode.NO_HAND_YET: "no hand has been dealt yet",
    ReasonCode.MATCH_OVER: "the match is over",
    ReasonCode.HAND_NOT_OVER: "the hand in progress is not over",
    ReasonCode.WRONG_DEALER: "{dealer} deals this hand, not {seat}",
    ReasonCode.NO_GENERATOR: "this match has no generator to shuffle with",
    ReasonCode.BOT_ILLEGAL: "bot {bot} at {seat} chose an illegal action",
    # a table (docs/table-protocol.md)
    ReasonCode.NOT_YOUR_SEAT: "{seat} may not act for {other}",
    ReasonCode.NOT_HAND_OVER: "the hand is not over yet",
    ReasonCode.NOT_ALLOWED: "undo and hints are only for a table with one human player",
    ReasonCode.CLAIM_NOT_PROVEN: "{seat}'s cards are not sure to win every remaining trick",
    # bidding (R4–R6)
    ReasonCode.ASHKAL_SEAT: "{seat} may not call Ashkal: only the dealer and the dealer's left may",
    ReasonCode.ASHKAL_ROUND2: "{seat} may not call Ashkal in the second round",
    ReasonCode.ASHKAL_ON_ACE: "{seat} may not call Ashkal on an exposed Ace",
    ReasonCode.ASHKAL_AFTER_PASSES: "{seat} may call Ashkal only when every earlier player passed",
    ReasonCode.ASHKAL_OVER_HOKUM: "{seat} may call Ashkal only over an opponent's Hokum",
    ReasonCode.ASHKAL_PASSES_OR_HOKUM: "{seat} may call Ashkal only after passes or over an "
    "opponent's Hokum",
    ReasonCode.ASHKAL_NOW: "{seat} may not call Ashkal now",
    ReasonCode.KAWESH_DISABLED: "{seat} may not call Kawesh: it is not played under these rules",
    ReasonCode.KAWESH_ROUND1: "{seat} may call Kawesh only in the first round",
    ReasonCode.KAWESH_CARDS: "{seat} may call Kawesh only with five cards of 7, 8 and 9",
    ReasonCode.KAWESH_NOW: "{seat} may not call Kawesh now",
    ReasonCode.HOKUM_CALLED: "{seat} may not call Hokum: a Hokum has already been called",
    ReasonCode.SUN_ON_ACE_HOKUM: "{seat} may not call Sun over a Hokum on an exposed Ace",
    ReasonCode.SUN_OR_PASS: "{seat} may only take the Sun or pass now",
    ReasonCode.NOT_IN_BIDDING: "{seat} may not {verb} during the bidding",
    ReasonCode.TRUMP_EXPOSED_SUIT: "{seat} may not name the exposed suit as trump in the "
    "second round",
    ReasonCode.NAME_TRUMP: "{seat} must name the trump suit now",
    # doubling (R8)
    ReasonCode.DOUBLE_OPEN_OR_LOCKED: "{seat} must say whether the double is open or locked",
    ReasonCode.DOUBLE_SUN_PLAIN: "{seat} must double a Sun without open or locked",
    ReasonCode.ANSWER_ONLY: "{seat} may only answer {offered} now",
    # the play (R9)
    ReasonCode.PLAY_BEFORE_PLAY: "{seat} may not play a card before the play begins",
    ReasonCode.DECLARE_BEFORE_PLAY: "{seat} may not declare a project before the play begins",
    ReasonCode.PLAY_NOW: "{seat} must play a card now",
    ReasonCode.NAME_CARD: "{seat} must name a card",
    ReasonCode.NOT_HELD: "{seat} does not hold {card}",
    ReasonCode.LEAD_TRUMP_LOCKED: "{seat} may not lead a trump in a locked game",
    ReasonCode.TRUMP_HIGHER: "{seat} must play a trump higher than {card}",
    ReasonCode.MUST_FOLLOW: "{seat} must follow {suit}",
    ReasonCode.OVER_TRUMP: "{seat} must over-trump {card}",
    ReasonCode.TRUMP_PARTNER_LED: "{seat} must trump: the partner led {card}, neither an Ace "
    "nor an Ekka",
    ReasonCode.MUST_TRUMP: "{seat} must play a trump: {suit} was led and {seat} holds none",
    ReasonCode.EKKA_SUN: "{seat} may not announce Ekka in Sun",
    ReasonCode.EKKA_NOT_LEADING: "{seat} may announce Ekka only when leading",
    ReasonCode.EKKA_TRUMP: "{seat} may not announce Ekka on a trump",
    ReasonCode.EKKA_ACE: "{seat} may not announce Ekka on an Ace",
    ReasonCode.EKKA_HIGHER_OUT: "{seat} may not announce Ekka with {card}: {higher} not yet played",
    ReasonCode.BALOOT_NOT_DUE: "{seat} may announce Baloot only with the second of the King and "
    "Queen of trumps",
    # declarations (R10)
    ReasonCode.DECLARE_FIRST_TRICK: "{seat} may declare only in the first trick, before playing",
    ReasonCode.DECLARED_ALREADY: "{seat} has already declared",
    ReasonCode.DECLARE_TOO_MANY: "{seat} cannot hold more than two projects",
    ReasonCode.PROJECT_NOT_HELD: "{seat} does not hold a {project}",
    ReasonCode.DECLARE_LOWER: "{seat} may not declare a {project} lower than a project already "
    "declared",
}


def reason_text(code: ReasonCode, **params: str) -> str:
    """The English reason of ``code`` with its parameters.

    >>> reason_text(ReasonCode.NOT_HELD, seat="W", card="Ah")
    'W does not hold Ah'
    """
    return REASONS[code].format(**params)


def reason_fields(code: ReasonCode) -> frozenset[str]:
    """The parameter names of ``code``.

    >>> sorted(reason_fields(ReasonCode.EKKA_HIGHER_OUT))
    ['card', 'higher', 'seat']
    """
    return frozenset(name for _, name, _, _ in string.Formatter().parse(REASONS[code]) if name)


@dataclass(frozen=True, slots=True)
class Reason:
    """A rule as a code and its parameters, for an interface to word (see :data:`REASONS`).

    >>> Reason(ReasonCode.MUST_FOLLOW, {"seat": "S", "suit": "diamonds"}).text
    'S must follow diamonds'
    """

    code: ReasonCode
    params: Mapping[str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The rule in English words."""
        return reason_text(self.code, **self.params)

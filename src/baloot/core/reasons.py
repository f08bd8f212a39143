"""Why an action is illegal, as a code and its parameters, so any interface can word it.

Every :class:`~baloot.core.errors.IllegalActionError` carries a ``code`` (a key of
:data:`REASONS`) and ``params`` (plain strings: a seat letter like ``S``, a card like ``Kh``,
a suit name like ``diamonds``, a project word like ``sira``); its English ``reason`` is the
code's template filled with them.

>>> reason_text("must_follow", seat="S", suit="diamonds")
'S must follow diamonds'
>>> sorted(reason_fields("not_your_turn"))
['seat']
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

#: Every reason code with its English template; the ``{fields}`` are the code's parameters.
REASONS: Final[dict[str, str]] = {
    # any time
    "bad_notation": "{message}",
    "hand_over": "the hand is over",
    "not_your_turn": "it is {seat}'s turn",
    "name_action": "{seat} must name an action",
    "nothing_to_undo": "there is nothing to undo",
    # the match
    "no_hand_yet": "no hand has been dealt yet",
    "match_over": "the match is over",
    "hand_not_over": "the hand in progress is not over",
    "wrong_dealer": "{dealer} deals this hand, not {seat}",
    "no_generator": "this match has no generator to shuffle with",
    "bot_illegal": "bot {bot} at {seat} chose an illegal action",
    # a table (seat-view.md §4)
    "not_your_seat": "{seat} may not act for {other}",
    "not_hand_over": "the hand is not over yet",
    "not_allowed": "undo and hints are only for a table with one human player",
    "claim_not_proven": "{seat}'s cards are not sure to win every remaining trick",
    # bidding (R4–R6)
    "ashkal_seat": "{seat} may not call Ashkal: only the dealer and the dealer's left may",
    "ashkal_round2": "{seat} may not call Ashkal in the second round",
    "ashkal_on_ace": "{seat} may not call Ashkal on an exposed Ace",
    "ashkal_after_passes": "{seat} may call Ashkal only when every earlier player passed",
    "ashkal_over_hokum": "{seat} may call Ashkal only over an opponent's Hokum",
    "ashkal_passes_or_hokum": "{seat} may call Ashkal only after passes or over an "
    "opponent's Hokum",
    "ashkal_now": "{seat} may not call Ashkal now",
    "kawesh_disabled": "{seat} may not call Kawesh: it is not played under these rules",
    "kawesh_round1": "{seat} may call Kawesh only in the first round",
    "kawesh_cards": "{seat} may call Kawesh only with five cards of 7, 8 and 9",
    "kawesh_now": "{seat} may not call Kawesh now",
    "hokum_called": "{seat} may not call Hokum: a Hokum has already been called",
    "sun_on_ace_hokum": "{seat} may not call Sun over a Hokum on an exposed Ace",
    "sun_or_pass": "{seat} may only take the Sun or pass now",
    "not_in_bidding": "{seat} may not {verb} during the bidding",
    "trump_exposed_suit": "{seat} may not name the exposed suit as trump in the second round",
    "name_trump": "{seat} must name the trump suit now",
    # doubling (R8)
    "double_open_or_locked": "{seat} must say whether the double is open or locked",
    "double_sun_plain": "{seat} must double a Sun without open or locked",
    "answer_only": "{seat} may only answer {offered} now",
    # the play (R9)
    "play_before_play": "{seat} may not play a card before the play begins",
    "declare_before_play": "{seat} may not declare a project before the play begins",
    "play_now": "{seat} must play a card now",
    "name_card": "{seat} must name a card",
    "not_held": "{seat} does not hold {card}",
    "lead_trump_locked": "{seat} may not lead a trump in a locked game",
    "trump_higher": "{seat} must play a trump higher than {card}",
    "must_follow": "{seat} must follow {suit}",
    "over_trump": "{seat} must over-trump {card}",
    "trump_partner_led": "{seat} must trump: the partner led {card}, neither an Ace nor an Ekka",
    "must_trump": "{seat} must play a trump",
    "ekka_sun": "{seat} may not announce Ekka in Sun",
    "ekka_not_leading": "{seat} may announce Ekka only when leading",
    "ekka_trump": "{seat} may not announce Ekka on a trump",
    "ekka_ace": "{seat} may not announce Ekka on an Ace",
    "ekka_higher_out": "{seat} may not announce Ekka with {card}: {higher} not yet played",
    "baloot_not_due": "{seat} may announce Baloot only with the second of the King and Queen "
    "of trumps",
    # declarations (R10)
    "declare_first_trick": "{seat} may declare only in the first trick, before playing",
    "declared_already": "{seat} has already declared",
    "declare_too_many": "{seat} cannot hold more than two projects",
    "project_not_held": "{seat} does not hold a {project}",
    "declare_lower": "{seat} may not declare a {project} lower than a project already declared",
}


def reason_text(code: str, **params: str) -> str:
    """The English reason of ``code`` with its parameters.

    >>> reason_text("not_held", seat="W", card="Ah")
    'W does not hold Ah'
    """
    return REASONS[code].format(**params)


def reason_fields(code: str) -> frozenset[str]:
    """The parameter names of ``code``.

    >>> sorted(reason_fields("ekka_higher_out"))
    ['card', 'higher', 'seat']
    """
    return frozenset(name for _, name, _, _ in string.Formatter().parse(REASONS[code]) if name)


@dataclass(frozen=True, slots=True)
class Reason:
    """A rule as a code and its parameters, for an interface to word (see :data:`REASONS`).

    >>> Reason("must_follow", {"seat": "S", "suit": "diamonds"}).text
    'S must follow diamonds'
    """

    code: str
    params: Mapping[str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The rule in English words."""
        return reason_text(self.code, **self.params)

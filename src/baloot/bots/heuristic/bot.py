"""The heuristic bot itself: its thresholds, and the choice of one legal action with the
rules that decided it.

>>> import random
>>> from baloot.core.hand import Hand
>>> hand = Hand.new(rng=random.Random(1))
>>> view, legal = SeatView.of(hand, hand.to_act), hand.legal_actions()
>>> hint = HeuristicBot().explain(view, legal)
>>> str(hint.action), hint.action == HeuristicBot().choose(view, legal)
('N pass', True)
>>> for reason in hint.why:
...     print(reason.key, dict(reason.params))
B8_pass_no_trumps {'sun': '2', 'sun_need': '8'}
B2_counted {'cards': 'Jh 9h Kd Qc 8c Td'}
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from baloot.bots.heuristic.bidding import bid, name_trump
from baloot.bots.heuristic.doubling import double
from baloot.bots.heuristic.hints import Decision, Hint, HintReason
from baloot.bots.heuristic.play import play
from baloot.bots.heuristic.tuning import Thresholds
from baloot.core.actions import Action, Verb
from baloot.core.reasons import ReasonCode
from baloot.core.vocabulary import Phase
from baloot.view.seat_view import SeatView

#: The restrictions (reason codes of R9.4) that leave a seat one trump to play.
_TRUMP_CODES = frozenset(
    {
        ReasonCode.OVER_TRUMP,
        ReasonCode.TRUMP_HIGHER,
        ReasonCode.MUST_TRUMP,
        ReasonCode.TRUMP_PARTNER_LED,
    }
)


class HeuristicBot:
    """A rule-based player. Its rules, in the order it applies them:

    Bidding (the exposed card is counted whenever this seat would take it)
      B1. Kawesh whenever it is legal (a first five of only 7s, 8s and 9s).
      B2. Hokum value (:func:`hokum_value`): J 4, 9 3, A 2, T 1.5, other trumps 1; side Aces
          2, a Ten beside its Ace 1. Sun value (:func:`sun_value`): Ace 3, Ten beside its Ace
          2 (guarded 1), King beside Ace/Ten 1, long Ace suits 0.5 a card.
      B3. Sun on a normal turn when the Sun value is at least ``sun_bid`` (8) and at least as
          far above it as the Hokum value is above ``hokum_bid`` (Sun is worth more). The
          thresholds (``sun_bid``, ``hokum_bid``…) are the bot's :class:`Thresholds`.
      B4. Ashkal instead of that Sun when legal, when the first five alone are Sun-worthy and
          the exposed card would add less than 1 to them (a low card or an unguarded
          honour): it then goes to the partner, where it may sit with his honours, and this
          seat gets a fresh card in its place.
      B5. Hokum in round 1 with the J or 9 of the exposed suit (the exposed card counts), two
          or more trumps and a Hokum value of at least ``hokum_bid`` (7).
      B6. Sun windows (take-over offers, "confirm or Sun", Sun over a standing Hokum): Sun
          over an opponent's call with a Sun-worthy hand; over the partner's Hokum only with
          ``partner_margin`` (3) more; never over the partner's Sun or Ashkal; as the Hokum
          bidder, switch to Sun only on the B3 comparison.
      B7. Round 2: Hokum (with the J or 9) in the best suit other than the exposed one, or
          Sun, by the same thresholds; when naming the trump, the suit of highest Hokum
          value (Sun instead if B3 prefers it). Round 3: Sun with a Sun-worthy hand.
      B8. Otherwise pass.

    Doubling (complete hands)
      D1. Double a Hokum with at least three trumps including the J or 9, a side Ace and a
          defence value (:func:`defence_value`) of ``double_hokum`` (11) or more, locked:
          the declarer may then not lead trumps to draw them.
      D2. Double a Sun (when R8.4 allows it) only with three Aces and a Sun value of
          ``double_sun`` (12) or more.
      D3. Triple with the J and 9 of trumps and a Hokum value of ``triple_hokum`` (15) or
          more; Four (locked) with a defence value of ``four_hokum`` (17) or more; Gahwa with
          a Hokum value of ``gahwa_hokum`` (18) or more. Otherwise pass.

    Projects
      P1. In trick 1, before playing, declare the option naming the most project value (the
          most projects on a tie).

    Play. What is known: the unseen cards, minus the suits and trumps each seat has shown it
    lacks by not following, not trumping or not over-trumping when R9.4 would have made it,
    the exposed card (still with its taker) and the shown projects (with their team).
      P2. Leading as the declaring side in Hokum: holding a trump no opponent can beat while
          an opponent may still hold a trump, lead it (draw trumps).
      P3. Leading: cash a sure winner (a card no opponent can beat, nor ruff when surely
          void), the most points first (the Ace before the Ten it makes master); announce
          Ekka whenever the engine offers it for that card.
      P4. Leading in Hokum: when the partner is surely void in a side suit and may still
          trump, lead the lowest card of that suit for him to ruff.
      P5. Leading otherwise: the card cheapest to give up (its points plus its worth kept,
          rule P9, less 0.3 per card of its suit: long suits first), no trump while a side
          card will do.
      P6. Following when the partner is winning and surely stays winning (this seat plays
          last, or no later opponent can beat his card): give the card whose points most
          exceed its worth kept: points for the partner, but no trump or sure winner while
          another card will do.
      P7. Following otherwise, each legal card is valued and the best is played. A card that
          wins the trick and that no later opponent can beat brings the points at stake
          (the trick's cards, 2.5 for each card still to come, its own) plus 2 for the lead,
          minus its worth kept; any other card loses the stake (half of it when the partner
          is winning but may be beaten), its own points and its worth kept. So the bot wins
          with the cheapest sure winner when the points pay for it (the lowest trump that
          over-trumps, the Ten rather than the Ace when both win)...
      P8. ...and otherwise plays its cheapest card: never a high card into a trick it cannot
          win; discards low cards from its weakest, shortest side suit.
      P9. Worth kept: a trump 10 + 2 x its points (4 more for the King and Queen of trumps
          while both are held: the Baloot pair stays together); a sure winner its points + 8
          in Sun, + 4 in Hokum (it may be ruffed); an honour that may still be beaten,
          its chance to win (guards against the higher cards out) times its points + 8, less
          half its points otherwise; a low card 0.1 per card of its suit, or -0.5 when it is
          a Hokum singleton beside trumps (discarding it makes a void to ruff with).

    Remaining ties go to the weaker card (when following), then to the engine's card order
    (♠ ♥ ♦ ♣, high card first).
    No decision is left to chance, so the same position always gets the same answer;
    ``rng`` is accepted for the bot interface.

    :meth:`explain` gives the action with the rules that decided it (a :class:`Hint` whose
    reasons are keys of :data:`~baloot.bots.heuristic.hints.HINT_KEYS`: ``B1_kawesh``,
    ``P7_win_cheaply``, ``forced_follow`` …); :meth:`choose` is its action.
    """

    name = "heuristic"

    def __init__(
        self, rng: random.Random | None = None, thresholds: Thresholds | None = None
    ) -> None:
        self.rng = rng if rng is not None else random.Random()
        self.thresholds = Thresholds() if thresholds is None else thresholds

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The action these rules pick among ``legal`` in ``view``: the action of
        :meth:`explain`."""
        if len(legal) == 1:
            return legal[0]
        return self._decide(view, legal)[0]

    def explain(self, view: SeatView, legal: Sequence[Action]) -> Hint:
        """The action these rules pick among ``legal`` in ``view``, with the rules that
        decided it."""
        if len(legal) == 1:
            return Hint(legal[0], (forced(view, legal[0]),))
        return Hint.of(self._decide(view, legal))

    def _decide(self, view: SeatView, legal: Sequence[Action]) -> Decision:
        """The choice among two or more legal actions, with its reasons."""
        phase = view.phase
        if phase is Phase.PLAYING:
            return play(view, legal)
        if phase is Phase.DOUBLING:
            return double(self.thresholds, view, legal)
        if phase is Phase.TRUMP_NAMING:
            return name_trump(self.thresholds, view, legal)
        return bid(self.thresholds, view, legal)


def forced(view: SeatView, action: Action) -> HintReason:
    """Why ``action`` is the only legal one, as far as the view tells."""
    card = action.card
    if action.verb is Verb.PLAY and card is not None:
        if len(view.cards) == 1:
            return HintReason("forced_last_card", {"card": card.text})
        code = view.restriction.code if view.restriction is not None else None
        if code is ReasonCode.MUST_FOLLOW:
            return HintReason("forced_follow", {"card": card.text, "suit": card.suit.letter})
        if code in _TRUMP_CODES:
            return HintReason("forced_trump", {"card": card.text})
        return HintReason("forced_card", {"card": card.text})
    if action.verb is Verb.PASS:
        return HintReason("forced_pass", {})
    return HintReason("forced_action", {"action": str(action)})

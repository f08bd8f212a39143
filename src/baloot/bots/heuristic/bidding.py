"""The heuristic bot's bidding: rules B1–B8 of :class:`~baloot.bots.heuristic.HeuristicBot`,
each decision with the rule that made it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from baloot.bots.heuristic.hints import Decision, Param, Why
from baloot.bots.heuristic.inference import seat_of
from baloot.bots.heuristic.tuning import Thresholds
from baloot.bots.heuristic.values import JACK, NINE, hokum_value, sun_value
from baloot.core.actions import Action, Verb
from baloot.core.cards import Card, Suit
from baloot.core.vocabulary import Phase, QuestionKind
from baloot.view.seat_view import SeatView


def find(legal: Sequence[Action], verb: Verb) -> Action | None:
    """The first legal action of ``verb``, or None."""
    for action in legal:
        if action.verb is verb:
            return action
    return None


def pass_action(legal: Sequence[Action]) -> Action:
    """Pass, or the first legal action when passing is not allowed."""
    action = find(legal, Verb.PASS)
    return action if action is not None else legal[0]


def _best_hokum(cards: list[Card], suits: Iterable[Suit]) -> tuple[float, Suit | None]:
    """The best Hokum value over ``suits`` of a hand that holds the J or 9 of the suit."""
    best: tuple[float, Suit | None] = (float("-inf"), None)
    for suit in suits:
        if not any(c.suit == suit and c.rank in (JACK, NINE) for c in cards):
            continue
        if sum(1 for c in cards if c.suit == suit) < 2:
            continue
        value = hokum_value(cards, suit)
        if value > best[0]:
            best = (value, suit)
    return best


#: The questions asked while a Hokum stands (``about`` is its bidder).
_HOKUM_STANDS: Final = frozenset(
    {QuestionKind.BID, QuestionKind.SUN_OVER_HOKUM, QuestionKind.CONFIRM_HOKUM}
)


#: The bidding reasons that compare no hand value, so that need no B2 reason after them.
_NOT_COUNTED: Final = frozenset({"B1_kawesh", "B6_partner_call", "B6_sun_closed"})


def bid(t: Thresholds, view: SeatView, legal: Sequence[Action]) -> Decision:
    """Rules B1–B8, with B2 (the cards the values were counted on) after a reason that
    compares them."""
    five = list(view.cards)
    action, why = _bid(t, view, legal, five)
    if why[0][0] in _NOT_COUNTED:
        return action, why
    return action, (*why, _counted(five, view.exposed))


def _counted(five: list[Card], exposed: Card) -> Why:
    """B2: the cards the hand values were counted on, the exposed card included."""
    return ("B2_counted", {"cards": (*five, exposed)})


def _bid(t: Thresholds, view: SeatView, legal: Sequence[Action], five: list[Card]) -> Decision:
    kawesh = find(legal, Verb.KAWESH)
    if kawesh is not None:
        return (kawesh, (("B1_kawesh", {"cards": tuple(five)}),))
    me = seat_of(view)
    six = [*five, view.exposed]
    sun = find(legal, Verb.SUN)
    hokum = find(legal, Verb.HOKUM)
    ashkal = find(legal, Verb.ASHKAL)
    sun_worth = sun_value(six)
    sun_margin = sun_worth - t.sun_bid
    question = view.question
    kind = question.kind if question is not None else QuestionKind.BID
    about = question.about if question is not None else None
    hokum_caller = about if kind in _HOKUM_STANDS else None
    round1 = view.phase is Phase.BIDDING_ROUND_1
    exposed_suit = view.exposed.suit
    if round1:
        hokum_worth, hokum_suit = _best_hokum(six, (exposed_suit,))
    else:
        hokum_worth, hokum_suit = _best_hokum(six, (s for s in Suit if s != exposed_suit))
    hokum_margin = hokum_worth - t.hokum_bid
    sun_params = {"value": sun_worth, "need": t.sun_bid}

    if kind in (QuestionKind.TAKE_OVER_SUN, QuestionKind.TAKE_OVER_ASHKAL):
        # B6: a take-over offer after a Sun or an Ashkal (``about`` is its caller).
        caller = "" if about is None else about
        if sun is not None and about is not None and about.team != me.team and sun_margin >= 0:
            return (sun, (_reason("B6_take_over", seat=caller, **sun_params),))
        if about is not None and about.team == me.team:
            why = _reason("B6_partner_call", seat=caller)
        else:
            why = _reason("B6_no_take_over", seat=caller, **sun_params)
        return (pass_action(legal), (why,))
    if hokum_caller is not None:
        # B6: Sun over a standing Hokum (also the bidder's "confirm or Sun").
        if sun is None:
            return (pass_action(legal), (("B6_sun_closed", {"seat": hokum_caller}),))
        if hokum_caller == me:
            wants = sun_margin >= 0 and sun_margin >= hokum_margin
            key = "B6_switch_to_sun" if wants else "B6_keep_hokum"
            why = _reason(key, value=sun_worth, need=t.sun_bid)
        else:
            if hokum_caller == me.partner:
                wants = sun_margin >= t.partner_margin
                need = t.sun_bid + t.partner_margin
                key = "B6_sun_over_partner" if wants else "B6_leave_partner"
            else:
                wants = sun_margin >= 0
                need = t.sun_bid
                key = "B6_sun_over_hokum" if wants else "B6_no_sun_over_hokum"
            why = _reason(key, seat=hokum_caller, value=sun_worth, need=need)
        if wants:
            if ashkal is not None and _prefers_ashkal(t, view, five):
                return (ashkal, (why, _ashkal_reason(t, view, five)))
            return (sun, (why,))
        return (pass_action(legal), (why,))
    # Nobody has called yet in this round.
    if sun is not None and sun_margin >= 0 and (hokum is None or sun_margin >= hokum_margin):
        if ashkal is not None and _prefers_ashkal(t, view, five):
            return (ashkal, (_ashkal_reason(t, view, five),))  # B4
        return (sun, (_reason("B3_sun" if round1 else "B7_sun", **sun_params),))
    if hokum is not None and hokum_margin >= 0 and hokum_suit is not None:
        why = _reason(
            "B5_hokum" if round1 else "B7_hokum",
            suit=hokum_suit,
            value=hokum_worth,
            need=t.hokum_bid,
        )
        return (hokum, (why,))
    sun_only = {"sun": sun_worth, "sun_need": t.sun_bid}
    if hokum is None:
        why = _reason("B8_pass_sun", **sun_only)
    elif hokum_suit is None:
        why = _reason("B8_pass_no_trumps", **sun_only)
    else:
        why = _reason(
            "B8_pass",
            **sun_only,
            suit=hokum_suit,
            hokum=hokum_worth,
            hokum_need=t.hokum_bid,
        )
    return (pass_action(legal), (why,))


def _prefers_ashkal(t: Thresholds, view: SeatView, five: list[Card]) -> bool:
    """B4: Sun-worthy on its own, and the exposed card adds (almost) nothing here."""
    alone = sun_value(five)
    return alone >= t.sun_bid and sun_value([*five, view.exposed]) - alone < 1


def _ashkal_reason(t: Thresholds, view: SeatView, five: list[Card]) -> Why:
    alone = sun_value(five)
    return _reason(
        "B4_ashkal",
        value=alone,
        need=t.sun_bid,
        card=view.exposed,
        gain=sun_value([*five, view.exposed]) - alone,
    )


def name_trump(t: Thresholds, view: SeatView, legal: Sequence[Action]) -> Decision:
    """B7: name the best trump, or Sun if the hand is better for it."""
    five = list(view.cards)
    six = [*five, view.exposed]
    options = [a for a in legal if a.verb is Verb.TRUMP and a.suit is not None]
    best = max(options, key=lambda a: hokum_value(six, a.suit) if a.suit else 0.0)
    sun = find(legal, Verb.SUN)
    suit = best.suit
    assert suit is not None  # every option names a suit
    hokum = hokum_value(six, suit)
    if sun is not None:
        sun_worth = sun_value(six)
        sun_margin = sun_worth - t.sun_bid
        if sun_margin >= 0 and sun_margin > hokum - t.hokum_bid:
            why = _reason(
                "B7_sun_not_trump",
                value=sun_worth,
                need=t.sun_bid,
                suit=suit,
                hokum=hokum,
                hokum_need=t.hokum_bid,
            )
            return (sun, (why, _counted(five, view.exposed)))
    return (best, (_reason("B7_name_trump", suit=suit, value=hokum), _counted(five, view.exposed)))


def _reason(key: str, **params: Param) -> Why:
    return (key, params)

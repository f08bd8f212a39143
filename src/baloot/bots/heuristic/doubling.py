"""The heuristic bot's doubling: rules D1–D3 of :class:`~baloot.bots.heuristic.HeuristicBot`,
each decision with the rule that made it."""

from __future__ import annotations

from collections.abc import Sequence

from baloot.bots.heuristic.bidding import find, pass_action
from baloot.bots.heuristic.hints import Decision, Param
from baloot.bots.heuristic.tuning import Thresholds
from baloot.bots.heuristic.values import JACK, NINE, aces, defence_value, hokum_value, sun_value
from baloot.core.actions import Action, Verb
from baloot.view.seat_view import SeatView


def double(t: Thresholds, view: SeatView, legal: Sequence[Action]) -> Decision:
    """Rules D1–D3."""
    contract = view.contract
    cards = list(view.cards)
    if contract is None:
        return (pass_action(legal), (("default", {}),))
    trump = contract.trump
    params: dict[str, Param]
    if trump is None:
        double = find(legal, Verb.DOUBLE)
        held = aces(cards, None)
        value = sun_value(cards)
        params = {"aces": held, "value": value, "need": t.double_sun}
        if double is not None and held >= 3 and value >= t.double_sun:
            return (double, (("D2_double_sun", params),))
        return (pass_action(legal), (("D2_no_double_sun", params),))
    trumps = [c for c in cards if c.suit == trump]
    ranks = {c.rank for c in trumps}
    verbs = {a.verb for a in legal}
    if Verb.DOUBLE in verbs:
        side_aces = aces(cards, trump)
        defence = defence_value(cards, trump)
        strong = (
            len(trumps) >= 3
            and ranks & {JACK, NINE}
            and side_aces >= 1
            and defence >= t.double_hokum
        )
        if strong:
            params = {
                "suit": trump,
                "trumps": len(trumps),
                "value": defence,
                "need": t.double_hokum,
            }
            return (locked(legal, Verb.DOUBLE, True), (("D1_double", params),))
        params = {
            "trumps": len(trumps),
            "aces": side_aces,
            "value": defence,
            "need": t.double_hokum,
        }
        return (pass_action(legal), (("D1_no_double", params),))
    if Verb.TRIPLE in verbs:
        value = hokum_value(cards, trump)
        params = {"value": value, "need": t.triple_hokum}
        if {JACK, NINE} <= ranks and value >= t.triple_hokum:
            action = find(legal, Verb.TRIPLE) or pass_action(legal)
            return (action, (("D3_triple", params),))
        return (pass_action(legal), (("D3_no_triple", params),))
    if Verb.FOUR in verbs:
        value = defence_value(cards, trump)
        params = {"value": value, "need": t.four_hokum}
        if value >= t.four_hokum:
            return (locked(legal, Verb.FOUR, True), (("D3_four", params),))
        return (pass_action(legal), (("D3_no_four", params),))
    if Verb.GAHWA in verbs:
        value = hokum_value(cards, trump)
        params = {"value": value, "need": t.gahwa_hokum}
        if value >= t.gahwa_hokum:
            action = find(legal, Verb.GAHWA) or pass_action(legal)
            return (action, (("D3_gahwa", params),))
        return (pass_action(legal), (("D3_no_gahwa", params),))
    return (pass_action(legal), (("default", {}),))


def locked(legal: Sequence[Action], verb: Verb, want: bool) -> Action:
    """The ``verb`` action that is locked (or open) as wished, else any ``verb`` action."""
    options = [a for a in legal if a.verb is verb]
    for action in options:
        if action.locked is want:
            return action
    return options[0] if options else pass_action(legal)

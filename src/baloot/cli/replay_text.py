"""The readable replay of ``baloot replay``: the deal, the calls and the tricks of each hand,
then its score sheet worded by :func:`baloot.words.sheet.sheet_text`.

The replay keeps the record's notation (seat letters, actions as written) for the deal, the
calls and the tricks, in both languages, and words the sheet below them.
"""

from __future__ import annotations

import json

from baloot.core.actions import Action, Verb
from baloot.core.cards import CardSet
from baloot.core.hand import Hand
from baloot.core.scoring import HandResult
from baloot.core.seats import Seat
from baloot.core.vocabulary import Outcome, Trick
from baloot.records.replay import Replay
from baloot.view.sheet import explain
from baloot.words.sheet import sheet_text
from baloot.words.strings import Strings


def render_replay(result: Replay, s: Strings) -> str:
    """The whole replay: the rules, every hand with its sheet, the running and final totals."""
    rules = result.record.rules
    lines = [s("replay_rules", name=rules.name() or s("replay_custom"))]
    for flag, value in rules.changes().items():
        lines.append(f"  {flag} = {json.dumps(value)}")
    after = result.match.totals_after
    for number, (hand, res) in enumerate(zip(result.hands, result.results, strict=True), 1):
        lines.append("")
        lines.extend(render_hand(number, hand, res, s))
        if res.score is not None:
            ns, ew = after[number - 1]
            lines.append("  " + s("replay_totals", NS=ns, EW=ew))
    lines.append("")
    winner = s("replay_no_winner") if result.winner is None else result.winner.name
    lines.append(s("replay_end", NS=result.totals[0], EW=result.totals[1], winner=winner))
    return "\n".join(lines)


def render_hand(number: int, hand: Hand, result: HandResult, s: Strings) -> list[str]:
    """The lines of one hand: the deal, the calls and the tricks, then its sheet."""
    lines = [
        s(
            "replay_hand",
            number=number,
            dealer=hand.dealer.name,
            outcome=s(f"outcome_{result.outcome.name}"),
        )
    ]
    body = [s("replay_exposed", card=hand.exposed.pretty)]
    dealt = hand.contract is not None
    for seat in Seat:
        held = hand.full_hand(seat) if dealt else hand.hand(seat)
        label = "replay_dealt" if dealt else "replay_first_five"
        body.append(s(label, seat=seat.name, cards=_cards(held)))
    if bidding := hand.bidding():
        body.append(s("replay_bidding", calls=_calls(bidding)))
    if doubling := hand.doubling():
        body.append(s("replay_doubling", calls=_calls(doubling)))
    declarations = [
        f"{a.seat.name} {' '.join(str(c) for c in a.claims)}"
        for a in hand.actions
        if a.verb is Verb.DECLARE
    ]
    if declarations:
        body.append(s("replay_declared", declarations=", ".join(declarations)))
    for trick_number, trick in enumerate(hand.tricks(), 1):
        body.append(_trick(trick_number, trick, s))
    body.extend(sheet_text(line, s) for line in explain(result, hand.rules))
    if result.outcome is Outcome.IN_PROGRESS and hand.to_act is not None:
        legal = ", ".join(sorted(str(a) for a in hand.legal_actions()))
        body.append(s("replay_to_act", seat=hand.to_act.name, legal=legal))
    lines.extend("  " + line for line in body)
    return lines


def _cards(cards: CardSet) -> str:
    return " ".join(c.pretty for c in cards)


def _calls(actions: tuple[Action, ...]) -> str:
    return ", ".join(str(a) for a in actions)


def _trick(number: int, trick: Trick, s: Strings) -> str:
    plays = ", ".join(
        f"{play.seat.name} {card.pretty}{' ' + word if word else ''}"
        for play, card, word in zip(trick.plays, trick.cards, trick.words, strict=True)
    )
    if trick.winner is None:
        return s("replay_trick_in_progress", number=number, plays=plays)
    return s(
        "replay_trick", number=number, plays=plays, winner=trick.winner.name, points=trick.points
    )

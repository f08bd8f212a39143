"""The readable replay of ``baloot replay``: the deal, the calls and the tricks of each hand,
then its score sheet worded by :func:`baloot.words.sheet.sheet_text`.

In English the replay keeps the record's notation (seat letters, actions as written) for the
deal, the calls and the tricks, as the record's reader knows it; in Arabic it words them all
(seats, calls, projects, the preset), so that no Latin notation sits inside an Arabic line.
Cards stay as ``10♦`` in both.
"""

from __future__ import annotations

import json

from baloot.cli.render import call_label, claims_text
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
    name = rules.name()
    preset = s(f"preset_{name}") if name is not None and s.lang != "en" else name
    lines = [s("replay_rules", name=preset or s("replay_custom"))]
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
    winner = s("replay_no_winner") if result.winner is None else s.team(result.winner.name)
    lines.append(s("replay_end", NS=result.totals[0], EW=result.totals[1], winner=winner))
    return "\n".join(lines)


def render_hand(number: int, hand: Hand, result: HandResult, s: Strings) -> list[str]:
    """The lines of one hand: the deal, the calls and the tricks, then its sheet."""
    lines = [
        s(
            "replay_hand",
            number=number,
            dealer=_seat(hand.dealer, s),
            outcome=s(f"outcome_{result.outcome.name}"),
        )
    ]
    body = [s("replay_exposed", card=hand.exposed.pretty)]
    dealt = hand.contract is not None
    for seat in Seat:
        held = hand.full_hand(seat) if dealt else hand.hand(seat)
        label = "replay_dealt" if dealt else "replay_first_five"
        body.append(s(label, seat=_seat(seat, s), cards=_cards(held)))
    if bidding := hand.bidding():
        body.append(s("replay_bidding", calls=_calls(bidding, s, hand.round_two_start)))
    if doubling := hand.doubling():
        body.append(s("replay_doubling", calls=_calls(doubling, s)))
    declarations = [_declaration(a, s) for a in hand.actions if a.verb is Verb.DECLARE]
    if declarations:
        body.append(s("replay_declared", declarations=_list(declarations, s)))
    for trick_number, trick in enumerate(hand.tricks(), 1):
        body.append(_trick(trick_number, trick, s))
    body.extend(sheet_text(line, s) for line in explain(result, hand.rules))
    if result.outcome is Outcome.IN_PROGRESS and hand.to_act is not None:
        legal = _list([_action(a, s) for a in sorted(hand.legal_actions(), key=str)], s)
        body.append(s("replay_to_act", seat=_seat(hand.to_act, s), legal=legal))
    lines.extend("  " + line for line in body)
    return lines


def _cards(cards: CardSet) -> str:
    return " ".join(c.pretty for c in cards)


def _notation(s: Strings) -> bool:
    """True when the replay writes the record's notation (English), not words."""
    return s.lang == "en"


def _seat(seat: Seat, s: Strings) -> str:
    return seat.name if _notation(s) else s.seat(seat)


def _list(items: list[str], s: Strings) -> str:
    return (", " if _notation(s) else "، ").join(items)


def _action(action: Action, s: Strings, round2: bool = False) -> str:
    """An action as written in the record, or in words: ``شمال: بس``, ``جنوب 10♦``."""
    if _notation(s):
        return str(action)
    if action.verb is Verb.PLAY:
        return plain_play(action, s)
    return s("event_call", seat=s.seat(action.seat), call=call_label(action, s, round2=round2))


def plain_play(action: Action, s: Strings) -> str:
    """A play in words: its seat, its card and the words said with it."""
    assert action.card is not None
    said = [s("ekka")] * action.ekka + [s("baloot_word")] * action.baloot
    return " ".join([s.seat(action.seat), action.card.pretty, *said])


def _calls(actions: tuple[Action, ...], s: Strings, round_two: int | None = None) -> str:
    return _list(
        [
            _action(a, s, round2=round_two is not None and i >= round_two)
            for i, a in enumerate(actions)
        ],
        s,
    )


def _declaration(action: Action, s: Strings) -> str:
    if _notation(s):
        return f"{action.seat.name} {' '.join(str(c) for c in action.claims)}"
    return f"{s.seat(action.seat)} {claims_text(action, s)}"


def _trick(number: int, trick: Trick, s: Strings) -> str:
    words = {} if _notation(s) else {"ekka": s("ekka"), "baloot": s("baloot_word")}
    plays = _list(
        [
            " ".join([_seat(play.seat, s), card.pretty, *(words.get(w, w) for w in said.split())])
            for play, card, said in zip(trick.plays, trick.cards, trick.words, strict=True)
        ],
        s,
    )
    if trick.winner is None:
        return s("replay_trick_in_progress", number=number, plays=plays)
    winner = _seat(trick.winner, s)
    return s("replay_trick", number=number, plays=plays, winner=winner, points=trick.points)

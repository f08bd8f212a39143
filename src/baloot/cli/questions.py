"""What the terminal asks the human: the question, its numbered choices, and typed answers.

Everything here is built from the seat's :class:`~baloot.view.SeatView`: the choices are
exactly its legal actions (worded by :mod:`baloot.words.strings`), and whatever is typed instead
of a number is read into an action for the engine to judge. No rule is worked out here.

>>> read_card("10♦"), read_card("td")
(Card('Td'), Card('Td'))
>>> parse_card_answer(Seat.S, "Td ekka")
Action('S play Td ekka')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import assert_never

from rich.text import Text

from baloot.core.actions import Action, Verb, parse_after_seat
from baloot.core.cards import Card, Suit
from baloot.core.errors import NotationError
from baloot.core.seats import Seat
from baloot.core.vocabulary import Phase, QuestionKind
from baloot.view.seat_view import SeatView
from baloot.words.strings import Strings

from .render import SUIT_ORDER, call_label, card_text, claims_text, contract_text, hand_order


@dataclass(frozen=True)
class Choice:
    """One numbered answer to a question: what it says and the action it stands for (None:
    an answer that is no action, such as not declaring)."""

    label: Text
    action: Action | None
    words: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Prompt:
    """What the human is asked: its title, its choices, how its prompt reads, and how a
    typed answer that is not a number is read."""

    title: Text
    choices: tuple[Choice, ...]
    prompt_key: str
    hint_key: str
    parse: Callable[[str], Action | None]

    @property
    def card_numbers(self) -> dict[Card, int]:
        """The choice number of each card offered (to mark them in the hand)."""
        return {
            c.action.card: k
            for k, c in enumerate(self.choices, 1)
            if c.action is not None and c.action.card is not None and not c.action.ekka
        }


def call_question(view: SeatView, s: Strings) -> Prompt:
    """A bid, a Sun take-over, a trump naming or a doubling step."""
    seat = _seat(view)
    title, pass_key = call_context(view, s)
    round2 = view.phase is Phase.BIDDING_ROUND_2
    choices = []
    for action in sorted(view.legal, key=_call_order):
        label = s(pass_key) if action.verb is Verb.PASS else call_label(action, s, round2=round2)
        words = {label.casefold(), " ".join(str(action).split()[1:]).casefold()}
        if action.verb is Verb.PASS:
            words |= {s("call_pass").casefold(), "p"}
        if action.verb is Verb.SUN:
            words.add(s("call_sun").casefold())
        if action.suit is not None:
            words |= _suit_words(action.suit, s)
        choices.append(Choice(Text(label), action, frozenset(words)))
    return Prompt(
        Text(title, style="bold"),
        tuple(choices),
        "prompt_call",
        "hint_call",
        lambda text: _notation(seat, text),
    )


def call_context(view: SeatView, s: Strings) -> tuple[str, str]:
    """The question the human answers now, and how its ``pass`` reads.

    The wording follows the legal actions: a question never offers Sun when the rules leave
    only a pass.
    """
    question = view.question
    kind = question.kind if question is not None else QuestionKind.BID
    about = s.seat(question.about) if question is not None and question.about else ""
    exposed = view.exposed.pretty
    suit = s.suit_with_symbol(view.exposed.suit)
    offers_sun = any(a.verb is Verb.SUN for a in view.legal)
    match kind:
        case QuestionKind.BID:
            hokum_stands = question is not None and question.about is not None
            if view.phase is Phase.BIDDING_ROUND_2:
                if hokum_stands:
                    return s("ask_r2_hokum", seat=about), "call_pass"
                return s("ask_r2", suit=suit), "call_pass"
            if hokum_stands:
                key = "ask_r1_hokum" if offers_sun else "ask_r1_hokum_pass"
                return s(key, seat=about, suit=suit), "call_pass"
            return s("ask_r1", card=exposed, suit=suit), "call_pass"
        case QuestionKind.TAKE_OVER_SUN:
            return s("ask_takeover", seat=about), "pass_let_stand"
        case QuestionKind.TAKE_OVER_ASHKAL:
            return s("ask_takeover_ashkal", seat=about), "pass_let_stand"
        case QuestionKind.CONFIRM_HOKUM:
            return s("ask_confirm", suit=suit), "pass_keep_hokum"
        case QuestionKind.SUN_OVER_HOKUM:
            return s("ask_hokum_window", seat=about, suit=suit), "pass_let_stand"
        case QuestionKind.THIRD_ROUND:
            return s("ask_r3", card=exposed), "call_pass"
        case QuestionKind.NAME_TRUMP:
            return s("ask_naming", suit=suit), "call_pass"
        case QuestionKind.DOUBLE:
            contract = view.contract
            what = contract_text(contract, s).plain if contract else ""
            return s("ask_double", contract=what), "pass_no_double"
        case QuestionKind.TRIPLE | QuestionKind.FOUR | QuestionKind.GAHWA:
            return s(f"ask_{kind.value}", seat=about), "pass_no_raise"
        case QuestionKind.PLAY:
            raise ValueError("a card to play is not a call")
        case unknown:
            assert_never(unknown)


def declaration_question(view: SeatView, s: Strings) -> Prompt:
    """The human's projects, to declare (R10) or not."""
    seat = _seat(view)
    title = Text(s("ask_declare") + " ", style="bold")
    for k, project in enumerate(view.own_projects):
        if k:
            title.append(", ")
        title.append(s.project(project.kind) + " (")
        title.append_text(Text(" ").join(card_text(c) for c in project.cards))
        title.append(")")
    declares = [a for a in view.legal if a.verb is Verb.DECLARE]
    choices = [
        Choice(
            Text(s("declare_choice", projects=claims_text(a, s))),
            a,
            frozenset({claims_text(a, s).casefold(), " ".join(str(a).split()[1:])}),
        )
        for a in declares
    ]
    choices.append(Choice(Text(s("no_declaration")), None, frozenset({"no", "none", s("no_word")})))
    return Prompt(
        title, tuple(choices), "prompt_declare", "hint_call", lambda text: _notation(seat, text)
    )


def card_question(view: SeatView, s: Strings, seat_name: Callable[[Seat], str]) -> Prompt:
    """The human's card: every legal card, then the Ekka leads (none with one card left,
    where it changes nothing)."""
    seat = _seat(view)
    plays = [a for a in view.legal if a.verb is Verb.PLAY and not a.ekka]
    ekkas = [a for a in view.legal if a.verb is Verb.PLAY and a.ekka] if len(view.cards) > 1 else []
    by_card = {a.card: a for a in plays}
    order = hand_order([a.card for a in plays if a.card is not None], view.trump)
    choices = [Choice(card_text(card), by_card[card]) for card in order]
    for action in ekkas:
        assert action.card is not None
        label = card_text(action.card)
        label.append(" + " + s("ekka"), style="bold")
        choices.append(Choice(label, action))
    trick = view.current_trick
    if trick:
        leader, led = trick[0]
        title = Text(s("ask_follow", seat=seat_name(leader)) + " ")
        title.append_text(card_text(led))
    else:
        title = Text(s("ask_lead"))
    title.stylize("bold")
    return Prompt(
        title, tuple(choices), "prompt_card", "hint_card", lambda t: parse_card_answer(seat, t)
    )


def forced_single_card(view: SeatView) -> Action | None:
    """The one card the rules allow, when there is exactly one (Ekka aside), else None."""
    plays = [a for a in view.legal if a.verb is Verb.PLAY and not a.ekka]
    if len(plays) == 1 and all(a.verb is Verb.PLAY for a in view.legal):
        return plays[0]
    return None


def read_card(word: str) -> Card:
    """A typed card: ``Td``, ``10d``, ``T♦``, ``td``, ``10D``; raise NotationError if not one."""
    word = word.strip().removesuffix("\ufe0f")
    if len(word) < 2:
        raise NotationError(f"unknown card {word!r}")
    return Card.parse(word[:-1].upper() + word[-1])


def parse_card_answer(seat: Seat, text: str) -> Action | None:
    """What a typed answer to "your card" means: a card (optionally ``ekka``), or any action in
    record notation (``declare sira:QhJhTh``); None if it means nothing."""
    words = text.split()
    if words and words[0].casefold() == "play":
        words = words[1:]
    if not words:
        return None
    try:
        card = read_card(words[0])
    except NotationError:
        return _notation(seat, " ".join(words))
    extras = {w.casefold() for w in words[1:]}
    if not extras <= {"ekka", "baloot", "e"}:
        return None
    return Action(seat, Verb.PLAY, card=card, ekka=bool(extras & {"ekka", "e"}))


def _notation(seat: Seat, text: str) -> Action | None:
    """Record notation after the seat (``declare sira:QhJhTh``, ``double open``); verbs and
    words are case-insensitive, the cards of a project keep their case."""
    words = text.split()
    if not words:
        return None
    head = [w.casefold() for w in words[:1]]
    rest = [w if ":" in w else w.casefold() for w in words[1:]]
    try:
        return parse_after_seat(seat, head + rest, text)
    except NotationError:
        return None


def _seat(view: SeatView) -> Seat:
    if view.seat is None:
        raise ValueError("a question needs a seat's view")
    return view.seat


_CALL_RANK = {
    Verb.PASS: 0,
    Verb.HOKUM: 1,
    Verb.TRUMP: 1,
    Verb.DOUBLE: 1,
    Verb.TRIPLE: 1,
    Verb.FOUR: 1,
    Verb.GAHWA: 1,
    Verb.SUN: 2,
    Verb.ASHKAL: 3,
    Verb.KAWESH: 4,
}


def _call_order(action: Action) -> tuple[int, bool, int]:
    """Pass first, then the raise (open before locked, trumps by suit), Sun, Ashkal, Kawesh."""
    suit = SUIT_ORDER.index(action.suit) if action.suit is not None else 0
    return (_CALL_RANK.get(action.verb, 5), bool(action.locked), suit)


def _suit_words(suit: Suit, s: Strings) -> set[str]:
    english = ("spades", "hearts", "diamonds", "clubs")[suit]
    return {suit.letter, suit.symbol, english, s.suit(suit).casefold()}


def choose_answer(question: Prompt, answer: str) -> Choice | Action | None:
    """The choice a typed answer names, an action typed in notation, or None.

    A number picks a choice (1 to 999 only: ``²`` or a 5,000-digit number are no choice);
    a choice's words pick it; anything else is read as notation.
    """
    if answer.isascii() and answer.isdigit() and len(answer) <= 3:
        k = int(answer)
        return question.choices[k - 1] if 1 <= k <= len(question.choices) else None
    key = answer.casefold()
    for choice in question.choices:
        if key and key in choice.words:
            return choice
    return question.parse(answer) if answer else None

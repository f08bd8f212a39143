"""Actions: every decision of a hand as a frozen value with a record notation that round-trips.

>>> a = Action.parse("S play A♣ ekka")
>>> a
Action('S play Ac ekka')
>>> a.seat, a.verb, a.card
(<Seat.S: 2>, <Verb.PLAY: 'play'>, Card('Ac'))
>>> str(Action.parse("W double locked")), str(Action.parse("N declare sira:QhJh10h"))
('W double locked', 'N declare sira:QhJhTh')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Final

from baloot.core.cards import Card, CardSet, Suit
from baloot.core.errors import NotationError
from baloot.core.projects import ProjectKind
from baloot.core.seats import Seat


class Verb(Enum):
    """The words of the record notation, by phase (``docs/records.md``)."""

    PASS = "pass"
    HOKUM = "hokum"
    SUN = "sun"
    ASHKAL = "ashkal"
    KAWESH = "kawesh"
    TRUMP = "trump"
    DOUBLE = "double"
    TRIPLE = "triple"
    FOUR = "four"
    GAHWA = "gahwa"
    PLAY = "play"
    DECLARE = "declare"


_VERB_BY_WORD: Final = {v.value: v for v in Verb}
_BARE_VERBS: Final = frozenset(
    {Verb.PASS, Verb.HOKUM, Verb.SUN, Verb.ASHKAL, Verb.KAWESH, Verb.TRIPLE, Verb.GAHWA}
)
_CARD_RUN: Final = re.compile(r"(10|[AKQJT987])([shdcSHDC♠♥♦♣])\ufe0f?")


@dataclass(frozen=True, slots=True)
class Claim:
    """One declared project: its kind, and optionally the exact cards (``sira:QhJhTh``)."""

    kind: ProjectKind
    cards: CardSet | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.kind, ProjectKind):
            raise _wrong_type("a claim's kind", "a ProjectKind", self.kind)
        if self.cards is not None and not isinstance(self.cards, CardSet):
            raise _wrong_type("a claim's cards", "a CardSet or None", self.cards)

    def __str__(self) -> str:
        if self.cards is None:
            return self.kind.word
        return self.kind.word + ":" + "".join(c.text for c in self.cards)

    @classmethod
    def parse(cls, text: str) -> Claim:
        """Read ``sira`` or ``sira:QhJhTh``."""
        word, colon, cards_text = text.partition(":")
        kind = ProjectKind.parse(word)
        if not colon:
            return cls(kind)
        mask = 0
        position = 0
        while position < len(cards_text):
            found = _CARD_RUN.match(cards_text, position)
            if found is None:
                raise NotationError(f"bad cards in project {text!r}")
            bit = 1 << Card.parse(found.group(0)).index
            if mask & bit:
                raise NotationError(f"card repeated in project {text!r}")
            mask |= bit
            position = found.end()
        if not mask:
            raise NotationError(f"no cards in project {text!r}")
        return cls(kind, CardSet(mask))


@dataclass(frozen=True, slots=True)
class Action:
    """One decision by one seat.

    ``locked`` is set for a Hokum ``double``/``four`` (True = locked, False = open) and None
    otherwise; ``ekka`` and ``baloot`` only go with ``play``; ``claims`` only with ``declare``.
    Any other combination is a :class:`NotationError`; a field of the wrong type (a seat
    that is not a :class:`Seat`, a verb that is not a :class:`Verb`…) is a TypeError.

    >>> Action(Seat.N, Verb.PLAY)
    Traceback (most recent call last):
    ...
    baloot.NotationError: play needs card
    >>> Action("N", Verb.PASS)
    Traceback (most recent call last):
    ...
    TypeError: an action's seat must be a Seat, not str 'N'
    """

    seat: Seat
    verb: Verb
    card: Card | None = None
    suit: Suit | None = None
    locked: bool | None = None
    ekka: bool = False
    baloot: bool = False
    claims: tuple[Claim, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.seat, Seat):
            raise _wrong_type("an action's seat", "a Seat", self.seat)
        verb = self.verb
        if not isinstance(verb, Verb):
            raise _wrong_type("an action's verb", "a Verb", verb)
        if self.card is not None and not isinstance(self.card, Card):
            raise _wrong_type("an action's card", "a Card or None", self.card)
        if self.suit is not None and not isinstance(self.suit, Suit):
            raise _wrong_type("an action's suit", "a Suit or None", self.suit)
        claims = self.claims
        if not isinstance(claims, tuple):
            raise _wrong_type("an action's claims", "a tuple of Claim", claims)
        for claim in claims:
            if not isinstance(claim, Claim):
                raise _wrong_type("an action's claims", "a tuple of Claim", claims)
        for needed, present, what in (
            (verb is Verb.PLAY, self.card is not None, "card"),
            (verb is Verb.TRUMP, self.suit is not None, "suit"),
            (verb is Verb.DECLARE, bool(self.claims), "project"),
        ):
            if needed != present:
                raise NotationError(f"{verb.value} {'needs' if needed else 'takes no'} {what}")
        if (self.ekka or self.baloot) and verb is not Verb.PLAY:
            raise NotationError("ekka and baloot go only with play")
        if self.locked is not None and verb not in (Verb.DOUBLE, Verb.FOUR):
            raise NotationError(f"{verb.value} is neither open nor locked")

    def __str__(self) -> str:
        verb = self.verb
        text = f"{self.seat.name} {verb.value}"
        if self.card is not None:
            text += " " + self.card.text
            if self.ekka:
                text += " ekka"
            if self.baloot:
                text += " baloot"
        elif self.suit is not None:
            text += " " + self.suit.letter
        elif verb is Verb.DECLARE:
            text += "".join(" " + str(c) for c in self.claims)
        elif self.locked is not None:
            text += " locked" if self.locked else " open"
        return text

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read one action in record notation; a ``#`` starts a comment.

        >>> Action.parse("N trump H  # hearts")
        Action('N trump h')
        >>> Action.parse("N play")
        Traceback (most recent call last):
        ...
        baloot.NotationError: "N play": play needs a card
        """
        words = action_words(text)
        return parse_after_seat(Seat.parse(words[0]), words[1:], text)


def without_comment(text: str) -> str:
    """An action's text with its ``#`` comment and the spaces around it left out.

    The one place of the record's comment rule: an entry that is nothing but a comment (or
    blank) is no action, and keeps its place in the record's numbering.

    >>> without_comment("N trump h  # hearts"), without_comment("  # a note")
    ('N trump h', '')
    """
    return text.split("#", 1)[0].strip()


def action_words(text: str) -> list[str]:
    """The words of an action's text, a ``#`` comment left out; a NotationError if none."""
    words = without_comment(text).split()
    if not words:
        raise NotationError("empty action")
    return words


def _wrong_type(what: str, expected: str, value: object) -> TypeError:
    """The one-line error of a field given a value of the wrong type."""
    return TypeError(f"{what} must be {expected}, not {type(value).__name__} {value!r}")


def parse_after_seat(seat: Seat, words: list[str], text: str) -> Action:
    """Read the verb and its arguments of an action whose seat is already read."""
    if not words:
        raise NotationError(f'"{text}": no verb after the seat')
    verb = _VERB_BY_WORD.get(words[0])
    if verb is None:
        raise NotationError(f'"{text}": unknown verb {words[0]!r}')
    args = words[1:]
    if verb in _BARE_VERBS:
        if args:
            raise NotationError(f'"{text}": {verb.value} takes no arguments')
        return Action(seat, verb)
    if verb is Verb.TRUMP:
        if len(args) != 1:
            raise NotationError(f'"{text}": trump needs one suit')
        return Action(seat, verb, suit=Suit.parse(args[0]))
    if verb in (Verb.DOUBLE, Verb.FOUR):
        if not args:
            if verb is Verb.FOUR:
                raise NotationError(f'"{text}": four needs open or locked')
            return Action(seat, verb)
        if len(args) != 1 or args[0] not in ("open", "locked"):
            raise NotationError(f'"{text}": {verb.value} takes open or locked')
        return Action(seat, verb, locked=args[0] == "locked")
    if verb is Verb.PLAY:
        if not args:
            raise NotationError(f'"{text}": play needs a card')
        card = Card.parse(args[0])
        extras = args[1:]
        if len(set(extras)) != len(extras) or not set(extras) <= {"ekka", "baloot"}:
            raise NotationError(f'"{text}": after the card only ekka and baloot may follow')
        return Action(seat, verb, card=card, ekka="ekka" in extras, baloot="baloot" in extras)
    if not args:
        raise NotationError(f'"{text}": declare needs a project')
    return Action(seat, verb, claims=tuple(Claim.parse(a) for a in args))

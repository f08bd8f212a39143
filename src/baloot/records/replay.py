"""Replaying a record: every hand rebuilt through the engine, and its summary (#35–#45).

>>> from baloot.records.record import loads
>>> rec = loads('''format = "baloot/1"
... dealer = "E"
... deck = "9c 8d Th 9h Jc 8s Qs Js As 7d 8h Td Kc Qh Kd 7s Qd Qc Ks Jh Jd Ad Kh Ah Ts Ac 9s 7c 8c Tc 9d 7h"
... actions = ["N pass", "W pass", "S hokum", "E pass", "N pass", "W pass", "S pass"]''')
>>> summary = replay(rec).to_json()
>>> summary["hands"][0]["to_act"], summary["hands"][0]["legal"]
('W', ['W double locked', 'W double open', 'W pass'])
>>> rec.hands[0].actions.append("W play Kh")
>>> replay(rec)
Traceback (most recent call last):
...
baloot.ReplayError: hand 1: action 8 "W play Kh": W may not play a card before the play begins
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from baloot.core.actions import Action, without_comment
from baloot.core.errors import IllegalActionError, NotationError, RecordError
from baloot.core.hand import Hand
from baloot.core.match import Match
from baloot.core.reasons import ReasonCode
from baloot.core.scoring import HandResult
from baloot.core.seats import Team
from baloot.records.record import NO_HANDS, HandRecord, Record
from baloot.records.summary import hand_json, teams_json


class ReplayError(IllegalActionError):
    """An illegal action in a record, located by its hand and its 1-based position (#40).

    Text that is not an action at all is an illegal action of a record too (#39), with the
    code ``bad_notation``.
    """

    def __init__(
        self,
        hand: int,
        position: int,
        text: str,
        reason: str,
        code: ReasonCode | None = None,
        params: dict[str, str] | None = None,
    ) -> None:
        super().__init__(reason, text, code=code, params=params)
        self.hand = hand
        self.position = position
        self.text = text
        self.args = (f'hand {hand}: action {position} "{text}": {reason}',)

    def __str__(self) -> str:
        return str(self.args[0])

    def to_json(self) -> dict[str, object]:
        """The ``error`` object of ``baloot replay --json``."""
        return {
            "error": {
                "hand": self.hand,
                "action": self.position,
                "text": self.text,
                "reason": self.reason,
            }
        }


ReplayError.__module__ = "baloot"


@dataclass
class Replay:
    """The hands of a record as replayed, with the match totals and winner."""

    record: Record
    match: Match

    @property
    def hands(self) -> list[Hand]:
        """Every hand of the record, rebuilt."""
        return self.match.hands

    @property
    def results(self) -> list[HandResult]:
        """Each hand's result (the last one may be in progress)."""
        return [hand.result() for hand in self.match.hands]

    @property
    def totals(self) -> tuple[int, int]:
        """The match totals after the hands, ``score_before`` included."""
        return self.match.totals

    @property
    def winner(self) -> Team | None:
        """The team that won the match (R13), or None."""
        return self.match.winner

    def positions(self, number: int | None = None) -> Iterator[tuple[int, int, Hand, Action]]:
        """Each action of the record once, in order, as (hand number, its position in the
        record, a copy of the hand before it, the action); of hand ``number`` alone if given.

        Positions count the hand's entries in the record from 1, as :class:`ReplayError`
        does: a comment-only entry is no action but keeps its place.

        >>> from baloot.records.record import loads
        >>> from baloot.core.cards import CARDS
        >>> rec = loads('format = "baloot/1"\\ndealer = "E"\\ndeck = "%s"\\n'
        ...             'actions = ["N pass", "# W thinks", "W sun"]'
        ...             % " ".join(c.text for c in CARDS))
        >>> [(n, k, before.to_act, str(a)) for n, k, before, a in replay(rec).positions()]
        [(1, 1, <Seat.N: 0>, 'N pass'), (1, 3, <Seat.W: 1>, 'W sun')]
        """
        numbers = range(1, len(self.hands) + 1) if number is None else (number,)
        for n in numbers:
            played = self.hands[n - 1]
            before = Hand(played.deck, played.dealer, played.rules, played.score_before)
            places = (k for k, _ in _applied(self.record.hands[n - 1]))
            for position, action in zip(places, played.actions, strict=True):
                yield n, position, before.copy(), action
                before.apply(action)

    def to_json(self) -> dict[str, object]:
        """What ``baloot replay --json`` prints for a record that replays cleanly."""
        hands = []
        for hand, result in zip(self.hands, self.results, strict=True):
            entry = hand_json(result)
            if not hand.is_over:
                seat = hand.to_act
                entry["to_act"] = None if seat is None else seat.name
                entry["legal"] = sorted(str(a) for a in hand.legal_actions())
            hands.append(entry)
        return {
            "hands": hands,
            "totals": teams_json(self.totals),
            "winner": None if self.winner is None else self.winner.name,
        }


def replay(record: Record) -> Replay:
    """Replay every hand of ``record`` through a :class:`Match`.

    Raises :class:`ReplayError` for an illegal action (the hands after it are not replayed)
    and :class:`RecordError` for a record that cannot be a real one: a hand after the match
    was won or after a hand still in progress, a wrong dealer, a decided ``score_before``,
    no hand at all (a :class:`Record` built by hand: ``loads`` refuses an empty one).
    """
    if not record.hands:
        raise RecordError(NO_HANDS)
    match = Match(record.rules, record.hands[0].dealer, None, record.score_before or (0, 0))
    if match.is_over:
        raise RecordError("score_before has already decided the match")
    for number, entry in enumerate(record.hands, 1):
        if match.hands:
            previous = match.hand
            if not previous.is_over:
                raise RecordError(f"hand {number} follows a hand that is not over")
            if match.is_over:
                raise RecordError(f"hand {number} comes after the match was won")
            if entry.dealer != previous.next_dealer:
                raise RecordError(
                    f"hand {number}: {previous.next_dealer.name} deals this hand, "
                    f"not {entry.dealer.name}"
                )
        match.deal(entry.deck, entry.dealer)
        for position, text in _applied(entry):
            try:
                match.apply(text)
            except NotationError as error:
                reason = str(error).removeprefix(f'"{text}": ')
                raise ReplayError(
                    number, position, text, reason, ReasonCode.BAD_NOTATION, {"message": reason}
                ) from None
            except IllegalActionError as error:
                raise ReplayError(
                    number, position, text, error.reason, error.code, error.params
                ) from None
    return Replay(record, match)


def _applied(entry: HandRecord) -> list[tuple[int, str]]:
    """The entries of a hand that are actions, with their 1-based places in the record."""
    return [(k, text) for k, text in enumerate(entry.actions, 1) if without_comment(text)]

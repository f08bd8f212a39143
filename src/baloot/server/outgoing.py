"""The server's messages of the table protocol ``baloot-table/1`` (``docs/table-protocol.md``): each
a small frozen value that encodes itself once (:class:`Sent`, the text every connection of
its audience gets), and the views they carry.

>>> Ack("c7").sent().text
'{"type": "ack", "id": "c7"}'
>>> Reject(None, RejectCode.BAD_JSON, "the message is not JSON").sent().text
'{"type": "reject", "id": null, "code": "bad_json", "reason": "the message is not JSON"}'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from baloot.bots.heuristic import Hint
from baloot.core.actions import Action, Verb
from baloot.core.errors import IllegalActionError
from baloot.core.hand import Hand
from baloot.core.reasons import ReasonCode
from baloot.core.seats import Seat
from baloot.core.vocabulary import Phase, TrickWord
from baloot.server.messages import Message, MessageType, Refused, RejectCode
from baloot.server.talk import Line
from baloot.table.table import Event
from baloot.view.seat_view import SeatView


class Sent(dict[str, Any]):
    """A server message as it goes out: its fields, which may not change, and its JSON text,
    encoded once for every connection that gets it (and kept so for ``resync``).

    >>> sent = Sent({"type": "said", "text": "يلا"})
    >>> sent.text, sent["type"], sent == {"type": "said", "text": "يلا"}
    ('{"type": "said", "text": "يلا"}', 'said', True)
    >>> sent["type"] = "event"
    Traceback (most recent call last):
    TypeError: a message sent does not change
    """

    __slots__ = ("text",)

    def __init__(self, fields: Mapping[str, Any]) -> None:
        super().__init__(fields)
        self.text: str = json.dumps(self, ensure_ascii=False)

    def _unchanged(self, *_: object, **__: object) -> Any:
        raise TypeError("a message sent does not change")

    __setitem__ = __delitem__ = __ior__ = _unchanged
    clear = pop = popitem = setdefault = update = _unchanged


@dataclass(frozen=True, slots=True)
class Ack:
    """The client message ``id`` is applied (or was already: it is applied once)."""

    id: str

    def sent(self) -> Sent:
        """As it goes out."""
        return Sent({"type": MessageType.ACK.value, "id": self.id})


@dataclass(frozen=True, slots=True)
class Reject:
    """The client message ``id`` is refused and nothing changed: the protocol's ``code`` or
    the engine's, a one-line ``reason``, and the engine's ``params`` so that a page words the
    reason itself."""

    id: str | None
    code: ReasonCode | RejectCode
    reason: str
    params: Mapping[str, str] | None = None

    @classmethod
    def of(cls, refused: Refused) -> Reject:
        """The ``reject`` answering ``refused``."""
        return cls(refused.id, refused.code, refused.reason, refused.params)

    def sent(self) -> Sent:
        """As it goes out."""
        message: Message = {
            "type": MessageType.REJECT.value,
            "id": self.id,
            "code": self.code,
            "reason": self.reason,
        }
        if self.params is not None:
            message["params"] = dict(self.params)
        return Sent(message)


@dataclass(frozen=True, slots=True)
class Pong:
    """The answer to a ``ping``: the server's clock, ``now`` in milliseconds since the epoch."""

    now: int

    def sent(self) -> Sent:
        """As it goes out."""
        return Sent({"type": MessageType.PONG.value, "now": self.now})


@dataclass(frozen=True, slots=True)
class HintGiven:
    """The ``hint`` answering the client message ``id``: an action and why."""

    id: str
    hint: Hint

    def sent(self) -> Sent:
        """As it goes out."""
        return Sent({"type": MessageType.HINT.value, "id": self.id, **self.hint.to_json()})


@dataclass(frozen=True, slots=True)
class Said:
    """A line of table talk, numbered like an event."""

    line: Line

    def fields(self) -> Message:
        """Its fields, the same for every audience."""
        return {"type": MessageType.SAID.value, **self.line.to_json()}


@dataclass(frozen=True, slots=True)
class SeatTold:
    """Who plays ``seat`` now (``player``) and whether it is ``connected``, numbered ``v``,
    with the table's ``deadline``."""

    v: int
    seat: Seat
    player: str
    connected: bool
    deadline: Message | None

    def fields(self) -> Message:
        """Its fields, the same for every audience."""
        return {
            "type": MessageType.SEAT.value,
            "v": self.v,
            "seat": self.seat.name,
            "player": self.player,
            "connected": self.connected,
            "deadline": self.deadline,
        }


@dataclass(frozen=True, slots=True)
class Snapshot:
    """All an audience may see at ``v``: its ``view`` (None before the first deal), the
    ``match``, the ``seats``, the table's ``deadline``, the server's clock ``now`` and the
    ``talk`` kept."""

    v: int
    view: Message | None
    match: Message
    seats: Message
    deadline: Message | None
    now: int
    talk: list[Message]

    def sent(self) -> Sent:
        """As it goes out."""
        return Sent(
            {
                "type": MessageType.SNAPSHOT.value,
                "v": self.v,
                "view": self.view,
                "match": self.match,
                "seats": self.seats,
                "deadline": self.deadline,
                "now": self.now,
                "talk": self.talk,
            }
        )


def table_view(view: SeatView, hand: Hand) -> Message:
    """``view`` of ``hand`` as the table protocol sends it: the ``baloot-view/1`` object and
    its ``choices``, the legal actions in the order of ``legal``, each in its parts, so that a
    page never splits notation (``docs/seat-view.md``); ``refused``, why each card of the hand
    may not be played now, and ``claim``, whether a claim (Sawa) would be accepted now, so
    that a page says and offers what the engine decides (§4). A bot's view has none of them.

    >>> import random
    >>> from baloot.core.hand import Hand
    >>> hand = Hand.new(rng=random.Random(2))
    >>> view = table_view(SeatView.of(hand, hand.to_act), hand)
    >>> view["legal"]
    ['N hokum', 'N pass', 'N sun']
    >>> view["choices"][1]
    {'action': 'N pass', 'verb': 'pass', 'card': None, 'words': []}
    >>> view["refused"], view["claim"]
    ({}, False)
    >>> from baloot.core.cards import CARDS
    >>> hand = Hand.from_deck(" ".join(card.text for card in CARDS), dealer="E")
    >>> for action in ("N sun", "N play As"):
    ...     _ = hand.apply(action)
    >>> table_view(SeatView.of(hand, hand.to_act), hand)["refused"]["8h"]
    {'code': 'must_follow', 'params': {'seat': 'W', 'suit': 'spades'}}
    """
    return view.to_json() | {
        "choices": [_choice(action) for action in view.legal_in_order],
        "refused": _refused(view, hand),
        "claim": view.claim_holds,
    }


def _refused(view: SeatView, hand: Hand) -> Message:
    """Each card of the seat's hand it may not play now, with the engine's reason (the code
    and its parameters), by card: empty unless the seat is to play."""
    seat = view.seat
    if seat is None or view.to_act != seat or view.phase is not Phase.PLAYING:
        return {}
    playable = {action.card for action in view.legal}
    refused: Message = {}
    for card in view.cards:
        if card in playable:
            continue
        try:
            hand.check(Action(seat, Verb.PLAY, card=card))
        except IllegalActionError as error:
            assert error.code is not None  # every rule of the play names its code
            refused[card.text] = {"code": error.code.value, "params": dict(error.params)}
    return refused


def _choice(action: Action) -> Message:
    """One legal action in its parts: its text, its verb, its card and the words said with it
    (Ekka, Baloot), in the order the record notation writes them."""
    said = ((TrickWord.EKKA, action.ekka), (TrickWord.BALOOT, action.baloot))
    return {
        "action": str(action),
        "verb": action.verb.value,
        "card": None if action.card is None else action.card.text,
        "words": [word.value for word, spoken in said if spoken],
    }


def event_message(hand: Hand, event: Event) -> Callable[[Seat | None], Message]:
    """The ``event`` message of an action, in each audience's version (``hand`` is the hand
    just after it)."""

    def build(audience: Seat | None) -> Message:
        return {
            "type": MessageType.EVENT.value,
            "v": event.v,
            "action": str(event.heard_by(audience)),
            "view": table_view(SeatView.of(hand, audience), hand),
        }

    return build


def view_message(
    kind: MessageType, v: int, hand: Hand, extra: Mapping[str, Any]
) -> Callable[[Seat | None], Message]:
    """The message ``kind`` numbered ``v`` (a ``hand-over``, a ``deal``) that gives the view of
    ``hand``, in each audience's version, with ``extra`` after it."""

    def build(audience: Seat | None) -> Message:
        return {
            "type": kind.value,
            "v": v,
            "view": table_view(SeatView.of(hand, audience), hand),
            **extra,
        }

    return build

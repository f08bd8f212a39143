"""The messages of the table protocol ``baloot-table/1`` (``docs/table-protocol.md``): a client's
read and checked, the server's built.

A client message is a JSON object of at most :data:`MAX_MESSAGE` bytes with a string
``type``; :func:`parse` reads it once into one small frozen value of :data:`ClientMessage`
(as lila-ws reads its ``ClientOut``), and anything else is :class:`Refused` with the
protocol's code, answered by a ``reject``.
Text that could not be stored or sent back (:func:`storable`) is refused as the message is
read, before anything is applied: a reply that quotes it could not be encoded, and a step that
holds it could not be written.

>>> parse('{"type": "act", "id": "c7", "action": "S play Jd"}')
Act(id='c7', action='S play Jd', parsed=Action('S play Jd'))
>>> parse('{"type": "resync", "since": 12}'), parse('{"type": "hint", "id": "h1"}')
(Resync(since=12), AskHint(id='h1'))
>>> parse('{"type": "say", "id": "m4", "text": "well played"}')
Say(id='m4', text='well played')
>>> parse('{"type": "entropy", "id": "e1", "hand": 1, "entropy": "9f"}')
GiveEntropy(id='e1', hand=1, entropy=b'\\x9f')
>>> from baloot.server.outgoing import Reject
>>> try:
...     parse("[1, 2]")
... except Refused as refused:
...     Reject.of(refused).sent().text
'{"type": "reject", "id": null, "code": "bad_message", "reason": "a message is a JSON object"}'
>>> try:
...     parse('{"type": "act", "id": "\\ud800", "action": "S pass"}')
... except Refused as refused:
...     refused.code, refused.id
(<RejectCode.BAD_MESSAGE: 'bad_message'>, None)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from baloot.core.actions import Action
from baloot.core.errors import IllegalActionError, NotationError
from baloot.core.reasons import ReasonCode
from baloot.records.fair import FairError, read_entropy
from baloot.server.talk import said_text

#: The largest client message, in bytes of UTF-8 (``too_large`` beyond).
MAX_MESSAGE: Final = 64 * 1024
#: The longest ``id`` of a client message.
MAX_ID: Final = 64

Message = dict[str, Any]


class MessageType(StrEnum):
    """The ``type`` of every message of the protocol, a client's and the server's (``hint``
    is both: the question and its answer)."""

    ACT = "act"
    RESYNC = "resync"
    NEXT = "next"
    PING = "ping"
    UNDO = "undo"
    HINT = "hint"
    CLAIM = "claim"
    SAY = "say"
    ENTROPY = "entropy"
    ACK = "ack"
    REJECT = "reject"
    PONG = "pong"
    SNAPSHOT = "snapshot"
    EVENT = "event"
    HAND_OVER = "hand-over"
    DEAL = "deal"
    SEAT = "seat"
    SAID = "said"


#: The types a client may send.
CLIENT_TYPES: Final = frozenset(
    {
        MessageType.ACT,
        MessageType.RESYNC,
        MessageType.NEXT,
        MessageType.PING,
        MessageType.UNDO,
        MessageType.HINT,
        MessageType.CLAIM,
        MessageType.SAY,
        MessageType.ENTROPY,
    }
)


@dataclass(frozen=True, slots=True)
class Act:
    """An action for the connection's seat, in record notation, under a client ``id``.

    ``parsed`` is the action read once, as the message is: None for text that is no action,
    or not written as the engine writes it (extra spaces, a comment). The table is given the
    action, checked once and not read again; the text it is not given as such goes to the
    engine as it was sent, which refuses it in its order (the seat named, then the turn, then
    the notation) and quotes it as it was sent. Either way, a refusal is the same bytes.

    >>> parse('{"type": "act", "id": "c8", "action": "S  play Jd"}').parsed is None
    True
    """

    id: str
    action: str
    parsed: Action | None = None


@dataclass(frozen=True, slots=True)
class Resync:
    """The numbered messages after ``since``, again."""

    since: int


@dataclass(frozen=True, slots=True)
class Ping:
    """A ``pong``, please."""


@dataclass(frozen=True, slots=True)
class Next:
    """The seat is ready for the next hand, and adds its ``entropy`` to that hand's deal (at a
    table with fair deals; ``docs/table-protocol.md``).

    >>> parse('{"type": "next", "id": "n3", "entropy": "9f"}')
    Next(id='n3', entropy=b'\\x9f')
    """

    id: str
    entropy: bytes | None = None


@dataclass(frozen=True, slots=True)
class GiveEntropy:
    """The seat's entropy for the deal of hand ``hand``, whose commitment it has seen (at a
    table with fair deals; ``docs/table-protocol.md``)."""

    id: str
    hand: int
    entropy: bytes


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the seat's last decision (a table with one human)."""

    id: str


@dataclass(frozen=True, slots=True)
class AskHint:
    """What would the table's best bot do now?"""

    id: str


@dataclass(frozen=True, slots=True)
class Claim:
    """Sawa: the seat claims every remaining trick."""

    id: str


@dataclass(frozen=True, slots=True)
class Say:
    """A line of table talk from the seat, checked and NFC-normalised
    (:mod:`~baloot.server.talk`)."""

    id: str
    text: str


#: A client message, read.
ClientMessage = Act | Resync | Ping | Next | GiveEntropy | Undo | AskHint | Claim | Say
#: The messages of one ``id`` and nothing else, by type.
_WITH_ID: Final[dict[MessageType, type[Undo | AskHint | Claim]]] = {
    MessageType.UNDO: Undo,
    MessageType.HINT: AskHint,
    MessageType.CLAIM: Claim,
}


class RejectCode(StrEnum):
    """The codes of a ``reject`` that are the protocol's own; the others are the engine's
    :class:`~baloot.core.reasons.ReasonCode` of an illegal action (``docs/table-protocol.md``)."""

    SPECTATOR = "spectator"
    BAD_MESSAGE = "bad_message"
    BAD_JSON = "bad_json"
    UNKNOWN_TYPE = "unknown_type"
    TOO_LARGE = "too_large"
    RATE_LIMITED = "rate_limited"
    NOT_NOW = "not_now"
    """An ``entropy`` for a hand already dealt, not yet committed to, or given twice."""


def thinks(message: ClientMessage) -> bool:
    """True when answering ``message`` may ask a bot to search (a hint; a claim, whose
    remaining cards the bots play): a server answers it away from its event loop."""
    return isinstance(message, AskHint | Claim)


class Refused(Exception):
    """A client message answered with ``reject``; nothing changed."""

    def __init__(
        self,
        id_: str | None,
        code: ReasonCode | RejectCode,
        reason: str,
        params: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(reason)
        self.id = id_
        self.code = code
        self.reason = reason
        self.params = params

    @classmethod
    def illegal(cls, id_: str, error: IllegalActionError) -> Refused:
        """The refusal of an action the engine does not allow, under the rule it names.

        Every refusal of the engine names its rule (``docs/table-protocol.md`` lists no code for
        one that does not): one without is a fault of the server, not of the client.
        """
        assert error.code is not None, f"an engine refusal names no rule: {error.reason}"
        return cls(id_, error.code, error.reason, dict(error.params))


def parse(text: str) -> ClientMessage:
    """A client message, read and checked (else a :class:`Refused`)."""
    message = _read(text)
    kind = message["type"]
    if kind not in CLIENT_TYPES:
        raise Refused(id_of(message), RejectCode.UNKNOWN_TYPE, f"unknown message type {kind!r}")
    match MessageType(kind):
        case MessageType.PING:
            return Ping()
        case MessageType.RESYNC:
            since = message.get("since")
            if not isinstance(since, int) or isinstance(since, bool):
                raise Refused(
                    id_of(message), RejectCode.BAD_MESSAGE, "a resync needs since, an integer"
                )
            return Resync(since)
        case MessageType.ACT:
            id_ = _required_id(message)
            action = message.get("action")
            if not isinstance(action, str):
                raise Refused(id_, RejectCode.BAD_MESSAGE, "an act needs an action")
            return Act(id_, action, _as_written(action))
        case MessageType.NEXT:
            id_ = _required_id(message)
            if "entropy" not in message:
                return Next(id_)
            try:
                return Next(id_, read_entropy(message["entropy"]))
            except FairError as error:
                raise Refused(id_, RejectCode.BAD_MESSAGE, f"a next's {error}") from None
        case MessageType.ENTROPY:
            return _entropy(message)
        case MessageType.SAY:
            id_ = _required_id(message)
            said = message.get("text")
            if not isinstance(said, str):
                raise Refused(id_, RejectCode.BAD_MESSAGE, "a say needs a text")
            try:
                return Say(id_, said_text(said))
            except ValueError as error:
                raise Refused(id_, RejectCode.BAD_MESSAGE, str(error)) from None
        case MessageType.UNDO | MessageType.HINT | MessageType.CLAIM as with_id:
            return _WITH_ID[with_id](_required_id(message))
        case _:
            raise AssertionError(f"{kind} is no client message")


def _as_written(text: str) -> Action | None:
    """The action ``text`` is, when it is written as the engine writes it; None otherwise (a
    refusal of it, or of its turn, quotes the text: the engine reads the text for that)."""
    try:
        action = Action.parse(text)
    except NotationError:
        return None
    return action if str(action) == text else None


def _entropy(message: Message) -> GiveEntropy:
    """An ``entropy`` message, checked: an id, a hand's number, 1 to 64 bytes as hex."""
    id_ = _required_id(message)
    hand = message.get("hand")
    if not isinstance(hand, int) or isinstance(hand, bool) or hand < 1:
        raise Refused(id_, RejectCode.BAD_MESSAGE, "an entropy needs hand, a number from 1")
    try:
        return GiveEntropy(id_, hand, read_entropy(message.get("entropy")))
    except FairError as error:
        raise Refused(id_, RejectCode.BAD_MESSAGE, f"an entropy's {error}") from None


def _read(text: str) -> Message:
    """A JSON object with a string ``type`` and only text that can be kept."""
    if len(text) > MAX_MESSAGE or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise Refused(None, RejectCode.TOO_LARGE, f"a message may hold at most {MAX_MESSAGE} bytes")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused(None, RejectCode.BAD_JSON, "the message is not JSON") from None
    if not isinstance(message, dict):
        raise Refused(None, RejectCode.BAD_MESSAGE, "a message is a JSON object")
    if not storable(message):
        id_ = id_of(message)
        raise Refused(
            id_ if id_ is not None and storable(id_) else None,
            RejectCode.BAD_MESSAGE,
            "the message holds text that cannot be kept (a lone surrogate or a NUL character)",
        )
    if not isinstance(message.get("type"), str):
        raise Refused(id_of(message), RejectCode.BAD_MESSAGE, "a message needs a type")
    return message


def storable(value: object) -> bool:
    """True unless ``value`` (JSON as read) holds text that UTF-8 cannot encode (a lone
    surrogate, which a JSON escape may carry) or a NUL (which PostgreSQL's text refuses),
    in a key or a value, at any depth.

    >>> storable({"id": "c1", "names": ["سعد"]}), storable(["ok", {"k\\x00": 1}])
    (True, False)
    """
    unread = [value]
    while unread:  # a loop, not recursion: JSON may nest as deep as the parser allows
        item = unread.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return False
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(item, dict):
            unread += item.keys()
            unread += item.values()
        elif isinstance(item, list):
            unread += item
    return True


def id_of(message: Message) -> str | None:
    """The message's ``id`` when it is a string of 1–64 characters, else None."""
    id_ = message.get("id")
    return id_ if isinstance(id_, str) and 1 <= len(id_) <= MAX_ID else None


def _required_id(message: Message) -> str:
    id_ = id_of(message)
    if id_ is None:
        raise Refused(
            None, RejectCode.BAD_MESSAGE, f"a {message['type']} needs an id of 1–64 characters"
        )
    return id_

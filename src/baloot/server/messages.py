"""The messages of the table protocol ``baloot-table/1`` (``seat-view.md`` §4): a client's
read and checked, the server's built.

A client message is a JSON object of at most :data:`MAX_MESSAGE` bytes with a string
``type``; anything else is :class:`Refused` with the protocol's code, answered by a ``reject``.
Text that could not be stored or sent back (:func:`storable`) is refused as the message is
read, before anything is applied: a reply that quotes it could not be encoded, and a step that
holds it could not be written.

>>> parse('{"type": "act", "id": "c7", "action": "S play Jd"}')["action"]
'S play Jd'
>>> try:
...     parse("[1, 2]")
... except Refused as refused:
...     reject(refused.id, refused.code, refused.reason)
{'type': 'reject', 'id': None, 'code': 'bad_message', 'reason': 'a message is a JSON object'}
>>> try:
...     parse('{"type": "act", "id": "\\ud800", "action": "S pass"}')
... except Refused as refused:
...     refused.code, refused.id
('bad_message', None)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final

from baloot.core.actions import Action
from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.view.seat_view import SeatView, heard

#: The largest client message, in bytes of UTF-8 (``too_large`` beyond).
MAX_MESSAGE: Final = 64 * 1024
#: The longest ``id`` of a client message.
MAX_ID: Final = 64

Message = dict[str, Any]


class Refused(Exception):
    """A client message answered with ``reject``; nothing changed."""

    def __init__(self, id_: str | None, code: str, reason: str) -> None:
        super().__init__(reason)
        self.id = id_
        self.code = code
        self.reason = reason


def event_message(hand: Hand, action: Action) -> Callable[[Seat | None, int], Message]:
    def build(audience: Seat | None, v: int) -> Message:
        return {
            "type": "event",
            "v": v,
            "action": str(heard(action, audience)),
            "view": SeatView.of(hand, audience).to_json(),
        }

    return build


def view_message(
    kind: str, hand: Hand, extra: Mapping[str, Any]
) -> Callable[[Seat | None, int], Message]:
    def build(audience: Seat | None, v: int) -> Message:
        return {"type": kind, "v": v, "view": SeatView.of(hand, audience).to_json(), **extra}

    return build


def ack(id_: str) -> Message:
    return {"type": "ack", "id": id_}


def reject(id_: str | None, code: str, reason: str) -> Message:
    return {"type": "reject", "id": id_, "code": code, "reason": reason}


def parse(text: str) -> Message:
    """A client message: a JSON object with a string ``type`` (else a :class:`Refused`)."""
    if len(text) > MAX_MESSAGE or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise Refused(None, "too_large", f"a message may hold at most {MAX_MESSAGE} bytes")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused(None, "bad_json", "the message is not JSON") from None
    if not isinstance(message, dict):
        raise Refused(None, "bad_message", "a message is a JSON object")
    if not storable(message):
        id_ = id_of(message)
        raise Refused(
            id_ if id_ is not None and storable(id_) else None,
            "bad_message",
            "the message holds text that cannot be kept (a lone surrogate or a NUL character)",
        )
    if not isinstance(message.get("type"), str):
        raise Refused(id_of(message), "bad_message", "a message needs a type")
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


def required_id(message: Message) -> str:
    id_ = id_of(message)
    if id_ is None:
        raise Refused(None, "bad_message", f"a {message['type']} needs an id of 1–64 characters")
    return id_

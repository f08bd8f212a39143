"""The server's messages as typed values (:mod:`baloot.server.outgoing`): each encodes
itself once, as the text every connection of its audience gets, and cannot change after."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from baloot import Seat
from baloot.server.messages import MessageType, Refused, RejectCode
from baloot.server.outgoing import Ack, Pong, Reject, Said, SeatTold, Sent
from baloot.server.talk import Line


def test_a_message_is_encoded_once_and_its_text_is_what_the_transport_sends() -> None:
    sent = Said(Line(7, Seat.S, "يلا نلعب")).fields()
    message = Sent(sent)
    assert message.text == json.dumps(sent, ensure_ascii=False)
    assert json.loads(message.text) == message == sent


def test_a_message_sent_does_not_change() -> None:
    message = Ack("c1").sent()
    changes: list[Callable[[], object]] = [
        lambda: message.__setitem__("id", "c2"),
        lambda: message.update(id="c2"),
        lambda: message.pop("id"),
        lambda: message.clear(),
    ]
    for change in changes:
        with pytest.raises(TypeError, match="does not change"):
            change()
    assert message == {"type": "ack", "id": "c1"}


def test_a_reject_answers_a_refusal_with_its_code_reason_and_params() -> None:
    refused = Refused("c3", RejectCode.NOT_NOW, "not now", {"hand": "2"})
    assert Reject.of(refused).sent().text == (
        '{"type": "reject", "id": "c3", "code": "not_now", "reason": "not now", '
        '"params": {"hand": "2"}}'
    )
    assert "params" not in Reject(None, RejectCode.BAD_JSON, "no").sent()


def test_every_message_type_is_the_one_word_the_wire_carries() -> None:
    told = SeatTold(4, Seat.E, "bot:heuristic", True, None).fields()
    assert told["type"] == MessageType.SEAT.value == "seat"
    assert Pong(12).sent()["type"] == "pong"
    assert MessageType("hand-over") is MessageType.HAND_OVER

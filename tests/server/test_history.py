"""The numbered messages a room keeps for ``resync`` (:class:`History`): told again since a
``v`` while it keeps them all for that audience, else a snapshot is needed."""

from __future__ import annotations

from baloot import Seat
from baloot.server.history import History


def kept(*vs: int, size: int = 8) -> History[str]:
    history: History[str] = History(size)
    for v in vs:
        history.add(v, {Seat.S: f"s{v}", None: f"w{v}"})
    return history


def test_the_messages_after_v_are_told_again_in_the_audiences_own_version() -> None:
    history = kept(3, 4, 5)
    assert history.since(3, latest=5, audience=Seat.S) == ["s4", "s5"]
    assert history.since(2, latest=5, audience=None) == ["w3", "w4", "w5"]


def test_a_client_up_to_date_is_told_nothing() -> None:
    assert kept(3, 4).since(4, latest=4, audience=Seat.S) == []


def test_a_v_before_what_is_kept_or_after_the_last_needs_a_snapshot() -> None:
    history = kept(3, 4, 5)
    assert history.since(1, latest=5, audience=Seat.S) is None
    assert history.since(6, latest=5, audience=Seat.S) is None
    assert history.since(-1, latest=5, audience=Seat.S) is None


def test_only_the_last_size_messages_are_kept() -> None:
    history = kept(*range(1, 11), size=4)
    assert history.since(6, latest=10, audience=Seat.S) == ["s7", "s8", "s9", "s10"]
    assert history.since(5, latest=10, audience=Seat.S) is None


def test_an_audience_with_no_connection_when_a_message_was_sent_needs_a_snapshot() -> None:
    history = kept(3, 4)
    history.add(5, {None: "w5"})
    assert history.since(3, latest=5, audience=Seat.S) is None
    assert history.since(3, latest=5, audience=None) == ["w4", "w5"]


def test_a_restart_keeps_the_last_message_alone() -> None:
    history = kept(3, 4, 5)
    history.restart()
    assert history.since(4, latest=5, audience=Seat.S) == ["s5"]
    assert history.since(3, latest=5, audience=Seat.S) is None


def test_an_empty_history_answers_nothing_but_a_snapshot() -> None:
    history: History[str] = History()
    assert history.since(2, latest=3, audience=None) is None
    assert history.since(3, latest=3, audience=None) == []

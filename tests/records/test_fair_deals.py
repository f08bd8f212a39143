"""Fair deals (``docs/table-protocol.md``, ``docs/records.md``'s ``fair``): the derivation and its
test vector, records that keep the proof and readers that refuse a deck that does not follow
from it, ``baloot verify``, and a table whose every deal is committed to before its players
speak and revealed after, also across a restart."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import Server
from helpers import baloot
from hypothesis import given
from hypothesis import strategies as st
from test_server import Seen, create
from test_server_analysis import stored_match

from baloot.core.cards import CARDS
from baloot.core.errors import RecordError
from baloot.core.match import Match
from baloot.core.seats import Seat
from baloot.records.fair import Fair, FairError, derived_deck
from baloot.records.record import Record, UnprovenHandError, loads, loads_all
from baloot.records.writer import dumps
from baloot.server.journal import Step
from baloot.server.room import Room
from baloot.table.players import Player

SECRET = bytes.fromhex("00112233445566778899aabbccddeeff" * 2)
COMMITMENT = "4773d12e2371bb935b9a0f5439b4a1c3ad3f2414b86980f8418d1cfabdfadfef"
DECK = (
    "8d Qs 9s 7h Ts Ac Td Jd 8s Jc Qh Kd Qc 7s Ad 8h 8c 9c Ah 9h Kh Tc Jh 7c 7d Qd Kc Js As "
    "Th Ks 9d"
)
PASSES = ["N pass", "W pass", "S pass", "E pass"] * 2


def test_the_example_of_the_specification_holds() -> None:
    fair = Fair.of(SECRET, {Seat.S: bytes.fromhex("9f")})
    assert fair.commitment == COMMITMENT
    assert " ".join(card.text for card in fair.deck()) == DECK


@given(
    st.binary(min_size=32, max_size=32),
    st.dictionaries(st.sampled_from(Seat), st.binary(min_size=1, max_size=64)),
)
def test_a_derived_deck_is_the_32_cards_and_depends_on_the_secret_and_every_entropy(
    secret: bytes, entropy: dict[Seat, bytes]
) -> None:
    deck = derived_deck(secret, entropy)
    assert len(deck) == 32 and set(deck) == set(CARDS)
    assert derived_deck(secret, dict(reversed(entropy.items()))) == deck  # order N, W, S, E
    assert derived_deck(bytes(a ^ 1 for a in secret), entropy) != deck
    for seat in entropy:
        assert derived_deck(secret, {**entropy, seat: entropy[seat] + b"\x00"}) != deck


# ---------------------------------------------------------------------- records


def fair_match(tampered: str | None = None) -> str:
    """A match record of two hands (the first passed out), each with its fair table; the
    second one's deck or secret ``tampered`` if asked."""
    first = Fair.of(SECRET, {Seat.S: b"\x9f"})
    second = Fair.of(bytes(range(32)), {Seat.N: b"\x01", Seat.E: b"\x02"})
    match = Match(dealer=Seat.E, auto_deal=False)
    match.deal(first.deck())
    for action in PASSES:
        match.apply(action)
    match.deal(second.deck())
    record = Record.of(match)
    record.hands[0].fair, record.hands[1].fair = first, second
    if tampered == "deck":
        deck = list(record.hands[1].deck)
        deck[0], deck[1] = deck[1], deck[0]
        record.hands[1].deck = tuple(deck)
    elif tampered == "secret":
        record.hands[1].fair = Fair(second.commitment, bytes(32), second.entropy)
    return dumps(record)


def test_a_record_keeps_each_hands_fair_table_and_reads_it_back() -> None:
    text = fair_match()
    assert 'fair = { commitment = "4773d12e' in text
    assert 'entropy = { S = "9f" }' in text
    record = loads(text)
    assert [hand.fair is not None for hand in record.hands] == [True, True]
    assert loads(dumps(record, json=True)) == record


@pytest.mark.parametrize(
    ("tampered", "reason"),
    [
        ("deck", "the deck does not follow from the secret and the entropy"),
        ("secret", "the SHA-256 of the secret is not the commitment"),
    ],
)
def test_a_record_whose_deal_does_not_follow_is_refused_naming_the_hand(
    tampered: str, reason: str
) -> None:
    with pytest.raises(RecordError, match=f"^hand 2: not a fair deal: {reason}$"):
        loads(fair_match(tampered))


def test_a_single_hand_record_keeps_its_fair_table_at_the_top_and_names_hand_1() -> None:
    fair = Fair.of(SECRET, {Seat.S: b"\x9f"})
    text = (
        f'format = "baloot/1"\ndealer = "E"\ndeck = "{DECK}"\nactions = []\n'
        f'fair = {{ commitment = "{COMMITMENT}", secret = "{SECRET.hex()}", '
        'entropy = { S = "9f" } }\n'
    )
    assert loads(text).hands[0].fair == fair
    with pytest.raises(RecordError, match=r"^hand 1: not a fair deal: the deck does not"):
        loads(text.replace('S = "9f"', 'S = "9e"'))
    with pytest.raises(RecordError, match=r"^hand 1: not a fair deal: secret must be 32 bytes"):
        loads(text.replace(SECRET.hex(), "00"))


def test_a_fair_table_of_the_wrong_form_is_one_clear_error() -> None:
    with pytest.raises(FairError, match="unknown key 'seed'"):
        Fair.from_json({"commitment": COMMITMENT, "secret": SECRET.hex(), "seed": 1})
    with pytest.raises(FairError, match="entropy of an unknown seat 'X'"):
        Fair.from_json({"commitment": COMMITMENT, "secret": SECRET.hex(), "entropy": {"X": "9f"}})


# ---------------------------------------------------------------------- the commands


def test_verify_says_hand_by_hand_what_it_checked(tmp_path: Path) -> None:
    path = tmp_path / "fair.baloot"
    path.write_text(fair_match(), encoding="utf-8")
    result = baloot("verify", str(path))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "hand 1: SHA-256 of the secret = commitment 4773d12e2371bb93… ✓; "
        "deck = derived from the secret and the entropy of S ✓"
    )
    assert lines[1].endswith("deck = derived from the secret and the entropy of N, E ✓")
    assert lines[2] == f"{path}: ok: 2 of 2 deals verified"


@pytest.mark.parametrize("tampered", ["deck", "secret"])
def test_verify_and_validate_refuse_a_tampered_deal(tmp_path: Path, tampered: str) -> None:
    path = tmp_path / "tampered.baloot"
    path.write_text(fair_match(tampered), encoding="utf-8")
    verified = baloot("verify", str(path))
    assert verified.returncode == 1
    lines = verified.stdout.splitlines()
    assert lines[0].startswith("hand 1: SHA-256 of the secret = commitment")
    assert lines[1].startswith("hand 2: NOT FAIR: ")
    assert lines[2] == f"{path}: NOT FAIR: 1 of 2 deals do not follow from their proof"
    validated = baloot("validate", str(path))
    assert validated.returncode == 2
    assert validated.stdout.startswith(f"{path}: not a record: hand 2: not a fair deal: ")


def stripped(hand: int, *, as_json: bool = False) -> str:
    """The record of :func:`fair_match` with the proof of hand ``hand`` taken out."""
    record = loads(fair_match())
    record.hands[hand - 1].fair = None
    return dumps(record, json=as_json)


def test_a_record_with_one_hand_unproven_among_proven_ones_is_refused_naming_it() -> None:
    for hand in (1, 2):
        with pytest.raises(UnprovenHandError, match=f"^hand {hand}: not a fair deal: no fair"):
            loads(stripped(hand))
        with pytest.raises(UnprovenHandError, match=f"^hand {hand}: "):
            loads(stripped(hand), check_fair=False)
    lines = [json.dumps(json.loads(stripped(hand, as_json=True))) for hand in (1, 2)]
    with pytest.raises(UnprovenHandError, match=r"^line 1: hand 1: not a fair deal: "):
        loads_all("\n".join(lines))


def test_verify_validate_and_replay_refuse_a_stripped_proof_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "stripped.baloot"
    path.write_text(stripped(2), encoding="utf-8")
    why = "hand 2: not a fair deal: no fair table, where other hands of the record hold one"
    verified = baloot("verify", str(path))
    assert (verified.returncode, verified.stdout) == (1, f"{path}: NOT FAIR: {why}\n")
    validated = baloot("validate", str(path))
    assert (validated.returncode, validated.stdout) == (1, f"{path}: not fair: {why}\n")
    replayed = baloot("replay", str(path))
    assert (replayed.returncode, replayed.stdout) == (1, f"{why}\n")
    replayed = baloot("replay", "--json", str(path))
    assert replayed.returncode == 1
    assert json.loads(replayed.stdout) == {"error": {"hand": 2, "reason": why.split(": ", 1)[1]}}
    assert "Traceback" not in verified.stderr + validated.stderr + replayed.stderr


def test_a_closed_tables_record_proves_the_hand_in_play_too(tmp_path: Path) -> None:
    room = Room.create({Seat.S: Player.human("Saad")})
    room.deal()  # the wait for South's entropy is over
    path = tmp_path / "closed.baloot"
    path.write_text(dumps(room.table.record()), encoding="utf-8")  # hand 1 in play
    assert loads(path.read_text(encoding="utf-8")).hands[0].fair is not None
    assert baloot("verify", str(path)).returncode == 0


def test_a_kept_record_with_an_unproven_hand_is_a_409_at_its_analysis(server: Server) -> None:
    """A record a server kept before every hand held its proof is refused in one line."""
    assert server.client is not None and server.hall is not None
    stored_match(server.hall.store, "old", stripped(2))
    response = server.client.get("/api/tables/old/hands/1/analysis")
    assert response.status_code == 409
    assert response.json() == {"error": "the record of this table cannot be read"}


def test_verify_of_a_record_without_fair_tables_or_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "plain.baloot"
    path.write_text(f'format = "baloot/1"\ndealer = "E"\ndeck = "{DECK}"\nactions = []\n')
    result = baloot("verify", str(path))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "hand 1: no fair table: not checked",
        f"{path}: nothing to verify: no hand holds a fair table",
    ]
    result = baloot("verify", "-", stdin="format = 1\n")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("baloot: ")


@pytest.mark.parametrize(("tampered", "status"), [(None, 0), ("deck", 1)])
def test_verify_into_a_closed_pipe_keeps_its_status(
    tmp_path: Path, tampered: str | None, status: int
) -> None:
    path = tmp_path / "record.baloot"
    path.write_text(fair_match(tampered), encoding="utf-8")
    read, write = os.pipe()
    os.close(read)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "baloot", "verify", str(path)],
            stdout=write,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    finally:
        os.close(write)
    assert result.returncode == status
    assert b"Traceback" not in result.stderr


# ---------------------------------------------------------------------- a table


def published(messages: Sequence[Mapping[str, Any]]) -> dict[int, str]:
    """The commitment of each hand as the messages published it before the hand was over."""
    out: dict[int, str] = {}
    for message in messages:
        fair = (message.get("match") or {}).get("fair")
        if fair is not None:
            assert "secret" not in fair
            out.setdefault(fair["hand"], fair["commitment"])
    return out


def test_a_room_reveals_each_secret_only_at_its_hand_over_and_restores_its_decks() -> None:
    room = Room.create({Seat.S: Player.human("Saad")})
    first = room.published_fair()
    assert first is not None and first["hand"] == 1 and first["entropy"] == {}
    config = room.config(timer=None, public=False, created=0.0)
    south, out = room.connect(room.tokens[Seat.S])
    _, more = room.connect(None)
    given = {"type": "entropy", "id": "e1", "hand": 1, "entropy": "9f"}  # after the commitment
    sent = [message for _, message in out + more + room.receive(south, json.dumps(given))]
    number = 0
    while room.table.waiting().kind.value != "over" and len(room.table.match.hands) < 4:
        while room.waiting_for_bot():
            sent += [message for _, message in room.step_bot()]
        waiting = room.table.waiting()
        if waiting.kind.value == "next":
            bad = room.receive(south, json.dumps({"type": "next", "id": "x", "entropy": "9G"}))
            assert [m for _, m in bad] == [
                {
                    "type": "reject",
                    "id": "x",
                    "code": "bad_message",
                    "reason": "a next's entropy must be 1 to 64 bytes as lowercase hex",
                }
            ]
            assert room.table.awaiting_next == (Seat.S,)
            number += 1
            entropy = bytes([number]) * 16
            message = {"type": "next", "id": f"n{number}", "entropy": entropy.hex()}
            sent += [m for _, m in room.receive(south, json.dumps(message))]
        elif waiting.kind.value == "human":
            action = str(room.table.view(Seat.S).legal[0])
            message = {"type": "act", "id": f"c{len(sent)}", "action": action}
            sent += [m for _, m in room.receive(south, json.dumps(message))]
    commitments = published(sent)
    reveals = [m for m in sent if m["type"] == "hand-over"]
    finished = len(room.table.match.results)
    assert len({json.dumps(m["fair"]) for m in reveals}) == finished >= 3
    for reveal in {json.dumps(m["fair"]): m["fair"] for m in reveals}.values():
        hand, secret = reveal["hand"], reveal["secret"]
        assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == commitments[hand]
        dealt = room.table.match.hands[hand - 1].deck
        assert Fair.from_json({k: v for k, v in reveal.items() if k != "hand"}).deck() == dealt
        given_then = bytes([hand - 1]) * 16 if hand > 1 else b"\x9f"
        assert reveal["entropy"] == {"S": given_then.hex()}
        before = sent[: next(i for i, m in enumerate(sent) if m.get("fair") == reveal)]
        assert all(secret not in json.dumps(message) for message in before)
    record = loads(dumps(room.table.record()))  # the reader checks every fair table
    assert all(hand.fair is not None for hand in record.hands)  # the hand in play's too
    _, steps = room.take_steps()
    stored = [Step.from_json(json.loads(json.dumps(step.to_json()))) for step in steps]
    back = Room.from_config(config, stored)
    assert back.table.record() == room.table.record()
    assert back.published_fair() == room.published_fair()


def test_a_table_made_with_a_seed_deals_from_it_with_no_fair_table() -> None:
    room = Room.create({Seat.S: Player.human("Saad")}, seed=7)
    assert room.published_fair() is None
    assert room.match_json()["fair"] is None
    assert room.config(timer=None, public=False, created=0.0).fair is None


def test_fair_deals_from_the_same_secret_source_are_the_same_and_still_fair() -> None:
    """Randomness is injected: a room given a seeded source of secrets (a test's) deals what
    another given the same source deals, with the same commitments; another source, others."""

    def made(seed: int) -> Room:
        source = random.Random(seed)
        room = Room.create({Seat.S: Player.human("Saad")}, secret_bytes=source.randbytes)
        room.deal()  # the wait for South's entropy is over
        return room

    first, again, other = made(1), made(1), made(2)
    assert first.published_fair() is not None
    assert first.published_fair() == again.published_fair() != other.published_fair()
    assert first.table.seed == again.table.seed != other.table.seed
    assert first.table.record().hands[0].deck == again.table.record().hands[0].deck


def test_a_stored_undo_across_a_deal_deals_again_from_the_same_fair_table() -> None:
    """A table kept before undo stopped at the hand-over comes back as it was played."""
    # Its secrets drawn from a seeded generator: the same deals at every run, a first hand in
    # which South decides (a deal ended by a Kawesh before South's turn has nothing to undo).
    room = Room.create({Seat.S: Player.human("Saad")}, secret_bytes=random.Random(7).randbytes)
    south, _ = room.connect(room.tokens[Seat.S])
    room.receive(south, json.dumps({"type": "entropy", "id": "e1", "hand": 1, "entropy": "01"}))
    table = room.table

    def play_to_hand_2(entropy: str) -> None:
        while len(table.match.hands) < 2:
            while room.waiting_for_bot():
                room.step_bot()
            if table.waiting().kind.value == "next":
                message = {"type": "next", "id": f"n{entropy}", "entropy": entropy}
                room.receive(south, json.dumps(message))
            elif table.waiting().kind.value == "human":
                action = str(table.view(Seat.S).legal[0])
                message = {"type": "act", "id": f"{table.version}", "action": action}
                room.receive(south, json.dumps(message))

    play_to_hand_2("aa")
    dealt = table.hand.deck
    table.undo_stored(Seat.S)
    assert len(table.match.hands) == 1
    play_to_hand_2("bb")  # later entropy changes nothing: the deal was seen already
    assert table.hand.deck == dealt
    assert table.fair is not None and table.fair.fairs[2].entropy == {Seat.S: b"\xaa"}


# ---------------------------------------------------------------------- the server


def test_a_server_commits_before_the_players_speak_and_keeps_the_proof_across_a_restart(
    server: Server,
) -> None:
    client = server.client
    assert client is not None
    created = create(client)  # hand 1 is dealt once its short wait for South's entropy ends
    assert created["fair"]["hand"] == 1 and created["fair"]["entropy"] == {}
    table, token = created["table"], created["seats"]["S"]["token"]
    url = f"/ws/tables/{table}?token={token}"
    messages: list[dict[str, Any]] = []
    with client.websocket_connect(url) as socket:
        south = Seen(socket)
        over = south.play_to_hand_over()
        south.send({"type": "next", "id": "n1", "entropy": "01" * 16})
        south.until(lambda m: m["type"] == "deal")
        messages += south.messages
    client = server.restart()
    with client.websocket_connect(url) as socket:
        south = Seen(socket, ids=1000)  # the ids of before stay remembered
        second = south.play_to_hand_over()
        messages += south.messages
    assert over["fair"]["hand"] == 1
    assert over["fair"]["commitment"] == created["fair"]["commitment"]
    assert over["match"]["fair"]["hand"] == 2 and "secret" not in over["match"]["fair"]
    assert second["fair"]["commitment"] == over["match"]["fair"]["commitment"]
    assert second["fair"]["entropy"] == {"S": "01" * 16}
    assert server.hall is not None
    hands = server.hall.tables[table].room.table.match.hands
    for reveal, hand in ((over["fair"], hands[0]), (second["fair"], hands[1])):
        fair = Fair.from_json({k: v for k, v in reveal.items() if k != "hand"})
        fair.check(hand.deck)
        before = messages[: messages.index(over if reveal is over["fair"] else second)]
        assert all(reveal["secret"] not in json.dumps(m) for m in before)

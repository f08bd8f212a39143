"""Shared builders for the rules tests: decks that deal chosen hands, and drivers.

Everything here is written from the spec (rules.md R3.2 and R7.2 for the deck mapping, R2 for
the trick and point tables), not from the engine's code, so that the tests built on it check
the engine rather than repeat it. The drivers only push actions through the public door
(``Hand.apply``); every action they make is checked by the engine like any other.
"""

from __future__ import annotations

import importlib.util
import os
import select
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, TypeVar

import pytest

from baloot import (
    Card,
    CardSet,
    Hand,
    IllegalActionError,
    Phase,
    Project,
    ProjectKind,
    Rules,
    Seat,
    Suit,
    Team,
    Verb,
)
from baloot.core.scoring import HandScore, score_hand

#: The checkout: its ``src``, ``examples`` and ``scripts``.
ROOT = Path(__file__).resolve().parent.parent
#: The environment of a ``python -m baloot`` child: this checkout's package first.
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}

PLAY_ORDER: tuple[Seat, ...] = (Seat.N, Seat.W, Seat.S, Seat.E)
ALL_CARDS: tuple[Card, ...] = tuple(Card.parse(r + s) for s in "shdc" for r in "AKQJT987")

#: The deck of docs/records.md's example (its exposed card, c21, is J♦).
DC_DECK = (
    "9c 8d Th 9h Jc 8s Qs Js As 7d 8h Td Kc Qh Kd 7s Qd Qc Ks Jh "
    "Jd Ad Kh Ah Ts Ac 9s 7c 8c Tc 9d 7h"
)
#: A first five of only 7s, 8s and 9s (K1): Kawesh-eligible.
KAWESH_FIVE = "7s 8s 9h 7d 8c"
#: A baloot-bot/1 program that says it is ready, then exits at its first decision.
CRASHING_BOT = """\
import json, sys
for line in sys.stdin:
    if json.loads(line)["type"] == "act":
        sys.exit(3)
    print(json.dumps({"type": "ready"}), flush=True)
"""

#: R3.2: for each of the first 20 deck positions, the place (0 = P1 … 3 = P4) that receives it.
FIRST_DEAL_PLACES: tuple[int, ...] = (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3)


def seat(name: Seat | str) -> Seat:
    """A seat from its letter."""
    return name if isinstance(name, Seat) else Seat[name]


def places(dealer: Seat | str) -> tuple[Seat, Seat, Seat, Seat]:
    """P1..P4 for a dealer: P1 is the seat after the dealer in play order N → W → S → E."""
    d = PLAY_ORDER.index(seat(dealer))
    p = [PLAY_ORDER[(d + 1 + i) % 4] for i in range(4)]
    return (p[0], p[1], p[2], p[3])


def cards(text: str) -> list[Card]:
    """Cards from words, in the order written."""
    return [Card.parse(word) for word in text.split()]


def cardset(text: str) -> CardSet:
    """A set of cards from words."""
    return CardSet.parse(text)


def names(text: str) -> set[str]:
    """A set of canonical card texts from words (``"10h Q♥"`` → ``{"Th", "Qh"}``)."""
    return {c.text for c in cards(text)}


def _check_deck(deck: Sequence[Card]) -> str:
    if len(deck) != 32 or len(set(deck)) != 32:
        raise AssertionError(f"test bug: not a 32-card deck: {' '.join(c.text for c in deck)}")
    return " ".join(c.text for c in deck)


def build_deck(
    hands: Mapping[str, str],
    *,
    taker: str,
    exposed: str,
    dealer: str = "E",
) -> str:
    """A deck (top first) that deals each seat the 8 cards of ``hands`` (R3.2, R7.2).

    ``hands[seat]`` lists the seat's 8 cards; the taker's 8 include the exposed card. The first
    five cards listed (the exposed card skipped) are the seat's first five of the first deal,
    the others come at the completion of the deal.
    """
    up = Card.parse(exposed)
    order = places(dealer)
    first: list[list[Card]] = []
    later: list[list[Card]] = []
    for place in order:
        held = cards(hands[place.name])
        if len(held) != 8:
            raise AssertionError(f"test bug: {place.name} must get 8 cards, not {len(held)}")
        if place.name == taker:
            if up not in held:
                raise AssertionError(f"test bug: the taker {taker} must hold {exposed}")
            held.remove(up)
        elif up in held:
            raise AssertionError(f"test bug: {place.name} holds the exposed card")
        first.append(held[:5])
        later.append(held[5:])
    deck: list[Card] = []
    taken = [0, 0, 0, 0]
    for p in FIRST_DEAL_PLACES:
        deck.append(first[p][taken[p]])
        taken[p] += 1
    deck.append(up)
    for rest in later:
        deck.extend(rest)
    return _check_deck(deck)


def bidding_deck(first5: Mapping[str, str], exposed: str, dealer: str = "E") -> str:
    """A deck whose first deal gives each seat the five cards of ``first5`` (R3.2).

    Seats not named get cards in the canonical order; cards 22–32 are the cards left over.
    """
    up = Card.parse(exposed)
    order = places(dealer)
    used = {up}
    five: list[list[Card]] = []
    for place in order:
        held = cards(first5.get(place.name, ""))
        used.update(held)
        five.append(held)
    spare = [c for c in ALL_CARDS if c not in used]
    for held in five:
        while len(held) < 5:
            held.append(spare.pop(0))
    deck: list[Card] = []
    taken = [0, 0, 0, 0]
    for p in FIRST_DEAL_PLACES:
        deck.append(five[p][taken[p]])
        taken[p] += 1
    deck.append(up)
    deck.extend(spare)
    return _check_deck(deck)


def mask(text: str) -> int:
    """The card mask of some cards."""
    return CardSet.parse(text).mask


def shape(projects: Iterable[Project]) -> set[tuple[ProjectKind, int]]:
    """Kinds and exact cards of projects."""
    return {(p.kind, p.mask) for p in projects}


def new_hand(
    exposed: str = "8s",
    rules: Rules | None = None,
    score_before: tuple[int, int] = (0, 0),
    **first5: str,
) -> Hand:
    """A hand dealt by E whose exposed card and chosen first fives are given (the rest fill in)."""
    return Hand.from_deck(
        bidding_deck(first5, exposed), "E", rules=rules, score_before=score_before
    )


def hokum_hand(
    hands: Mapping[str, str], exposed: str, rules: Rules | None = None, declarer: str = "N"
) -> Hand:
    """A hand dealt by E that deals ``hands``; ``declarer`` takes the exposed card with a
    round-1 Hokum (trump = its suit), nobody doubles."""
    hand = Hand.from_deck(build_deck(hands, taker=declarer, exposed=exposed), "E", rules)
    bid(hand, declarer)
    end_doubling(hand)
    return hand


def contract_of(hand: Hand) -> tuple[str, Suit | None, Seat]:
    """Kind, trump and declarer of the contract."""
    c = hand.contract
    assert c is not None, "no contract yet"
    return (c.kind.value, c.trump, c.declarer)


def score(
    rules: Rules | None = None,
    *,
    sun: bool = False,
    level: int = 1,
    declarers: Team = Team.EW,
    cards: tuple[int, int],
    tricks: tuple[int, int] = (4, 4),
    project_team: Team | None = None,
    project_points: int = 0,
    project_raw: int = 0,
    baloot: tuple[int, int] = (0, 0),
) -> HandScore:
    """``score_hand`` with the defaults of §3: declarers EW, no projects, 4 tricks each."""
    return score_hand(
        Rules() if rules is None else rules,
        sun=sun,
        declarers=declarers,
        level=level,
        card_points=cards,
        tricks=tricks,
        project_team=project_team,
        project_points=project_points,
        project_raw=project_raw,
        baloot=baloot,
    )


def assert_illegal(hand: Hand, action: str, *words: str, seat_first: bool = True) -> str:
    """``action`` raises IllegalActionError, nothing is applied, and the reason contains
    ``words`` (and, with ``seat_first``, starts with the acting seat's name)."""
    before = (list(hand.actions), hand.to_act, hand.phase, [hand.hand(s) for s in Seat])
    with pytest.raises(IllegalActionError) as info:
        hand.apply(action)
    reason = info.value.reason
    if seat_first:
        assert reason.startswith(action.split()[0] + " "), reason
    for word in words:
        assert word in reason, reason
    after = (list(hand.actions), hand.to_act, hand.phase, [hand.hand(s) for s in Seat])
    assert after == before, "an illegal action changed the hand"
    return reason


# --------------------------------------------------------------------------- drivers


def turn(hand: Hand) -> Seat | None:
    """The seat to act (a call, so that type checkers do not narrow it across actions)."""
    return hand.to_act


def phase_of(hand: Hand) -> Phase:
    """The hand's phase (a call, for the same reason as :func:`turn`)."""
    return hand.phase


def act(hand: Hand, *actions: str) -> None:
    """Apply actions in order (each is checked by the engine)."""
    for action in actions:
        hand.apply(action)


def bid(hand: Hand, declarer: str, call: str = "hokum") -> None:
    """Round-1 bidding: ``declarer`` makes ``call`` on its normal turn, every other answer
    (including the take-over and confirm offers) is ``pass``."""
    called = False
    while hand.phase is Phase.BIDDING_ROUND_1:
        to_act = hand.to_act
        assert to_act is not None
        mine = f"{to_act.name} {call}"
        legal = {str(a) for a in hand.legal_actions()}
        if to_act.name == declarer and not called and mine in legal:
            hand.apply(mine)
            called = True
        else:
            hand.apply(f"{to_act.name} pass")


def end_doubling(hand: Hand, *answers: str) -> None:
    """Apply the given doubling answers, then pass until play begins."""
    act(hand, *answers)
    while hand.phase is Phase.DOUBLING:
        to_act = hand.to_act
        assert to_act is not None
        hand.apply(f"{to_act.name} pass")


def play_tricks(
    hand: Hand, tricks: Sequence[str], declare: Mapping[str, str] | None = None
) -> None:
    """Play whole tricks written ``"N: Ac 7c 8c 9c"`` (leader, then the cards in play order).

    A seat named in ``declare`` first declares those projects at its turn in trick 1.
    """
    pending = dict(declare or {})
    for trick in tricks:
        leader, _, played = trick.partition(":")
        who = seat(leader.strip())
        assert hand.to_act == who, f"{trick}: {hand.to_act} is on lead, not {who.name}"
        for card in played.split():
            if hand.trick_number == 0 and who.name in pending:
                hand.apply(f"{who.name} declare {pending.pop(who.name)}")
            hand.apply(f"{who.name} play {card}")
            who = who.next
    assert not pending, f"no turn to declare {pending}"


def position(
    now: Mapping[str, str],
    earlier: Sequence[str] = (),
    *,
    contract: str = "hokum",
    trump: str = "h",
    declarer: str = "N",
    doubling: Sequence[str] = (),
    rules: Rules | None = None,
) -> Hand:
    """A real hand brought to the position where every seat holds ``now[seat]``.

    The full hands are ``now`` plus the cards each seat plays in ``earlier`` (whole tricks, see
    :func:`play_tricks`). Dealer E; ``declarer`` bids ``contract`` in round 1 (a Hokum's trump
    is the exposed card's suit, so the exposed card is the first ``trump`` card of the
    declarer's full hand), every other call is a pass, then ``doubling`` and passes.
    """
    full = {name: cards(now[name]) for name in "NWSE"}
    for trick in earlier:
        leader, _, played = trick.partition(":")
        who = seat(leader.strip())
        for card in cards(played):
            full[who.name].append(card)
            who = who.next
    if contract == "hokum":
        exposed = next(c for c in full[declarer] if c.suit.letter == trump)
    else:
        exposed = full[declarer][0]
    deck = build_deck(
        {k: " ".join(c.text for c in v) for k, v in full.items()},
        taker=declarer,
        exposed=exposed.text,
    )
    hand = Hand.from_deck(deck, "E", rules)
    bid(hand, declarer, contract)
    end_doubling(hand, *doubling)
    assert hand.phase is Phase.PLAYING
    contract_now = hand.contract
    assert contract_now is not None and contract_now.kind.value == contract
    play_tricks(hand, earlier)
    for name in "NWSE":
        assert hand.hand(name) == cardset(now[name]), f"{name} holds {hand.hand(name)}"
    return hand


def play_out(hand: Hand, declare: Mapping[str, str] | None = None) -> None:
    """Finish a hand: in trick 1 each seat of ``declare`` first declares its projects, then
    every seat plays the first legal card the engine lists."""
    pending = dict(declare or {})
    while not hand.is_over:
        to_act = hand.to_act
        assert to_act is not None
        if to_act.name in pending:
            hand.apply(f"{to_act.name} declare {pending.pop(to_act.name)}")
            continue
        play = next(a for a in hand.legal_actions() if a.verb is Verb.PLAY and not a.ekka)
        hand.apply(play)


def legal_plays(hand: Hand) -> set[str]:
    """The cards the seat to act may play (plain plays), as canonical card texts."""
    return {
        a.card.text
        for a in hand.legal_actions()
        if a.verb is Verb.PLAY and a.card is not None and not a.ekka
    }


def ekka_plays(hand: Hand) -> set[str]:
    """The cards the seat to act may lead with a valid Ekka."""
    return {
        a.card.text
        for a in hand.legal_actions()
        if a.verb is Verb.PLAY and a.card is not None and a.ekka
    }


def legal_calls(hand: Hand) -> set[str]:
    """The legal actions of the seat to act, as record text."""
    return {str(a) for a in hand.legal_actions()}


# --------------------------------------------------------------------------- an independent count

_TRUMP_ORDER = "J9ATKQ87"  # R2.2, high to low
_PLAIN_ORDER = "ATKQJ987"
_TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
_PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def count_tricks(hand: Hand) -> tuple[tuple[int, int], tuple[int, int]]:
    """Tricks and card points (NS, EW) of a finished hand, recounted from its play actions
    with the tables of R2.2–R2.3 (the last-trick 10 included)."""
    contract = hand.contract
    assert contract is not None
    trump = None if contract.trump is None else contract.trump.letter
    plays = [(a.seat, a.card) for a in hand.actions if a.verb is Verb.PLAY]
    assert len(plays) == 32
    points = [0, 0]
    tricks = [0, 0]
    for start in range(0, 32, 4):
        trick = plays[start : start + 4]
        led = trick[0][1]
        assert led is not None
        best_seat, best = trick[0]
        for who, card in trick[1:]:
            assert card is not None and best is not None
            if card.suit == best.suit:
                order = _TRUMP_ORDER if card.suit.letter == trump else _PLAIN_ORDER
                if order.index(card.rank.letter) < order.index(best.rank.letter):
                    best_seat, best = who, card
            elif card.suit.letter == trump:
                best_seat, best = who, card
        team = 0 if best_seat in (Seat.N, Seat.S) else 1
        tricks[team] += 1
        for _, card in trick:
            assert card is not None
            table = _TRUMP_POINTS if card.suit.letter == trump else _PLAIN_POINTS
            points[team] += table[card.rank.letter]
        if start == 28:
            points[team] += 10
    return (tricks[0], tricks[1]), (points[0], points[1])


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now, for a server under test."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


#: The longest a test waits for what it expects, in seconds: reached only when the awaited
#: event never comes, so it is generous enough for a loaded machine (tests check behaviour,
#: never speed; the benchmarks measure speed). ``BALOOT_TEST_WAIT`` sets another.
WAIT = float(os.environ.get("BALOOT_TEST_WAIT", "120"))


def wait_for(condition: Callable[[], bool], seconds: float = WAIT) -> bool:
    """Whether ``condition`` comes true within ``seconds`` (asked every 50 ms)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def read_line(stream: IO[bytes], seconds: float = WAIT) -> bytes:
    """The next line of a child's output pipe, waited for ``seconds`` at most (then a test
    failure, never a wait for ever); the pipe is read a byte at a time, so nothing is kept
    in a buffer the next call would miss."""
    deadline = time.monotonic() + seconds
    line = b""
    while not line.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([stream], [], [], left)[0]:
            pytest.fail(f"no line within {seconds:g} s (so far: {line!r})")
        byte = os.read(stream.fileno(), 1)
        if not byte:
            break
        line += byte
    return line


def catches(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler for ``signum`` now (Linux: ``/proc``), so that a
    test sends its signal once the command is ready for it, not after a guessed pause."""
    return _signal_set(pid, "SigCgt", signum)


def ignores(pid: int, signum: int) -> bool:
    """Whether process ``pid`` ignores ``signum`` now (Linux: ``/proc``): a worker that has
    set itself up."""
    return _signal_set(pid, "SigIgn", signum)


def _signal_set(pid: int, field: str, signum: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    except OSError:
        return False
    line = next(line for line in status.splitlines() if line.startswith(f"{field}:"))
    return bool(int(line.split()[1], 16) >> (signum - 1) & 1)


def baloot(
    *args: str,
    stdin: str | None = None,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -m baloot`` with ``args``, its output read as UTF-8; ``env`` is the child's
    environment (by default this one, the output asked in UTF-8)."""
    return subprocess.run(
        [sys.executable, "-m", "baloot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        cwd=cwd,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"} if env is None else env,
    )


def one_line_error(
    result: subprocess.CompletedProcess[str] | subprocess.CompletedProcess[bytes],
) -> str:
    """The one line a refused command writes (#44): exit 2, nothing on standard output, one
    line on standard error that starts with ``baloot``, and no traceback."""
    out, err = (
        part.decode("utf-8") if isinstance(part, bytes) else part
        for part in (result.stdout, result.stderr)
    )
    assert result.returncode == 2, err
    assert out == ""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("baloot"), err
    return lines[0]


Test = TypeVar("Test", bound=Callable[..., object])


def needs_ray(test: Test) -> Test:
    """Marks a test that starts Ray (``ray``, which ``--fast`` leaves out), skipped where Ray,
    an optional extra, is not installed."""
    skip = pytest.mark.skipif(
        importlib.util.find_spec("ray") is None,
        reason="Ray is an optional extra: pip install -e '.[ray]' (the dev extra has it)",
    )
    marked: Test = pytest.mark.ray(skip(test))
    return marked

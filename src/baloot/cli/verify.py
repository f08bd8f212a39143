"""``baloot verify``: the fair deals of a record checked, hand by hand (``docs/table-protocol.md``).

For each hand that holds a ``fair`` table: that the SHA-256 of its secret is the commitment the
server published before the players spoke, and that its deck is the deck derived from the secret
and the seats' entropy. A line says what was checked for each hand, a last line the verdict; a
hand dealt with no player's entropy (a table of bots, everyone away) is said to be one the
server alone chose. Exit status: 0 when every hand that holds a fair table follows from it and
at least one does; 1 when a hand's deal does not follow from its fair table, or no hand holds
one (nothing could be verified), or some hands hold one and another does not (one line names
it); 2 for a file that is not a record.
"""

from __future__ import annotations

import argparse

from baloot.core.errors import RecordError
from baloot.records.fair import ENTROPY_ORDER, FairError
from baloot.records.record import HandRecord, UnprovenHandError, loads

from .files import LIMIT_NOTE, Output, read_record_text, shown_path
from .messages import ILLEGAL, NOT_A_RECORD, OK, complain, error_line

HELP = "check that a record's deals are fair: each hand's commitment and deck"
EPILOG = f"""{LIMIT_NOTE}

A hand dealt by a baloot server holds fair = {{ commitment, secret, entropy }}: the SHA-256
of the secret must be the commitment published before the players spoke, and the deck must be
the one derived from the secret and the players' entropy (docs/table-protocol.md, "Fair
deals"). A hand whose entropy is empty got no player's word: the server alone chose its
deck, and verify says so.

Once any hand holds fair, every hand must: a hand without it among proven ones is refused.

exit status: 0 every fair table checks out; 1 a deal does not follow from its fair table, no
hand has one, or a hand has none where others have one; 2 not a record.

examples:
  baloot verify match.baloot
  curl -s https://HOST/api/matches/ID/record | baloot verify -"""

#: The characters of a commitment that a line shows.
SHOWN_COMMITMENT = 16


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The record ``baloot verify`` checks."""
    parser.add_argument("file", help="a .baloot (TOML) or JSON record; - reads standard input")


def run(args: argparse.Namespace) -> int:
    """Check each hand's fair table, a line each, then the verdict; the exit status."""
    out = Output()
    try:
        record = loads(read_record_text(args.file), check_fair=False)
    except UnprovenHandError as error:  # a proof stripped from a hand: no deal to trust
        out.line(f"{shown_path(args.file)}: NOT FAIR: {error_line(error)}")
        return ILLEGAL
    except RecordError as error:
        complain(error_line(error))
        return NOT_A_RECORD
    verified = failed = alone = 0
    for number, hand in enumerate(record.hands, 1):
        line, ok = _hand_line(hand)
        out.line(f"hand {number}: {line}")
        if ok is True:
            verified += 1
            alone += hand.fair is not None and not hand.fair.entropy
        elif ok is False:
            failed += 1
    name, count = shown_path(args.file), len(record.hands)
    if failed:
        out.line(f"{name}: NOT FAIR: {failed} of {count} deals do not follow from their proof")
        return ILLEGAL
    if not verified:
        out.line(f"{name}: nothing to verify: no hand holds a fair table")
        return ILLEGAL
    chosen = f"; {alone} of them chosen by the server alone (no player's entropy)" if alone else ""
    out.line(f"{name}: ok: {verified} of {count} deals verified{chosen}")
    return OK


def _hand_line(hand: HandRecord) -> tuple[str, bool | None]:
    """What was checked of one hand, and whether it held (None: nothing to check)."""
    fair = hand.fair
    if fair is None:
        return "no fair table: not checked", None
    commitment = fair.commitment[:SHOWN_COMMITMENT] + "…"
    seats = [seat.name for seat in ENTROPY_ORDER if seat in fair.entropy]
    given = (
        f"the entropy of {', '.join(seats)}"
        if seats
        else "no player's entropy: the server alone chose this deck"
    )
    try:
        fair.check(hand.deck)
    except FairError as error:
        return f"NOT FAIR: {error} (commitment {commitment})", False
    return (
        f"SHA-256 of the secret = commitment {commitment} ✓; "
        f"deck = derived from the secret and {given} ✓",
        True,
    )

"""Fair deals (``docs/table-protocol.md``): a deck derived, never drawn, and the proof of it.

The server draws a 32-byte ``secret`` for each hand and publishes its ``commitment`` (the
lowercase hex SHA-256 of it) before the players speak; each human seat may add entropy; the
deck then follows from both, so that nobody, the server included, can choose it once the
players have had their say. The hand's :class:`Fair` (the commitment, the secret and the
entropy) is revealed when the hand is over and kept in its record, where any reader checks it
(:meth:`Fair.check`). Only the standard library is used, so that anyone can redo the check.

The example of the specification:

>>> secret = bytes.fromhex("00112233445566778899aabbccddeeff" * 2)
>>> fair = Fair.of(secret, {Seat.S: bytes.fromhex("9f")})
>>> fair.commitment
'4773d12e2371bb935b9a0f5439b4a1c3ad3f2414b86980f8418d1cfabdfadfef'
>>> " ".join(card.text for card in fair.deck())
'8d Qs 9s 7h Ts Ac Td Jd 8s Jc Qh Kd Qc 7s Ad 8h 8c 9c Ah 9h Kh Tc Jh 7c 7d Qd Kc Js As Th Ks 9d'
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from baloot.core.cards import CARDS, Card
from baloot.core.seats import Seat

SECRET_BYTES: Final = 32
"""The length of a hand's secret, in bytes."""
MAX_ENTROPY_BYTES: Final = 64
"""The most bytes of entropy a seat may add (at least one)."""
COMMITMENT_BYTES: Final = 32
"""The length of a commitment (a SHA-256), in bytes."""
_ENTROPY_SIZES: Final = range(1, MAX_ENTROPY_BYTES + 1)
ENTROPY_ORDER: Final = (Seat.N, Seat.W, Seat.S, Seat.E)
"""The order in which the seats' entropy goes into the seed."""


class FairError(ValueError):
    """A fair table, a secret or an entropy that is not what the specification says."""


def commitment_of(secret: bytes) -> str:
    """The commitment to ``secret``: the lowercase hex SHA-256 of its bytes.

    >>> commitment_of(b"")[:16]
    'e3b0c44298fc1c14'
    """
    return hashlib.sha256(secret).hexdigest()


def derived_deck(secret: bytes, entropy: Mapping[Seat, bytes]) -> tuple[Card, ...]:
    """The deck, from the top, that ``secret`` and the seats' ``entropy`` give.

    ``seed`` = SHA-256(secret ‖ for each seat in the order N, W, S, E that gave entropy: its
    letter as one ASCII byte ‖ its bytes); a Fisher–Yates shuffle of the cards in their
    canonical order (As Ks … 7c) takes unbiased 32-bit words from the blocks
    SHA-256(seed ‖ i as 4 bytes big-endian), rejecting the words that would bias it.

    >>> derived_deck(bytes(32), {})[:4]
    (Card('Th'), Card('Kh'), Card('Kc'), Card('Kd'))
    """
    seed = hashlib.sha256(secret)
    for seat in ENTROPY_ORDER:
        if seat in entropy:
            seed.update(seat.name.encode("ascii") + entropy[seat])
    words = _words(seed.digest())
    cards = list(CARDS)
    for i in range(len(cards) - 1, 0, -1):
        bound = 2**32 - (2**32 % (i + 1))
        word = next(w for w in words if w < bound)
        j = word % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def _words(seed: bytes) -> Iterator[int]:
    """The stream of 32-bit big-endian words of SHA-256(seed ‖ i), i = 0, 1, …"""
    block = 0
    while True:
        digest = hashlib.sha256(seed + block.to_bytes(4, "big")).digest()
        for start in range(0, len(digest), 4):
            yield int.from_bytes(digest[start : start + 4], "big")
        block += 1


def read_hex(text: object, what: str, sizes: range) -> bytes:
    """Lowercase hex text of a number of bytes in ``sizes``, as bytes; a :class:`FairError`
    with one clear line otherwise.

    >>> read_hex("9f", "entropy", range(1, 65))
    b'\\x9f'
    >>> read_hex("9F", "entropy", range(1, 65))
    Traceback (most recent call last):
    ...
    baloot.records.fair.FairError: entropy must be 1 to 64 bytes as lowercase hex
    """
    size = f"{sizes.start} to {sizes.stop - 1} bytes" if len(sizes) > 1 else f"{sizes.start} bytes"
    problem = FairError(f"{what} must be {size} as lowercase hex")
    if not isinstance(text, str) or len(text) % 2 or len(text) // 2 not in sizes:
        raise problem
    if any(char not in "0123456789abcdef" for char in text):
        raise problem
    return bytes.fromhex(text)


def read_entropy(text: object) -> bytes:
    """One seat's entropy (1 to :data:`MAX_ENTROPY_BYTES` bytes as lowercase hex), as bytes."""
    return read_hex(text, "entropy", _ENTROPY_SIZES)


def read_secret(text: object, what: str = "secret") -> bytes:
    """A secret (:data:`SECRET_BYTES` bytes as lowercase hex), as bytes."""
    return read_hex(text, what, range(SECRET_BYTES, SECRET_BYTES + 1))


@dataclass(frozen=True, slots=True)
class Fair:
    """The proof of one hand's deck: the ``commitment`` published before the players spoke,
    the ``secret`` behind it (None while the hand is in play: it is never shown before), and
    each seat's ``entropy``."""

    commitment: str
    secret: bytes | None = None
    entropy: dict[Seat, bytes] = field(default_factory=dict)

    @classmethod
    def of(cls, secret: bytes, entropy: Mapping[Seat, bytes] | None = None) -> Fair:
        """The fair table of ``secret`` (and ``entropy``, none yet unless given)."""
        return cls(commitment_of(secret), secret, dict(entropy or {}))

    def with_entropy(self, seat: Seat, entropy: bytes) -> Fair:
        """This table with ``seat``'s entropy added (a seat's first word stays)."""
        if seat in self.entropy:
            return self
        return Fair(self.commitment, self.secret, {**self.entropy, seat: entropy})

    def deck(self) -> tuple[Card, ...]:
        """The deck that follows from the secret and the entropy."""
        if self.secret is None:
            raise FairError("the secret is not known yet")
        return derived_deck(self.secret, self.entropy)

    def check(self, deck: tuple[Card, ...]) -> None:
        """Refuse (a :class:`FairError`) a secret that is not the commitment's or a ``deck``
        that does not follow from it."""
        if self.secret is None:
            raise FairError("the secret is missing")
        if commitment_of(self.secret) != self.commitment:
            raise FairError("the SHA-256 of the secret is not the commitment")
        if self.deck() != deck:
            raise FairError("the deck does not follow from the secret and the entropy")

    def to_json(self, hand: int | None = None, *, reveal: bool = True) -> dict[str, Any]:
        """The table as a record or a message writes it: with the hand's number when one is
        given, and with the secret only when ``reveal`` (the hand is over).

        >>> fair = Fair.of(bytes(32), {Seat.S: b"\\x9f", Seat.N: b"\\x01"})
        >>> fair.to_json(2, reveal=False)["entropy"]
        {'N': '01', 'S': '9f'}
        >>> "secret" in fair.to_json(2, reveal=False)
        False
        """
        out: dict[str, Any] = {} if hand is None else {"hand": hand}
        out["commitment"] = self.commitment
        if reveal and self.secret is not None:
            out["secret"] = self.secret.hex()
        out["entropy"] = {
            seat.name: self.entropy[seat].hex() for seat in ENTROPY_ORDER if seat in self.entropy
        }
        return out

    @classmethod
    def from_json(cls, value: object) -> Fair:
        """A fair table as a record holds it (``commitment``, ``secret``, ``entropy``),
        checked for its form only (:meth:`check` checks it against the deck); a
        :class:`FairError` with one clear line otherwise.

        >>> Fair.from_json({"commitment": "ab", "secret": "00", "entropy": {}})
        Traceback (most recent call last):
        ...
        baloot.records.fair.FairError: commitment must be 32 bytes as lowercase hex
        """
        if not isinstance(value, dict):
            raise FairError("fair must be a table of commitment, secret and entropy")
        for key in value:
            if key not in ("commitment", "secret", "entropy"):
                raise FairError(f"fair: unknown key {str(key)[:20]!r}")
        for key in ("commitment", "secret"):
            if key not in value:
                raise FairError(f'fair: missing key "{key}"')
        read_hex(value["commitment"], "commitment", range(COMMITMENT_BYTES, COMMITMENT_BYTES + 1))
        secret = read_secret(value["secret"])
        given = value.get("entropy", {})
        if not isinstance(given, dict):
            raise FairError("fair: entropy must be a table of seats")
        entropy: dict[Seat, bytes] = {}
        for seat, text in given.items():
            if seat not in Seat.__members__:
                raise FairError(f"fair: entropy of an unknown seat {str(seat)[:8]!r}")
            entropy[Seat[seat]] = read_hex(text, f"the entropy of {seat}", _ENTROPY_SIZES)
        return cls(value["commitment"], secret, entropy)

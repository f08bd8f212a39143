"""THE state to search: the play of a hand from some point on, as plain ints, no objects built.

A :class:`~baloot.core.hand.Hand` keeps the whole history, its words and its actions; a search
that plays millions of cards needs only what decides the rest of the play: the four hands, the
trick in progress, the cards gone and won. :class:`Position` is that state, mutable, with
``play`` and ``undo``; its legal cards come from :func:`baloot.core.play_rules.play_mask`, the
one statement of the rules of play, so a position and its hand never disagree. The one way to
get it is :meth:`Hand.position() <baloot.core.hand.Hand.position>`; with ``stakes=True`` it
also carries what the play is scored for (:class:`Stakes`: the contract and its doubling, the
projects, trick 1's declarations still to come, the Baloot), which the solver needs for the
written score. A bot's playouts, the solver and the analysis all search this one state.

>>> import random
>>> from baloot.core.cards import Card, CardSet
>>> from baloot.core.hand import Hand
>>> hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
>>> _ = hand.apply("N sun")
>>> position = hand.position()
>>> position.to_act, str(CardSet(position.legal()))
(0, 'As Ks Qs Th 9h Td 9d 8d')
>>> position.play(Card.parse("As").index)
>>> position.to_act, str(CardSet(position.legal()))
(1, 'Js Ts 9s')
>>> position.undo()
>>> position.to_act
0
>>> position.playout(random.Random(1))
(90, 40)
>>> stakes = hand.position(stakes=True).stakes  # every seat holds a project, N's the best
>>> stakes.sun, stakes.level, stakes.options
(True, 1, ((3,), (0,), (1,), (2,)))
"""

from __future__ import annotations

import random
from typing import Final, NamedTuple

from baloot.core._declarations import Declarations
from baloot.core._play import put_card
from baloot.core._state import HOKUM, SUN
from baloot.core.cards import CARDS, LAST_TRICK_POINTS, card_points
from baloot.core.play_rules import ekka_mask, play_mask
from baloot.core.projects import Project
from baloot.core.rules import Rules
from baloot.core.seats import Team

#: What a play changes, saved for its undo: hands, trick, leader, seat to act, winning seat
#: and card, Ekka, cards gone, cards won, tricks won, tricks played, team of the last trick,
#: and the legal cards before it (so that the next card after an undo needs no new mask).
_Saved = tuple[
    tuple[int, int, int, int], tuple[int, ...], int, int, int, int, bool, int,
    tuple[int, int], tuple[int, int], int, int, int,
]  # fmt: skip


class Stakes(NamedTuple):
    """What the play of a position is scored for beyond its card points, as the engine scores
    it: the scoring context a search of the written score needs. Fixed for the rest of the
    play, except the declarations of trick 1, which are those still to come when the position
    was taken.

    ``declarers`` is the team that took the contract, ``level`` its doubling (1 plain);
    ``projects`` the game points and the raw points of each team's projects (NS, EW), should it
    score them; ``baloot`` the seat credited with Baloot (R11) when nobody, NS or EW scores the
    projects (-1: nobody); ``project_winner`` the seat whose declared project scores (R10.6,
    -1: none), final once trick 1 is over. In trick 1: ``declared`` the rank of each seat's
    declared best project (-1 for none), ``options`` the ranks each seat that has not yet
    declared nor played may still declare (one per declaration the engine allows it, valued by
    the best project the engine would take for it); a rank orders the engine's comparison keys
    of these projects, a tie going to the seat earlier from P1 (``order``: each seat's place
    from P1). After trick 1 they are empty.
    """

    rules: Rules
    sun: bool
    declarers: Team
    level: int
    projects: tuple[tuple[int, int], tuple[int, int]]
    baloot: tuple[int, int, int]
    project_winner: int
    declared: tuple[int, int, int, int]
    options: tuple[tuple[int, ...], ...]
    order: tuple[int, int, int, int]

    @property
    def pending(self) -> int:
        """The seats that may still declare in trick 1, as bits (seat ``s``: bit ``s``)."""
        return sum(1 << seat for seat, ranks in enumerate(self.options) if ranks)

    @classmethod
    def _of(cls, hand: Declarations, scratch: Declarations | None) -> Stakes:
        """The stakes of ``hand`` in its play phase; in trick 1 ``scratch`` is a copy of it,
        on which the declarations are read as if nobody had declared, so that none is
        filtered out yet (None after trick 1)."""
        sun = hand._kind == SUN
        declared, options = _SETTLED if scratch is None else _declarations(hand, scratch)
        return cls(
            hand._rules,
            sun,
            _TEAMS[hand._declarer & 1],
            hand._level,
            (
                _points(hand._reading(0) + hand._reading(2), sun),
                _points(hand._reading(1) + hand._reading(3), sun),
            ),
            (hand._baloot_seat(-1), hand._baloot_seat(0), hand._baloot_seat(1)),
            hand._project_winner(),
            declared,
            options,
            _PLACES_FROM[hand._p1],
        )


_TEAMS: Final = (Team.NS, Team.EW)
#: For each P1, each seat's place from it.
_PLACES_FROM: Final = tuple(
    ((0 - p1) & 3, (1 - p1) & 3, (2 - p1) & 3, (3 - p1) & 3) for p1 in range(4)
)


def _points(projects: tuple[Project, ...], sun: bool) -> tuple[int, int]:
    """The game points and the raw points of ``projects``."""
    if not projects:
        return (0, 0)
    return (sum(p.kind.game_points(sun) for p in projects), sum(p.kind.raw for p in projects))


#: The declarations once trick 1 is over: none to rank, none to come.
_SETTLED: Final[tuple[tuple[int, int, int, int], tuple[tuple[int, ...], ...]]] = (
    (-1, -1, -1, -1),
    ((), (), (), ()),
)


def _declarations(
    hand: Declarations, scratch: Declarations
) -> tuple[tuple[int, int, int, int], tuple[tuple[int, ...], ...]]:
    """In trick 1: each seat's declared rank and the ranks each seat still to play may
    declare (see :class:`Stakes`)."""
    played = {(hand._leader + i) & 3 for i in range(len(hand._trick))}
    scratch._declared = (None, None, None, None)
    keys: dict[int, list[tuple[int, int, int, int]]] = {}
    for seat in range(4):
        if seat in played or hand._declared[seat] is not None or not hand._reading(seat):
            continue
        tops = set()
        for action in scratch._declaration_options(seat):
            chosen = scratch._check_declaration(action)
            tops.add(scratch._project_key(chosen[0]))
        keys[seat] = sorted(tops)
    declared_keys = {
        seat: hand._project_key(projects[0])
        for seat, projects in enumerate(hand._declared)
        if projects
    }
    ranks = sorted({*declared_keys.values(), *(k for ks in keys.values() for k in ks)})
    rank = {key: i for i, key in enumerate(ranks)}
    declared = tuple(rank[declared_keys[s]] if s in declared_keys else -1 for s in range(4))
    options = tuple(tuple(rank[k] for k in keys.get(s, ())) for s in range(4))
    return (declared[0], declared[1], declared[2], declared[3]), options


class Position:
    """The play of a hand from some point on: hands, trick and cards gone as plain ints.

    Seats are ints 0..3 in play order from N, cards are indices 0..31 (mask bits). Declarations
    are not part of the play: they change the score, never the cards; what they may change is
    in :attr:`stakes`. ``play`` and ``undo`` are a few tuple operations; :meth:`copy` is one
    object; :meth:`key` identifies the rest of the play.
    """

    __slots__ = (
        "_ekka", "_gone", "_hands", "_last_team", "_leader", "_legal", "_locked",
        "_must_undertrump", "_partner_led_must_trump", "_rules", "_stack", "_stakes", "_to_act",
        "_trick", "_trick_no", "_tricks", "_trump", "_win_card", "_win_seat", "_won",
    )  # fmt: skip

    _hands: tuple[int, int, int, int]
    _trick: tuple[int, ...]
    _leader: int
    _to_act: int
    _win_seat: int
    _win_card: int
    _ekka: bool
    _gone: int
    _won: tuple[int, int]
    _tricks: tuple[int, int]
    _trick_no: int
    _last_team: int
    _trump: int
    _locked: bool
    _partner_led_must_trump: bool
    _must_undertrump: bool
    _rules: Rules
    _stakes: Stakes | None
    _legal: int
    _stack: list[_Saved]

    @classmethod
    def _of(cls, hand: Declarations, stakes: Stakes | None) -> Position:
        """The position of ``hand``, in its play phase or played out: for
        :meth:`Hand.position() <baloot.core.hand.Hand.position>`, which checks the phase."""
        rules = hand._rules
        position = cls.__new__(cls)
        position._hands = hand._hands
        position._trick = hand._trick
        position._leader = hand._leader
        position._to_act = hand._to_act
        position._win_seat = hand._win_seat
        position._win_card = hand._win_card
        position._ekka = hand._ekka
        position._gone = hand._gone
        position._won = hand._won
        position._tricks = hand._tricks
        position._trick_no = hand._trick_no
        position._last_team = hand._last_team
        position._trump = hand._trump if hand._kind == HOKUM else -1
        position._locked = hand._locked
        position._partner_led_must_trump = rules.partner_led_must_trump
        position._must_undertrump = rules.must_undertrump
        position._rules = rules
        position._stakes = stakes
        position._legal = -1
        position._stack = []
        return position

    def copy(self) -> Position:
        """An independent copy, its undo history included."""
        other = Position.__new__(Position)
        other._hands = self._hands
        other._trick = self._trick
        other._leader = self._leader
        other._to_act = self._to_act
        other._win_seat = self._win_seat
        other._win_card = self._win_card
        other._ekka = self._ekka
        other._gone = self._gone
        other._won = self._won
        other._tricks = self._tricks
        other._trick_no = self._trick_no
        other._last_team = self._last_team
        other._trump = self._trump
        other._locked = self._locked
        other._partner_led_must_trump = self._partner_led_must_trump
        other._must_undertrump = self._must_undertrump
        other._rules = self._rules
        other._stakes = self._stakes
        other._legal = self._legal
        other._stack = list(self._stack)
        return other

    @property
    def to_act(self) -> int:
        """The seat to play (0..3), or -1 when the hand is played out."""
        return self._to_act

    @property
    def is_over(self) -> bool:
        """True when all eight tricks are played."""
        return self._trick_no == 8

    @property
    def trump(self) -> int:
        """The trump suit (0..3), or -1 in Sun."""
        return self._trump

    @property
    def leader(self) -> int:
        """The seat that led the trick in progress (or leads the next one)."""
        return self._leader

    @property
    def trick(self) -> tuple[int, ...]:
        """The cards of the trick in progress, in playing order."""
        return self._trick

    @property
    def led_ekka(self) -> bool:
        """True when the trick in progress was led with an Ekka (R9.5)."""
        return self._ekka

    @property
    def locked(self) -> bool:
        """True when a locked double forbids leading trumps (R8)."""
        return self._locked

    @property
    def rules(self) -> Rules:
        """The variant flags of the hand."""
        return self._rules

    @property
    def stakes(self) -> Stakes | None:
        """What the play is scored for, when the position was taken with it
        (``hand.position(stakes=True)``), else None."""
        return self._stakes

    @property
    def winning(self) -> tuple[int, int]:
        """The seat and the card winning the trick in progress (meaningless before its lead).

        >>> from baloot.core.hand import Hand
        >>> hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
        >>> _ = hand.apply("N sun")
        >>> position = hand.position()
        >>> position.play(0)
        >>> position.winning
        (0, 0)
        """
        return self._win_seat, self._win_card

    @property
    def trick_number(self) -> int:
        """Completed tricks (0–8)."""
        return self._trick_no

    @property
    def gone(self) -> int:
        """The cards of the completed tricks, as a mask."""
        return self._gone

    def hand(self, seat: int) -> int:
        """The cards ``seat`` holds, as a mask."""
        return self._hands[seat]

    @property
    def hands(self) -> tuple[int, int, int, int]:
        """The cards each seat holds, as masks."""
        return self._hands

    def won(self) -> tuple[int, int]:
        """The cards (NS, EW) of the tricks each team took, as masks."""
        return self._won

    def legal(self) -> int:
        """The cards the seat to act may play, as a mask (0 when the hand is over)."""
        legal = self._legal
        if legal < 0:
            s = self._to_act
            if s < 0:
                return 0
            legal = self._legal = play_mask(
                self._hands[s],
                self._trick,
                bool((self._win_seat ^ s) & 1),
                self._win_card,
                self._ekka,
                self._trump,
                self._locked,
                self._partner_led_must_trump,
                self._must_undertrump,
            )
        return legal

    def ekka(self) -> int:
        """The legal cards that may be led with Ekka now (R9.5), as a mask.

        Only a Hokum lead after the first trick can be one: before it nothing has fallen.
        """
        if self._trick or self._trump < 0 or self._to_act < 0:
            return 0
        return ekka_mask(self.legal(), self._gone, self._trump)

    def play(self, card: int, ekka: bool = False) -> None:
        """Play ``card`` (an index) for the seat to act, announcing Ekka if ``ekka``.

        >>> from baloot.core.hand import Hand
        >>> hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
        >>> _ = hand.apply("N sun")
        >>> position = hand.position()
        >>> position.play(31)
        Traceback (most recent call last):
        ...
        ValueError: card 7c may not be played now
        """
        legal = self.legal()
        if not 0 <= card < 32 or not legal >> card & 1:
            name = CARDS[card] if 0 <= card < 32 else card
            raise ValueError(f"card {name} may not be played now")
        if ekka and (self._trick or not ekka_mask(legal, self._gone, self._trump) >> card & 1):
            raise ValueError(f"card {CARDS[card]} is not a valid Ekka lead now")
        self._stack.append(
            (
                self._hands, self._trick, self._leader, self._to_act, self._win_seat,
                self._win_card, self._ekka, self._gone, self._won, self._tricks,
                self._trick_no, self._last_team, legal,
            )
        )  # fmt: skip
        self._legal = -1
        if put_card(self, self._to_act, card, ekka):
            self._to_act = -1

    def undo(self) -> None:
        """Take back the last card played."""
        if not self._stack:
            raise ValueError("no card to take back")
        (
            self._hands, self._trick, self._leader, self._to_act, self._win_seat,
            self._win_card, self._ekka, self._gone, self._won, self._tricks,
            self._trick_no, self._last_team, self._legal,
        ) = self._stack.pop()  # fmt: skip

    def key(self) -> tuple[int, int, int, int, int, int, bool]:
        """What decides the rest of the play: two positions with equal keys have the same
        legal continuations and the same card points still to take, so a transposition
        table may key on it. The hands, the seat to act, the trick in progress packed in
        an int, and whether its lead was an Ekka.
        """
        packed = 0
        for card in self._trick:
            packed = packed << 6 | 32 | card
        h = self._hands
        return (h[0], h[1], h[2], h[3], self._to_act, packed, self._ekka)

    def card_points(self) -> tuple[int, int]:
        """Card points (NS, EW) taken so far, the last trick's 10 included at the end."""
        trump = None if self._trump < 0 else self._trump
        points = [card_points(self._won[0], trump), card_points(self._won[1], trump)]
        if self._last_team >= 0:
            points[self._last_team] += LAST_TRICK_POINTS
        return (points[0], points[1])

    def tricks(self) -> tuple[int, int]:
        """Tricks (NS, EW) taken so far."""
        return self._tricks

    def playout(self, rng: random.Random) -> tuple[int, int]:
        """The card points (NS, EW) of the whole hand when every remaining card is a legal
        card drawn by ``rng``; the position itself is unchanged."""
        other = self.copy()
        other._stack = []
        while other._to_act >= 0:
            legal = other.legal()
            choice = rng.randrange(legal.bit_count())
            while choice:
                legal &= legal - 1
                choice -= 1
            other.play((legal & -legal).bit_length() - 1)
        return other.card_points()

    def __repr__(self) -> str:
        if self._to_act < 0:
            return "<Position over>"
        trick = " ".join(CARDS[c].text for c in self._trick)
        return f"<Position trick {self._trick_no + 1}, seat {self._to_act} to play [{trick}]>"

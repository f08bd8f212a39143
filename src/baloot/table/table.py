"""A table: one match, who sits where, whose turn it is, and what each decision caused.

The terminal and the web server drive the same :class:`Table`. It is driven by events, not by
a blocking loop: a seat submits a decision (:meth:`Table.submit`), a bot seat is asked for
one (:meth:`Table.play_bot`), the humans say they are ready for the next hand
(:meth:`Table.ready`); each call returns the numbered :class:`Event` values it caused, and
:meth:`Table.waiting` says who is to act next. A human is a player like a bot: both go
through the engine's one door (``check``, then ``apply`` of what it checked, not checked
twice), and nothing is applied unless the engine accepts it.

>>> import random
>>> from baloot.core.rules import Rules
>>> class First:
...     name = "first"
...     def choose(self, view, legal):
...         return legal[0]
>>> players = {seat: Player.bot("first") for seat in Seat}
>>> players[Seat.S] = Player.human("Saad")
>>> table = Table.new(players, {seat: First() for seat in Seat}, seed=4)
>>> while table.waiting().kind is WaitKind.BOT:
...     _ = table.play_bot()
>>> table.waiting()
Waiting(kind=<WaitKind.HUMAN: 'human'>, seat=<Seat.S: 2>)
>>> [event.kind.value for event in table.submit(Seat.S, "S pass")]
['action']
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from baloot.core.actions import Action, Verb, without_comment
from baloot.core.checked import Checked
from baloot.core.claim import claim_order
from baloot.core.errors import IllegalActionError
from baloot.core.hand import Hand, shuffled_deck
from baloot.core.match import Match
from baloot.core.reasons import ReasonCode
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.core.vocabulary import Trick
from baloot.records.fair import Fair
from baloot.records.record import STAND_IN_KEY, Record
from baloot.records.replay import replay
from baloot.table.fair_deals import FairDeals
from baloot.table.players import Bot, Player, bot_action, bot_decided, tell_hand_over
from baloot.view.seat_view import SeatView, heard


class EventKind(Enum):
    """What an event reports (the message types of ``docs/table-protocol.md``)."""

    ACTION = "action"
    HAND_OVER = "hand-over"
    DEAL = "deal"
    UNDO = "undo"
    SEAT = "seat"
    SAID = "said"


@dataclass(frozen=True, slots=True)
class Event:
    """One numbered step of the table's history.

    ``v`` numbers the table's history (one sequence per table, the ``v`` of the table
    protocol); ``hand`` is the number of the hand it belongs to (from 1); ``action`` the
    action applied, as recorded (a listener hears it as :meth:`heard_by` says); ``trick`` the
    trick that action completed; ``seat`` the seat a ``seat`` event is about, or that spoke;
    ``after``, for an action of a claim (the hand played out at once, then told action by
    action), a copy of the hand just after that action, which no one plays on: the table has
    played it, so a listener never drives the engine to tell it.
    """

    v: int
    kind: EventKind
    hand: int
    action: Action | None = None
    trick: Trick | None = None
    seat: Seat | None = None
    after: Hand | None = field(default=None, repr=False, compare=False)

    def heard_by(self, audience: Seat | None) -> Action | None:
        """The action as ``audience`` (a seat, or None: a spectator) hears it: another seat's
        declaration as its kinds, never its cards (``docs/seat-view.md`` §1); None for an event
        that is no action. The one place the interfaces take an action's secrecy from.

        >>> event = Event(3, EventKind.ACTION, 1, Action.parse("S declare sira:AhKhQh"))
        >>> str(event.heard_by(Seat.S)), str(event.heard_by(Seat.W))
        ('S declare sira:AhKhQh', 'S declare sira')
        """
        return None if self.action is None else heard(self.action, audience)


class WaitKind(Enum):
    """What a table can wait for."""

    HUMAN = "human"
    BOT = "bot"
    NEXT = "next"
    DEAL = "deal"
    """The human seats' entropy for the first hand, before it is dealt (fair deals)."""
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Waiting:
    """What the table waits for: a human's or a bot's decision (``seat``), the humans' word
    that they are ready for the next hand, their entropy for the first, or nothing (the match
    is over)."""

    kind: WaitKind
    seat: Seat | None = None


class Table:
    """One match to 152 and its seats.

    ``players`` says who sits where; ``bots`` gives every seat a bot: the player of a bot
    seat, and for a human seat the stand-in that plays when the human claims the rest or runs
    out of time. ``version`` is the ``v`` of the last event of the table's history (0 before
    any): the one count of it, which the server's messages carry. ``fair``, when given, deals
    every hand from its :class:`~baloot.table.fair_deals.FairDeals`. Every
    decision a bot makes for a human seat is noted (:meth:`stand_ins`), so that the record
    credits no one with a bot's play.
    """

    def __init__(
        self,
        match: Match,
        players: Mapping[Seat, Player],
        bots: Mapping[Seat, Bot],
        seed: int | None = None,
        fair: FairDeals | None = None,
    ) -> None:
        if set(players) != set(Seat) or set(bots) != set(Seat):
            raise ValueError("a table needs a player and a bot for each of the four seats")
        self.match = match
        self.players = dict(players)
        self.bots = dict(bots)
        self.seed = seed
        self.fair = fair
        self.version = 0
        self._ready: set[Seat] = set()
        #: Each hand's positions (from 1) of the actions a bot decided for a human seat.
        self._stand_ins: dict[int, list[int]] = {}

    @classmethod
    def new(
        cls,
        players: Mapping[Seat, Player],
        bots: Mapping[Seat, Bot],
        rules: Rules | None = None,
        seed: int = 0,
        dealer: Seat | str | None = None,
        fair: FairDeals | None = None,
        entropy: Mapping[Seat, bytes] | None = None,
    ) -> Table:
        """A new match dealt from ``random.Random(seed)``: reproducible from its seed.

        The first dealer is ``dealer``, or drawn from the seed (:func:`first_dealer`). With
        ``fair``, every deck is derived instead (``docs/table-protocol.md``, "Fair deals"), and the
        first hand's secret is committed to now. That hand is dealt at once at a table of bots
        alone, and with ``entropy`` when it is given (a table kept before the first hand waited
        for its players); otherwise it waits (:attr:`WaitKind.DEAL`) for every human seat's
        entropy (:meth:`give_entropy`), or for :meth:`deal`: entropy always comes after the
        commitment it is mixed with.
        """
        first = first_dealer(seed) if dealer is None else Seat.coerce(dealer, "dealer")
        if fair is None:
            match = Match.new(rng=random.Random(seed), dealer=first, rules=rules, auto_deal=False)
            return cls(match, players, bots, seed)
        match = Match(rules, first, auto_deal=False)
        fair.commit(1)
        for seat, given in (entropy or {}).items():
            fair.add_entropy(1, seat, given)
        table = cls(match, players, bots, seed, fair)
        if entropy is not None or not table.humans:
            match.deal(fair.deal(1))
        return table

    @classmethod
    def resume(cls, record: Record, bots: Mapping[Seat, Bot], seed: int | None = None) -> Table:
        """A match record continued: its hands replayed (a :class:`RecordError` or
        :class:`ReplayError` if it does not replay), its players seated, and further hands
        dealt from ``random.Random(seed)`` as the match would have dealt them. A seat the
        record's ``players`` do not name is its bot's, as ``bots`` seats it; each hand's
        ``x_stand_in`` is kept (:meth:`stand_ins`)."""
        match = replay(record).match
        players_text = record.metadata.get("players", {})
        players = {
            seat: Player.parse(str(players_text[seat.name]))
            if seat.name in players_text
            else Player.bot(bots[seat].name)
            for seat in Seat
        }
        rng = random.Random(seed)
        for _ in record.hands:
            shuffled_deck(rng)  # the decks those hands had, drawn so that later decks follow
        match.rng, match.auto_deal = rng, False
        table = cls(match, players, bots, seed)
        for number, hand in enumerate(record.hands, 1):  # a stand-in's decisions stay marked
            marked = hand.metadata.get(STAND_IN_KEY)
            if isinstance(marked, list) and marked:
                table._stand_ins[number] = list(marked)
        return table

    # ------------------------------------------------------------------ what is going on

    @property
    def hand(self) -> Hand:
        """The hand in play (or the last one)."""
        return self.match.hand

    @property
    def hand_number(self) -> int:
        """The number of the hand in play, from 1."""
        return len(self.match.hands)

    @property
    def humans(self) -> tuple[Seat, ...]:
        """The seats of human players."""
        return tuple(seat for seat in Seat if self.players[seat].is_human)

    def waiting(self) -> Waiting:
        """Who or what the table waits for now."""
        if self.match.is_over:
            return Waiting(WaitKind.OVER)
        if not self.match.hands:
            return Waiting(WaitKind.DEAL)
        hand = self.hand
        seat = hand.to_act
        if seat is None:
            return Waiting(WaitKind.NEXT)
        kind = WaitKind.HUMAN if self.players[seat].is_human else WaitKind.BOT
        return Waiting(kind, seat)

    @property
    def awaiting_next(self) -> tuple[Seat, ...]:
        """The human seats whose word for the next hand is awaited."""
        if self.waiting().kind is not WaitKind.NEXT:
            return ()
        return tuple(seat for seat in self.humans if seat not in self._ready)

    def published_fair(self) -> tuple[int, Fair] | None:
        """The hand whose deal the players have their say on, and its fair table (whose
        secret may not be shown): the hand in play, or after a hand (or before the first) the
        next one; None for a table without fair deals or a match that is over."""
        if self.fair is None or self.match.is_over:
            return None
        number = self.hand_number + (1 if not self.match.hands or self.hand.is_over else 0)
        fair = self.fair.fairs.get(number)
        return None if fair is None else (number, fair)

    def wants_entropy(self, seat: Seat, number: int) -> bool:
        """Whether the human ``seat`` may give its entropy for hand ``number`` now: that
        hand's commitment is published, the hand is not dealt, and the seat gave none for it
        yet (``docs/table-protocol.md``)."""
        published = self.published_fair()
        return (
            published is not None
            and published[0] == number > self.hand_number
            and seat in self.humans
            and seat not in published[1].entropy
        )

    def give_entropy(self, seat: Seat, entropy: bytes) -> list[Event]:
        """``seat``'s entropy for the hand not yet dealt whose commitment is published (as
        :meth:`wants_entropy` allows); the first hand is dealt once every human seat gave its
        own, a later one when the humans are ready (:meth:`ready`)."""
        published = self.published_fair()
        assert self.fair is not None and published is not None
        self.fair.add_entropy(published[0], seat, entropy)
        first = self.fair.fairs[1]
        if self.waiting().kind is WaitKind.DEAL and all(s in first.entropy for s in self.humans):
            return self.deal()
        return []

    def revealed_fair(self, number: int) -> Fair | None:
        """The fair table of hand ``number`` once that hand is over (its secret may be shown
        then); None for a table without fair deals or a hand in play."""
        if self.fair is None or number > len(self.match.results):
            return None
        return self.fair.fairs.get(number)

    def view(self, seat: Seat | None) -> SeatView:
        """What ``seat`` (None: a spectator) may know of the hand in play."""
        return SeatView.of(self.hand, seat)

    def stand_ins(self, number: int) -> tuple[int, ...]:
        """The positions (from 1, in its ``actions``) of hand ``number``'s decisions that a
        bot made for a human seat: its stand-in's, when the human ran out of time or was
        away, and the other humans' cards after a claim. A record writes them as the hand's
        ``x_stand_in``."""
        return tuple(self._stand_ins.get(number, ()))

    # ------------------------------------------------------------------ decisions

    def submit(self, seat: Seat, action: Action | str) -> list[Event]:
        """Apply ``seat``'s decision if the rules allow it now; the events it caused.

        Raises :class:`~baloot.core.errors.NotationError` for text that is no action and
        :class:`~baloot.core.errors.IllegalActionError` for an action the rules forbid now;
        nothing is applied then. The seat the action is in the name of is checked first,
        whatever follows it (as the engine checks the turn before the verb): an action in
        another seat's name is ``not_your_seat``, also when the rest is no action or nobody may
        act now. The Baloot word is announced for the player.
        """
        named = _named_seat(action)
        if named is not None and named != seat:
            raise IllegalActionError.of(
                ReasonCode.NOT_YOUR_SEAT, str(action), seat=seat.name, other=named.name
            )
        self._check_playing()
        hand = self.hand
        return self._apply(hand.announced(hand.check(action)))

    def play_bot(self, seat: Seat | None = None, by: Bot | None = None) -> list[Event]:
        """Let the bot of the seat to act decide (for a human seat, its stand-in), or ``by``
        instead of it; the events it caused. ``seat``, when given, must be the seat to act."""
        to_act = self._bot_turn(seat)
        action = bot_action(self.hand, self.bots[to_act] if by is None else by)
        self._note_stand_in(action, by_bot=True)
        return self._apply(action)

    def play_decided(self, seat: Seat, action: Action) -> list[Event]:
        """Apply ``action``, what the bot of ``seat`` (the seat to act) decided elsewhere (a
        worker process, a cluster) in this very turn's view: checked and announced as
        :meth:`play_bot` does."""
        self._bot_turn(seat)
        return self._apply(bot_decided(self.hand, self.players[seat].name, action))

    def _bot_turn(self, seat: Seat | None) -> Seat:
        """The seat to act, which must be ``seat`` when one is given."""
        self._check_playing()
        to_act = self.hand.to_act
        assert to_act is not None
        if seat is not None and seat != to_act:
            raise IllegalActionError.of(ReasonCode.NOT_YOUR_TURN, seat=to_act.name)
        return to_act

    def apply_stored(self, action: Action | str, *, by_bot: bool = False) -> list[Event]:
        """Apply a decision taken before, as it was kept (a human's or a bot's, its Baloot word
        included; ``by_bot``: a bot's, noted as a stand-in's when its seat is a human's): how
        a stored table is brought back. The engine checks it like any other."""
        self._check_playing()
        checked = self.hand.check(action)
        self._note_stand_in(checked.action, by_bot=by_bot)
        return self._apply(checked)

    def ready(self, seat: Seat, entropy: bytes | None = None) -> list[Event]:
        """``seat`` is ready for the next hand, with its ``entropy`` for that hand's deal (at
        a table with fair deals); once every human is, the hand is dealt."""
        if self.match.is_over:
            raise IllegalActionError.of(ReasonCode.MATCH_OVER)
        if self.waiting().kind is not WaitKind.NEXT:
            raise IllegalActionError.of(ReasonCode.NOT_HAND_OVER)
        if self.fair is not None and entropy is not None:
            self.fair.add_entropy(self.hand_number + 1, seat, entropy)
        self._ready.add(seat)
        if self.awaiting_next:
            return []
        return self.deal()

    def deal(self) -> list[Event]:
        """Deal the next hand now (also when a human's word, or the first hand's entropy, is
        not awaited any longer)."""
        if self.waiting().kind not in (WaitKind.NEXT, WaitKind.DEAL):
            raise IllegalActionError.of(ReasonCode.NOT_HAND_OVER)
        if self.fair is None:
            self.match.deal()
        else:
            self.match.deal(self.fair.deal(self.hand_number + 1))
        self._ready.clear()
        return [self._event(EventKind.DEAL)]

    def undo(self, seat: Seat) -> list[Event]:
        """Take back ``seat``'s last decision in the hand in play and every bot action after
        it (a table with one human only); the undo event.

        Never across a hand-over (``hand_over``; ``nothing_to_undo`` before the seat's first
        decision of a hand), nor after the end of the match (``match_over``): the hand-over
        reveals the hand's fair secret, hence every card, and a match over has its record.
        """
        self._check_single_human()
        self._check_playing()
        if not any(a.seat == seat for a in self.hand.actions):
            raise IllegalActionError.of(ReasonCode.NOTHING_TO_UNDO)
        return self._take_back(seat)

    def undo_stored(self, seat: Seat) -> list[Event]:
        """An undo taken before, as it was kept: how a stored table is brought back (one
        kept before :meth:`undo` stopped at the hand-over comes back as it was played)."""
        if not any(a.seat == seat for hand in self.match.hands for a in hand.actions):
            raise IllegalActionError.of(ReasonCode.NOTHING_TO_UNDO)
        return self._take_back(seat)

    def _take_back(self, seat: Seat) -> list[Event]:
        while self.match.undo().seat != seat:
            pass
        self._ready.clear()
        marked, self._stand_ins = self._stand_ins, {}
        for number, hand in self.history():  # the stand-ins' decisions taken back stay out
            kept = [p for p in marked.get(number, ()) if p <= len(hand.actions)]
            if kept:
                self._stand_ins[number] = kept
        return [self._event(EventKind.UNDO)]

    def note_seat(self, seat: Seat) -> list[Event]:
        """Who plays ``seat``, or whether they are there, changed (a human left or came back,
        a bot stands in, an operator's program fails or recovers): the table's play is the
        same, but its history takes the change in its place, so that every listener hears it
        in order; the ``seat`` event."""
        return [self._event(EventKind.SEAT, seat=seat)]

    def note_said(self, seat: Seat) -> list[Event]:
        """``seat`` said something at the table (table talk): no part of the game, but a
        numbered step of the table's history, heard in order with the rest; the ``said``
        event."""
        return [self._event(EventKind.SAID, seat=seat)]

    def check_hint_allowed(self) -> None:
        """Hints, like undo, are only for a table with one human (``not_allowed``)."""
        self._check_single_human()

    def claim_holds(self, seat: Seat) -> bool:
        """True when ``seat`` is to lead and its own cards win every remaining trick for
        every deal of the cards it has not seen (Sawa), so that claiming reveals nothing."""
        return not self.match.is_over and self.view(seat).claim_holds

    def claim(self, seat: Seat) -> list[Event]:
        """Sawa: play the rest of the hand at once, ``seat``'s cards from the top and the
        others' by their bots (``claim_not_proven`` when the claim does not hold); each action
        event carries the hand just after it (:attr:`Event.after`)."""
        if not self.claim_holds(seat):
            raise IllegalActionError.of(ReasonCode.CLAIM_NOT_PROVEN, seat=seat.name)
        events: list[Event] = []
        hand = self.hand
        order = claim_order(hand.hand(seat), self.view(seat).trump)
        while not hand.is_over:
            if hand.to_act == seat:
                legal = hand.legal_actions()
                play = next(a for c in order for a in legal if a.card == c and not a.ekka)
                played = self._apply(hand.announced(play))
            else:
                played = self.play_bot()
            events += [replace(played[0], after=hand.copy()), *played[1:]]
        return events

    # ------------------------------------------------------------------ records

    def record(self, **metadata: Any) -> Record:
        """The match so far as a ``baloot/1`` record, its players named (the seed kept as
        ``x_seed`` so that a resumed match deals on as this one would), every hand with its
        fair table at a table with fair deals: once one hand holds it every hand must
        (``docs/records.md``), the one in play too (its record shows its deck anyway: a
        record is kept only once the table is no longer played). A hand in which a bot
        decided for a human seat says where (:meth:`stand_ins`) as its ``x_stand_in``: the
        players named are credited with none of those decisions."""
        players = {seat.name: self.players[seat].label for seat in Seat}
        extra = {} if self.seed is None else {"x_seed": self.seed}
        record = Record.of(self.match, players=players, **extra, **metadata)
        for number, hand in enumerate(record.hands, 1):
            if self.fair is not None:
                hand.fair = self.fair.fairs[number]
            if self.stand_ins(number):
                hand.metadata[STAND_IN_KEY] = list(self.stand_ins(number))
        return record

    def history(self) -> Iterator[tuple[int, Hand]]:
        """Every hand dealt so far, with its number."""
        return enumerate(self.match.hands, 1)

    # ------------------------------------------------------------------ inside

    def _check_playing(self) -> None:
        if self.match.is_over:
            raise IllegalActionError.of(ReasonCode.MATCH_OVER)
        if self.hand.is_over:
            raise IllegalActionError.of(ReasonCode.HAND_OVER)

    def _check_single_human(self) -> None:
        if len(self.humans) != 1:
            raise IllegalActionError.of(ReasonCode.NOT_ALLOWED)

    def _note_stand_in(self, action: Action, *, by_bot: bool) -> None:
        """Note ``action``, about to be applied, as a stand-in's when a bot decided it for a
        human seat."""
        if by_bot and self.players[action.seat].is_human:
            positions = self._stand_ins.setdefault(self.hand_number, [])
            positions.append(len(self.hand.actions) + 1)

    def _apply(self, decided: Action | Checked) -> list[Event]:
        """Apply ``decided`` (an action :meth:`Hand.check` checked is not checked again)."""
        hand = self.hand
        done = hand.trick_number
        action = self.match.apply(decided)
        trick = None
        if action.verb is Verb.PLAY and hand.trick_number > done:
            trick = hand.tricks()[-1]
        events = [self._event(EventKind.ACTION, action, trick)]
        if hand.is_over:
            if self.fair is not None and not self.match.is_over:
                self.fair.commit(self.hand_number + 1)  # before anyone speaks of the next
            events.append(self._event(EventKind.HAND_OVER))
            tell_hand_over(hand, self.bots)
        return events

    def _event(
        self,
        kind: EventKind,
        action: Action | None = None,
        trick: Trick | None = None,
        seat: Seat | None = None,
    ) -> Event:
        self.version += 1
        return Event(self.version, kind, self.hand_number, action, trick, seat)


def _named_seat(action: Action | str) -> Seat | None:
    """The seat ``action`` is in the name of, read before anything else of it, as the engine
    reads an action's text (its first word, a ``#`` comment left out); None when that word is
    no seat (the engine then says why the text is no action).

    >>> _named_seat("W garbage"), _named_seat("N#x pass"), _named_seat("fly"), _named_seat(" ")
    (<Seat.W: 1>, <Seat.N: 0>, None, None)
    """
    if isinstance(action, Action):
        return action.seat
    words = without_comment(action).split() if isinstance(action, str) else []
    return Seat.__members__.get(words[0]) if words else None


def first_dealer(seed: int) -> Seat:
    """The first dealer of the match of ``seed`` when none is named.

    ``baloot play --seed N`` deals its first hand with it, and ``baloot deal --seed N`` shows
    that same hand: the dealer comes from its own ``random.Random(seed)``, apart from the
    match's shuffles.

    >>> [first_dealer(seed).name for seed in range(4)]
    ['E', 'W', 'N', 'W']
    """
    return Seat(random.Random(seed).randrange(4))

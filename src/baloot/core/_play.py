"""Card play (R9): legal cards as bit masks, Ekka, tricks, and why a card is illegal."""

from __future__ import annotations

from typing import Final, Protocol

from baloot.core import _lookup as T
from baloot.core._declarations import Declarations
from baloot.core._state import HOKUM
from baloot.core.actions import Action
from baloot.core.cards import CARDS
from baloot.core.errors import IllegalActionError
from baloot.core.play_rules import beats, ekka_mask, play_mask
from baloot.core.reasons import ReasonCode

_PLAY_BY_BYTE: Final = T.PLAY_BY_BYTE


class TrickState(Protocol):
    """The fields a card played changes: the hand and :class:`~baloot.core.position.Position`
    keep them under these names (``_trump`` is -1 in Sun)."""

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


def put_card(state: TrickState, s: int, c: int, ekka: bool) -> bool:
    """Put card ``c`` of seat ``s`` on the trick of ``state`` (an Ekka lead if ``ekka``);
    after the fourth card give the trick to its winner, who leads next (R9.2). True when that
    was the eighth trick (the team of the last trick is then set).

    The one mechanism of trick taking, for the hand and for a search position."""
    h = state._hands
    bit = 1 << c
    if s == 0:
        state._hands = (h[0] ^ bit, h[1], h[2], h[3])
    elif s == 1:
        state._hands = (h[0], h[1] ^ bit, h[2], h[3])
    elif s == 2:
        state._hands = (h[0], h[1], h[2] ^ bit, h[3])
    else:
        state._hands = (h[0], h[1], h[2], h[3] ^ bit)
    trick = state._trick
    if not trick:
        state._ekka = ekka
        state._win_seat = s
        state._win_card = c
    elif beats(c, state._win_card, state._trump):
        state._win_seat = s
        state._win_card = c
    trick = state._trick = (*trick, c)
    if len(trick) < 4:
        state._to_act = (s + 1) & 3
        return False
    winner = state._win_seat
    bits = (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])
    state._gone |= bits
    won, tricks = state._won, state._tricks
    if winner & 1:
        state._won = (won[0], won[1] | bits)
        state._tricks = (tricks[0], tricks[1] + 1)
    else:
        state._won = (won[0] | bits, won[1])
        state._tricks = (tricks[0] + 1, tricks[1])
    state._trick = ()
    state._trick_no += 1
    state._leader = state._to_act = winner
    if state._trick_no < 8:
        return False
    state._last_team = winner & 1
    return True


class Play(Declarations):
    """The play of the eight tricks."""

    __slots__ = ()

    def _play_mask(self, s: int) -> int:
        """The cards ``s`` may play now (R9.3–R9.4), as a mask."""
        rules = self._rules
        return play_mask(
            self._hands[s],
            self._trick,
            bool((self._win_seat ^ s) & 1),
            self._win_card,
            self._ekka,
            self._trump if self._kind == HOKUM else -1,
            self._locked,
            rules.partner_led_must_trump,
            rules.must_undertrump,
        )

    def _ekka_valid(self, card: int) -> bool:
        """R9.5: a Hokum lead of a side-suit non-Ace whose every better card is gone."""
        return (
            self._kind == HOKUM
            and not self._trick
            and card >> 3 != self._trump
            and card & 7 != T.ACE_RANK
            and T.PLAIN_ABOVE[card] & ~self._gone == 0
        )

    def _ekka_mask(self, held: int) -> int:
        """The cards of ``held`` that are a valid Ekka lead now (R9.5)."""
        return ekka_mask(held, self._gone, self._trump)

    def _legal_plays(self, s: int) -> tuple[Action, ...]:
        mask = self._legal_mask = self._play_mask(s)
        spades, hearts, diamonds, clubs = _PLAY_BY_BYTE[s]
        plays = (
            spades[mask & 0xFF]
            + hearts[(mask >> 8) & 0xFF]
            + diamonds[(mask >> 16) & 0xFF]
            + clubs[mask >> 24]
        )
        if self._trick_no == 0:
            if self._declared[s] is None and self._reading(s):
                return (*self._declaration_options(s), *plays)
        elif self._kind == HOKUM and not self._trick:
            ekka_mask = self._ekka_mask(mask)
            if ekka_mask:
                ekka = T.PLAY_EKKA[s]
                with_ekka: list[Action] = []
                for play in plays:
                    with_ekka.append(play)
                    card = play.card
                    if card is not None and ekka_mask >> card.index & 1:
                        with_ekka.append(ekka[card.index])
                return tuple(with_ekka)
        return plays

    def _check_play(self, action: Action) -> int:
        """The card that ``action`` plays, or raise the rule of R9 that it breaks."""
        s = int(action.seat)
        name = action.seat.name
        card = action.card
        if card is None:
            raise self._fail(action, ReasonCode.NAME_CARD, seat=name)
        c = card.index
        if not self._hands[s] >> c & 1:
            raise self._fail(action, ReasonCode.NOT_HELD, seat=name, card=card.text)
        allowed = self._play_mask(s)
        if not allowed >> c & 1:
            raise self._explain_play(action, c, allowed)
        if action.ekka and not self._ekka_valid(c):
            raise self._explain_ekka(action, c)
        if action.baloot and not self._baloot_due(s, c):
            raise self._fail(action, ReasonCode.BALOOT_NOT_DUE, seat=name)
        return c

    def _baloot_due(self, s: int, c: int) -> bool:
        """True if card ``c`` is the second of the King and Queen of trumps that ``s`` plays
        (R11.3, #15)."""
        if self._kind != HOKUM:
            return False
        pair = T.KING_QUEEN[self._trump]
        other = pair & ~(1 << c)
        return bool(pair >> c & 1 and other & self._full[s] and not other & self._hands[s])

    def _explain_play(self, action: Action, c: int, allowed: int) -> IllegalActionError:
        """The error of ``action`` playing card ``c``, which is not among ``allowed``."""
        s = int(action.seat)
        name = action.seat.name
        if not self._trick:
            return self._fail(action, ReasonCode.LEAD_TRUMP_LOCKED, seat=name)
        led = self._trick[0] >> 3
        if allowed & ~T.SUIT_MASKS[led] == 0:
            if self._kind == HOKUM and led == self._trump and c >> 3 == led:
                return self._fail(
                    action, ReasonCode.TRUMP_HIGHER, seat=name, card=CARDS[self._win_card].text
                )
            return self._fail(action, ReasonCode.MUST_FOLLOW, seat=name, suit=T.SUIT_NAMES[led])
        if self._win_card >> 3 == self._trump and allowed & T.TRUMP_ABOVE[self._win_card]:
            return self._fail(
                action, ReasonCode.OVER_TRUMP, seat=name, card=CARDS[self._win_card].text
            )
        if self._win_seat == self._leader and not (self._win_seat ^ s) & 1:
            return self._fail(
                action, ReasonCode.TRUMP_PARTNER_LED, seat=name, card=CARDS[self._trick[0]].text
            )
        return self._fail(action, ReasonCode.MUST_TRUMP, seat=name, suit=T.SUIT_NAMES[led])

    def _explain_ekka(self, action: Action, c: int) -> IllegalActionError:
        """The error of ``action`` announcing an Ekka that card ``c`` does not make."""
        name = action.seat.name
        if self._kind != HOKUM:
            return self._fail(action, ReasonCode.EKKA_SUN, seat=name)
        if self._trick:
            return self._fail(action, ReasonCode.EKKA_NOT_LEADING, seat=name)
        if c >> 3 == self._trump:
            return self._fail(action, ReasonCode.EKKA_TRUMP, seat=name)
        if c & 7 == T.ACE_RANK:
            return self._fail(action, ReasonCode.EKKA_ACE, seat=name)
        higher = ", ".join(
            CARDS[i].text
            for i in range(32)
            if T.PLAIN_ABOVE[c] >> i & 1 and not self._gone >> i & 1
        )
        return self._fail(
            action, ReasonCode.EKKA_HIGHER_OUT, seat=name, card=CARDS[c].text, higher=higher
        )

    def _play(self, s: int, c: int, ekka: bool) -> None:
        """Put card ``c`` of seat ``s`` on the trick; close the trick after four cards."""
        if put_card(self, s, c, ekka):
            self._annul()

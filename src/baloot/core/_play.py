"""Card play (R9): legal cards as bit masks, Ekka, tricks, and why a card is illegal."""

from __future__ import annotations

from typing import Final, Protocol

from baloot.core import _lookup as T
from baloot.core._declarations import Declarations
from baloot.core._state import HOKUM
from baloot.core.actions import Action
from baloot.core.cards import CARDS
from baloot.core.errors import IllegalActionError

_TRUMP_STRENGTH: Final = T.TRUMP_RANK_STRENGTH
_PLAIN_STRENGTH: Final = T.PLAIN_RANK_STRENGTH
_SUIT_MASKS: Final = T.SUIT_MASKS
_TRUMP_ABOVE: Final = T.TRUMP_ABOVE
_PLAY_BY_BYTE: Final = T.PLAY_BY_BYTE


def play_mask(
    held: int,
    trick: tuple[int, ...],
    opponent_winning: bool,
    win_card: int,
    ekka: bool,
    trump: int,
    locked: bool,
    partner_led_must_trump: bool,
    must_undertrump: bool,
) -> int:
    """The cards of ``held`` that may be played on ``trick`` (R9.3–R9.4), as a mask.

    The one statement of the rules of play: the hand, a search position and what the history
    proves about a seat's hidden cards all ask it. ``trick`` holds the card indices played so
    far; ``opponent_winning`` whether the card winning it (``win_card``) is the other team's;
    ``ekka`` whether the lead was announced as an Ekka; ``trump`` the trump suit, or -1 in Sun;
    ``locked`` whether a locked double forbids leading trumps.

    >>> from baloot.core.cards import Card, CardSet
    >>> held = CardSet.parse("Ah 7h 9s").mask
    >>> played = Card.parse("Kh").index
    >>> str(CardSet(play_mask(held, (played,), True, played, False, -1, False, True, False)))
    'Ah 7h'
    """
    if trump < 0:
        if not trick:
            return held
        return held & _SUIT_MASKS[trick[0] >> 3] or held
    tm = _SUIT_MASKS[trump]
    if not trick:
        if locked and held & ~tm:
            return held & ~tm
        return held
    led = trick[0] >> 3
    trumps = held & tm
    if led == trump:
        if not trumps:
            return held
        if opponent_winning:
            higher = trumps & _TRUMP_ABOVE[win_card]
            if higher:
                return higher
        return trumps
    follow = held & _SUIT_MASKS[led]
    if follow:
        return follow
    if not trumps:
        return held
    if not opponent_winning:
        if len(trick) == 2 and partner_led_must_trump and trick[0] & 7 != 0 and not ekka:
            return trumps
        return held
    if win_card >> 3 == trump:
        higher = trumps & _TRUMP_ABOVE[win_card]
        if higher:
            return higher
        return trumps if must_undertrump else held
    return trumps


def beats(card: int, win_card: int, trump: int) -> bool:
    """True when ``card`` takes the trick from ``win_card``, the card winning it (R9.2): a
    higher card of its suit, or a trump on a side suit (``trump`` is -1 in Sun).

    >>> from baloot.core.cards import Card
    >>> jack, ace, seven = (Card.parse(c).index for c in ("Jh", "Ah", "7s"))
    >>> beats(jack, ace, trump=-1), beats(jack, ace, trump=1), beats(seven, ace, trump=0)
    (False, True, True)
    """
    if card >> 3 == win_card >> 3:
        table = _TRUMP_STRENGTH if card >> 3 == trump else _PLAIN_STRENGTH
        return bool(table[card] > table[win_card])
    return card >> 3 == trump


def ekka_mask(held: int, gone: int, trump: int) -> int:
    """The cards of ``held`` that are a valid Ekka lead (R9.5) once ``gone`` have fallen:
    per side suit of a Hokum in ``trump`` (-1 in Sun: none), the best card still out, if held
    and not an Ace.

    >>> from baloot.core.cards import CardSet
    >>> gone = CardSet.parse("Ac Tc").mask
    >>> str(CardSet(ekka_mask(CardSet.parse("Kc Qc Jh").mask, gone, trump=1)))
    'Kc'
    """
    if trump < 0:
        return 0
    out = ~gone
    found = 0
    for suit in range(4):
        if suit != trump:
            best = T.BEST_PLAIN[(out >> (suit << 3)) & 0xFF]
            if best > 0 and held >> (best + (suit << 3)) & 1:
                found |= 1 << (best + (suit << 3))
    return found


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
            raise self._fail(action, "name_card", seat=name)
        c = card.index
        if not self._hands[s] >> c & 1:
            raise self._fail(action, "not_held", seat=name, card=card.text)
        allowed = self._play_mask(s)
        if not allowed >> c & 1:
            raise self._explain_play(action, c, allowed)
        if action.ekka and not self._ekka_valid(c):
            raise self._explain_ekka(action, c)
        if action.baloot and not self._baloot_due(s, c):
            raise self._fail(action, "baloot_not_due", seat=name)
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
            return self._fail(action, "lead_trump_locked", seat=name)
        led = self._trick[0] >> 3
        if allowed & ~T.SUIT_MASKS[led] == 0:
            if self._kind == HOKUM and led == self._trump and c >> 3 == led:
                return self._fail(
                    action, "trump_higher", seat=name, card=CARDS[self._win_card].text
                )
            return self._fail(action, "must_follow", seat=name, suit=T.SUIT_NAMES[led])
        if self._win_card >> 3 == self._trump and allowed & T.TRUMP_ABOVE[self._win_card]:
            return self._fail(action, "over_trump", seat=name, card=CARDS[self._win_card].text)
        if self._win_seat == self._leader and not (self._win_seat ^ s) & 1:
            return self._fail(
                action, "trump_partner_led", seat=name, card=CARDS[self._trick[0]].text
            )
        return self._fail(action, "must_trump", seat=name)

    def _explain_ekka(self, action: Action, c: int) -> IllegalActionError:
        """The error of ``action`` announcing an Ekka that card ``c`` does not make."""
        name = action.seat.name
        if self._kind != HOKUM:
            return self._fail(action, "ekka_sun", seat=name)
        if self._trick:
            return self._fail(action, "ekka_not_leading", seat=name)
        if c >> 3 == self._trump:
            return self._fail(action, "ekka_trump", seat=name)
        if c & 7 == T.ACE_RANK:
            return self._fail(action, "ekka_ace", seat=name)
        higher = ", ".join(
            CARDS[i].text
            for i in range(32)
            if T.PLAIN_ABOVE[c] >> i & 1 and not self._gone >> i & 1
        )
        return self._fail(action, "ekka_higher_out", seat=name, card=CARDS[c].text, higher=higher)

    def _play(self, s: int, c: int, ekka: bool) -> None:
        """Put card ``c`` of seat ``s`` on the trick; close the trick after four cards."""
        if put_card(self, s, c, ekka):
            self._annul()

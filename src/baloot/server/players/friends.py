"""Friends: asking, accepting, removing, blocking; who is online; invitations to a seat.

Every method acts for one player, ``me`` (the signed-in player's id: another player's id is
never read from a request), on another named by their name. The state between two players is
read from the rows of ``friends`` (:mod:`~baloot.server.players.social_schema`):

- asking someone who asked me accepts (a ``friends`` row each way); asking again is no news;
- asking someone who blocks me is answered as asking a name nobody has (404 "no such
  player"): a blocked player cannot tell a block from a deleted or mistyped account;
- blocking ends a friendship or a request either way, and withdraws the invitations between
  the two; asking someone I block is refused until I unblock them;
- removing ends a friendship or a request either way (blocks stay).

A player is online when they asked anything of these endpoints or of the queue's in the last
:data:`ONLINE_WINDOW` seconds (the page polls every 30 s while open), or when a seat bound to
their account is at a table in play at which a human was seen as recently (the idle clock's
note, :mod:`~baloot.server.idle`): both are in the database, so every node answers alike.

An invitation gives a friend one human seat of a table in play, with that seat's token (which
only whoever created the table holds); accepting it binds the seat to the friend's account
and answers the seat's link, in one transaction.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Final

from baloot.server.players.names import name_key
from baloot.server.transactions import Run, StorageError, Transactions

#: How recent (seconds) a request or a table's human presence is for a player to be online.
ONLINE_WINDOW: Final = 120.0
#: The fewest seconds between two notes of a player's presence (a write each).
SEEN_EVERY: Final = 15.0
#: How long an invitation lasts unanswered, in seconds.
INVITE_LIFE: Final = 3600.0
#: The most friends, requests and blocks one player may have (each kind counted together).
MAX_FRIENDS: Final = 500


class SocialError(StorageError):
    """A request about friends, invitations or the queue refused: ``status`` is the HTTP
    status (4xx) and the text one line for the player (a refusal of the store's, so that it
    reaches its caller as it is, from the writer thread)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Friend:
    """Another player as ``me`` sees them: ``state`` is ``friends``, ``asked`` (I asked
    them), ``asking`` (they asked me) or ``blocked`` (I block them); ``online`` is known
    for friends only (False for the others)."""

    name: str
    state: str
    since: float
    online: bool


@dataclass(frozen=True, slots=True)
class Invite:
    """An invitation to a seat: who sent it (``sender``), to whom (``friend``), the table
    and seat, and when."""

    id: str
    sender: str
    friend: str
    table: str
    seat: str
    created: float


class Friends(Transactions):
    """The players' friends, blocks, presence and invitations (a part of the Store)."""

    # -- friends ------------------------------------------------------------------------

    def ask_friend(self, me: str, name: str, when: float) -> str:
        """Ask the player ``name`` to be friends, or accept their request: the state now
        (``asked`` or ``friends``)."""
        with self._transaction() as run:
            other = _other(run, me, name)
            theirs = _state(run, other, me)
            mine = _state(run, me, other)
            if theirs == "blocked":
                raise SocialError("no such player", 404)  # as for a name nobody has
            if mine == "blocked":
                raise SocialError("you block this player: unblock them first", 409)
            if mine in ("friends", "asked") and theirs != "asked":
                return mine
            if theirs == "asked":
                _set(run, me, other, "friends", when)
                _set(run, other, me, "friends", when)
                return "friends"
            _room_for_one(run, me)
            _set(run, me, other, "asked", when)
            return "asked"

    def remove_friend(self, me: str, name: str) -> None:
        """End a friendship or a request with ``name``, either way (no news if none)."""
        with self._transaction() as run:
            other = _other(run, me, name)
            _unfriend(run, me, other)

    def block(self, me: str, name: str, when: float) -> None:
        """Block ``name``: any friendship or request ends, invitations between the two are
        withdrawn, and they are never seated with me by the quick match."""
        with self._transaction() as run:
            other = _other(run, me, name)
            _unfriend(run, me, other)
            run(
                "DELETE FROM invites WHERE (player_id = ? AND friend_id = ?)"
                " OR (player_id = ? AND friend_id = ?)",
                (me, other, other, me),
            )
            if _state(run, me, other) != "blocked":
                _room_for_one(run, me)
                _set(run, me, other, "blocked", when)

    def unblock(self, me: str, name: str) -> None:
        """Stop blocking ``name`` (no news if I did not)."""
        with self._transaction() as run:
            other = _other(run, me, name)
            run(
                "DELETE FROM friends WHERE player_id = ? AND friend_id = ? AND state = 'blocked'",
                (me, other),
            )

    def friends_of(self, me: str, now: float) -> list[Friend]:
        """Everyone ``me`` has a state with, by state then name; friends with whether they
        are online at ``now``."""
        since = now - ONLINE_WINDOW
        with self._transaction() as run:
            rows = run(
                "SELECT p.name, f.state, f.since, 0 FROM friends f"
                " JOIN players p ON p.id = f.friend_id"
                " WHERE f.player_id = ? AND f.state IN ('friends', 'asked', 'blocked')"
                " UNION ALL SELECT p.name, 'asking', f.since, 1 FROM friends f"
                " JOIN players p ON p.id = f.player_id"
                " WHERE f.friend_id = ? AND f.state = 'asked'",
                (me, me),
            )
            online = {
                str(row[0])
                for row in run(
                    "SELECT p.name FROM friends f JOIN players p ON p.id = f.friend_id"
                    " WHERE f.player_id = ? AND f.state = 'friends' AND ("
                    " EXISTS (SELECT 1 FROM player_seen s WHERE s.player_id = p.id"
                    " AND s.seen >= ?) OR EXISTS (SELECT 1 FROM seat_players b"
                    " JOIN tables t ON t.id = b.table_id WHERE b.player_id = p.id"
                    " AND t.status = 'playing' AND t.last_seen >= ?))",
                    (me, since, since),
                )
            }
        order = {"asking": 0, "friends": 1, "asked": 2, "blocked": 3}
        found = [
            Friend(str(name), str(state), float(at), state == "friends" and name in online)
            for name, state, at, _ in rows
        ]
        return sorted(found, key=lambda friend: (order[friend.state], name_key(friend.name)))

    def seen_now(self, me: str, when: float) -> None:
        """Note that ``me`` asked something at ``when`` (at most once every
        :data:`SEEN_EVERY` seconds is written)."""
        with self._transaction() as run:
            run(
                "INSERT INTO player_seen (player_id, seen) VALUES (?, ?)"
                " ON CONFLICT (player_id) DO UPDATE SET seen = excluded.seen"
                " WHERE player_seen.seen < ?",
                (me, when, when - SEEN_EVERY),
            )

    # -- invitations --------------------------------------------------------------------

    def invite(self, me: str, name: str, table_id: str, seat: str, token: str, when: float) -> str:
        """Invite the friend ``name`` to ``seat`` of the table in play ``table_id``, whose
        token the caller checked is ``token``: the invitation's id. The seat's earlier
        invitation is replaced; a seat bound to an account is refused."""
        with self._transaction() as run:
            friend = _player_named(run, name)
            if friend is None or friend == me or _state(run, me, friend) != "friends":
                raise SocialError("no such friend", 404)
            if not run("SELECT 1 FROM tables WHERE id = ? AND status = 'playing'", (table_id,)):
                raise SocialError("no such table in play", 404)
            if run("SELECT 1 FROM seat_players WHERE table_id = ? AND seat = ?", (table_id, seat)):
                raise SocialError("that seat is taken", 409)
            run("DELETE FROM invites WHERE table_id = ? AND seat = ?", (table_id, seat))
            id_ = secrets.token_urlsafe(9)
            run(
                "INSERT INTO invites (id, player_id, friend_id, table_id, seat, token, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (id_, me, friend, table_id, seat, token, when),
            )
        return id_

    def invites_of(self, me: str, now: float) -> list[Invite]:
        """The invitations ``me`` sent or received that still hold, the newest first."""
        with self._transaction() as run:
            run("DELETE FROM invites WHERE created < ?", (now - INVITE_LIFE,))
            rows = run(
                "SELECT i.id, s.name, f.name, i.table_id, i.seat, i.created FROM invites i"
                " JOIN players s ON s.id = i.player_id JOIN players f ON f.id = i.friend_id"
                " JOIN tables t ON t.id = i.table_id"
                " WHERE (i.player_id = ? OR i.friend_id = ?) AND t.status = 'playing'"
                " ORDER BY i.created DESC, i.id",
                (me, me),
            )
        return [
            Invite(str(a), str(b), str(c), str(d), str(e), float(f)) for a, b, c, d, e, f in rows
        ]

    def accept_invite(self, me: str, invite_id: str, now: float) -> tuple[str, str, str]:
        """Accept the invitation ``invite_id`` sent to ``me``: the seat is bound to my account
        and the invitation used up; the table, the seat and its token."""
        with self._transaction() as run:
            rows = run(
                "SELECT i.player_id, i.table_id, i.seat, i.token, t.status FROM invites i"
                " JOIN tables t ON t.id = i.table_id"
                " WHERE i.id = ? AND i.friend_id = ? AND i.created >= ?",
                (invite_id, me, now - INVITE_LIFE),
            )
            if not rows or _state(run, me, str(rows[0][0])) != "friends":
                raise SocialError("no such invitation", 404)
            _, table_id, seat, token, status = (str(value) for value in rows[0])
            if status != "playing":
                raise SocialError("the table is no longer in play", 410)
            bound = run(
                "SELECT player_id FROM seat_players WHERE table_id = ? AND seat = ?",
                (table_id, seat),
            )
            if bound and bound[0][0] != me:
                raise SocialError("that seat is taken", 409)
            if not bound:
                run(
                    "INSERT INTO seat_players (table_id, seat, player_id) VALUES (?, ?, ?)",
                    (table_id, seat, me),
                )
            run("DELETE FROM invites WHERE id = ?", (invite_id,))
        return table_id, seat, token

    def drop_invite(self, me: str, invite_id: str) -> None:
        """Decline an invitation sent to ``me``, or withdraw one ``me`` sent (no news if
        there is none)."""
        with self._transaction() as run:
            run(
                "DELETE FROM invites WHERE id = ? AND (player_id = ? OR friend_id = ?)",
                (invite_id, me, me),
            )


def _player_named(run: Run, name: str) -> str | None:
    """The id of the account called ``name``, None for none (or a deleted one)."""
    rows = run("SELECT id FROM players WHERE name_key = ? AND deleted IS NULL", (name_key(name),))
    return str(rows[0][0]) if rows else None


def _other(run: Run, me: str, name: str) -> str:
    """The id of the other player called ``name``; 404 for nobody, 400 for oneself."""
    other = _player_named(run, name)
    if other is None:
        raise SocialError("no such player", 404)
    if other == me:
        raise SocialError("that is your own name", 400)
    return other


def _state(run: Run, player: str, other: str) -> str | None:
    """The state of ``player``'s row about ``other``, None for none."""
    rows = run("SELECT state FROM friends WHERE player_id = ? AND friend_id = ?", (player, other))
    return str(rows[0][0]) if rows else None


def _set(run: Run, player: str, other: str, state: str, when: float) -> None:
    """Make ``player``'s row about ``other`` say ``state`` since ``when``."""
    run(
        "INSERT INTO friends (player_id, friend_id, state, since) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (player_id, friend_id) DO UPDATE"
        " SET state = excluded.state, since = excluded.since",
        (player, other, state, when),
    )


def _unfriend(run: Run, me: str, other: str) -> None:
    """Drop the friendship and the requests between the two (blocks stay)."""
    run(
        "DELETE FROM friends WHERE state IN ('asked', 'friends') AND"
        " ((player_id = ? AND friend_id = ?) OR (player_id = ? AND friend_id = ?))",
        (me, other, other, me),
    )


def _room_for_one(run: Run, me: str) -> None:
    """Refuse a new row beyond :data:`MAX_FRIENDS` (a 409)."""
    if int(run("SELECT COUNT(*) FROM friends WHERE player_id = ?", (me,))[0][0]) >= MAX_FRIENDS:
        raise SocialError(f"at most {MAX_FRIENDS} friends, requests and blocks", 409)

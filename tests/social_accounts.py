"""Accounts and sessions made straight in the database, for the quick match's and the friends'
tests: quicker than hashing a password for each player through the endpoints."""

from __future__ import annotations

from dataclasses import dataclass

from baloot.server.players.sessions import new_token, session_id
from baloot.server.storage import Store


@dataclass(frozen=True)
class Account:
    """A player made for a test: their id and name, the session's cookie and CSRF token."""

    id: str
    name: str
    token: str
    csrf: str

    def headers(self, csrf: bool = True) -> dict[str, str]:
        """The headers of a request in this player's session (with its CSRF header)."""
        cookie = {"cookie": f"baloot_session={self.token}"}
        return {**cookie, "x-csrf-token": self.csrf} if csrf else cookie


def add_player(store: Store, name: str, *, session: bool = True) -> Account:
    """A new account called ``name`` (with no password: nobody signs in with it), signed in
    (a session, as signing in opens one) unless ``session`` is False."""
    player = store.register(name, "", 0.0)
    token, csrf = new_token(), new_token()
    kept = session_id(token)
    if session and kept is not None:
        store.open_session(kept, player.id, csrf, 0.0, 1e12)
    return Account(player.id, name, token, csrf)

"""Accounts and sessions made straight in the database, for the quick match's and the friends'
tests (before the accounts' endpoints are in the same tree)."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from baloot.server.players.friends import name_key
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
    """A new account called ``name``, signed in (a session row) unless ``session`` is
    False."""
    id_ = secrets.token_urlsafe(12)
    token, csrf = secrets.token_urlsafe(24), secrets.token_urlsafe(16)
    with store._transaction() as run:
        run(
            "INSERT INTO players (id, name, name_key, password, created) VALUES (?, ?, ?, '', 0)",
            (id_, name, name_key(name)),
        )
        if session:
            digest = hashlib.sha256(token.encode()).hexdigest()
            run(
                "INSERT INTO sessions (id, player_id, csrf, created, expires)"
                " VALUES (?, ?, ?, 0, 1e12)",
                (digest, id_, csrf),
            )
    return Account(id_, name, token, csrf)

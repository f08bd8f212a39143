"""Players: accounts and sessions, ratings, profiles and leaderboards, the quick match and
friends (``docs/players-api.md``).

:mod:`~baloot.server.players.names` (what a name may be, and its key),
:mod:`~baloot.server.players.passwords` (argon2id, off the event loop),
:mod:`~baloot.server.players.accounts` (the store's part that keeps players, sessions and
seats), :mod:`~baloot.server.players.sessions` (the cookie, the signed-in player, CSRF),
:mod:`~baloot.server.players.account_api` (the endpoints and the ``/account`` page);
:mod:`~baloot.server.players.ratings` and :mod:`~baloot.server.players.rating_store` (who a
match rates, and the ratings kept), :mod:`~baloot.server.players.profile_api` (profiles and
leaderboards); :mod:`~baloot.server.players.friends`,
:mod:`~baloot.server.players.quick_match` and :mod:`~baloot.server.players.social_api` (friends,
the quick match and their endpoints).
"""

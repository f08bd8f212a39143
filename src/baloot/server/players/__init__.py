"""Players: accounts and sessions, and what the server keeps of each player.

:mod:`~baloot.server.players.names` (what a name may be, and its key),
:mod:`~baloot.server.players.passwords` (argon2id, off the event loop),
:mod:`~baloot.server.players.accounts` (the store's part that keeps players, sessions and
seats), :mod:`~baloot.server.players.sessions` (the cookie, the signed-in player, CSRF) and
:mod:`~baloot.server.players.account_api` (the endpoints and the ``/account`` page).
"""

"""Swiss tournaments for pairs, served: kept in the store, their rounds played at the
server's own tables, and their endpoints and pages (``docs/tournaments.md``).

The pairing and the scoring are :mod:`baloot.tournaments`' alone: this package keeps what
they read (pairs, games, results) and moves the rounds on in transactions.
"""

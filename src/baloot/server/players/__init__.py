"""The players: accounts and their sessions, ratings, the quick-match queue and friends
(the server layer; ``docs/players-api.md``)."""

"""Players: accounts and sessions, ratings, profiles and leaderboards, the quick match and
friends (``docs/players-api.md``)."""

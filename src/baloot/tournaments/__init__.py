"""Swiss tournaments for pairs: their pairing and their scoring, pure (docs/tournaments.md).

Pure because a tournament's rounds must be paired the same way by any node that reads its
rows: nothing here touches storage, the clock or the network.
"""

"""The rules core: cards, seats, rules, actions, the hand and the match (R1–R14).

It depends on the standard library only and imports nothing above it; everything else in
pybaloot (records, the seat view, the table, bots, the command line) stands on it.
"""

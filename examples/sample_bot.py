#!/usr/bin/env python3
"""A bot for pybaloot in plain Python: it speaks baloot-bot/1 on standard input and output.

Run it against the heuristic bot:  baloot arena examples/sample_bot.py heuristic --matches 2
It plays the first legal action, or a random one with --seed N. Anything written to standard
error is the bot's log; standard output carries the protocol only, one JSON object a line.
"""

import json
import random
import sys


def main() -> None:
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else None
    rng = random.Random(seed) if seed is not None else None
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            print(f"playing {message['seat']} under {message['rules']}", file=sys.stderr)
            answer = {"type": "ready", "name": "sample", "author": "pybaloot"}
        elif message["type"] == "act":
            legal = message["view"]["legal"]
            action = rng.choice(legal) if rng else legal[0]
            answer = {"type": "action", "id": message["id"], "action": action}
        elif message["type"] == "bye":
            return
        else:  # "over", and any type a later version may add
            continue
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()

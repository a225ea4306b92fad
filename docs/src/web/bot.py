"""A bot for wuerfelglueck's game protocol: it plays seat A against the server's `safe`
player, always moving its frontmost piece that may move. Standard library only.

    python3 bot.py http://127.0.0.1:8080
"""

import json
import sys
import urllib.request


def call(url, body=None):
    """GETs `url`, or POSTs `body` as JSON; returns the answer as a dict."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def progress(name, goal_fields):
    """How far a field (in the mover's numbering) is along: B, A, 1..39, then a, b, ..."""
    if name == "B":
        return -1
    if name == "A":
        return 0
    if name.isdigit():
        return int(name)
    return 1000 + ord(name) - ord("a")


def play(server, a="1..6", b="1..6"):
    game = call(f"{server}/api/games", {"a": a, "b": b, "profile": "choice", "opponent": "safe"})
    while game["end"] is None:
        # The server rolled for us: pick among the legal moves of that roll.
        best = max(game["legal"], key=lambda m: progress(m["from"], game["goal_fields"]))
        game = call(f"{server}/api/games/{game['id']}/move", {"from": best["from"]})
    return game


if __name__ == "__main__":
    game = play(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080")
    print(f"{game['end']}: winner {game['winner']} after {len(game['turns'])} rolls")

"""The book's example bot plays a whole game against a real `wuerfelglueck serve`."""

import importlib.util
import re
import subprocess

import pytest


@pytest.fixture()
def server(cli, root):
    import os
    from pathlib import Path

    binary = Path(os.environ.get("WUERFELGLUECK_BIN", root / "target" / "release" / "wuerfelglueck"))
    process = subprocess.Popen([str(binary), "serve", "--bind", "127.0.0.1:0"],
                               stderr=subprocess.PIPE, text=True)
    try:
        line = process.stderr.readline()
        address = re.search(r"http://[0-9.:]+", line)
        assert address, line
        yield address.group(0)
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_example_bot_plays_a_game_to_its_end(root, server):
    spec = importlib.util.spec_from_file_location("bot", root / "docs" / "src" / "web" / "bot.py")
    bot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bot)
    game = bot.play(server)
    assert game["end"] == "won"
    assert game["winner"] in ("A", "B")
    mine = [t for t in game["turns"] if t["player"] == "A" and t["choices"]]
    assert mine, "the bot made decisions"
    # Every decision the bot made moved its frontmost piece among the legal ones.
    for turn in mine:
        froms = [c.split("->")[0] for c in turn["choices"]]
        best = max(froms, key=lambda f: bot.progress(f, game["goal_fields"]))
        assert turn["move"]["from"] == best

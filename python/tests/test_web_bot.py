"""The book's example bot plays a whole game against a real `wuerfelglueck serve`."""

import importlib.util

import pytest
from conftest import serving


@pytest.fixture()
def server(binary):
    with serving(binary) as address:
        yield address


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

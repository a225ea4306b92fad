"""The pages in a real browser (headless Chromium through Selenium), each test twice: served
by `wuerfelglueck serve`, and as the static site (web/build-static.sh: WebAssembly in a Web
Worker, from a plain static file server). Rank three dice and compare the heat map with the
server's API, play a game by clicking pieces, ask the advisor, review the game, show a search
landscape. Screenshots go to target/screenshots/ (the static site's with a `static-` prefix).

Skipped without selenium, /usr/bin/chromium or /usr/bin/chromedriver (CI installs them)."""

import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import serving, static_site

selenium = pytest.importorskip("selenium", reason="selenium is not installed")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.expected_conditions import staleness_of  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    pytest.skip("browser tests need Debian's chromium and chromium-driver "
                "(/usr/bin/chromium, /usr/bin/chromedriver)", allow_module_level=True)

SMALL = {"track": 16, "offset": 8, "pieces": 2, "goal-fields": 2}
DICE = ["1..6", "2..7", "1,1,1,6,6,6"]


@pytest.fixture(scope="module")
def server(binary):
    # One job at a time: a cancelled job must free its slot for the next request.
    with serving(binary, "--max-jobs", "1") as address:
        yield address


@pytest.fixture(scope="module", params=["server", "static"])
def site(request, server, root):
    """The pages' address: the server's, or the static site's."""
    if request.param == "server":
        yield server + "/"
    else:
        with static_site(root) as address:
            yield address + "/index.html"


class Shots:
    """Where screenshots go: target/screenshots/NAME, with a prefix for the static site."""

    def __init__(self, folder, prefix):
        self.folder, self.prefix = folder, prefix

    def __truediv__(self, name):
        return self.folder / (self.prefix + name)


@pytest.fixture(scope="module")
def shots(root, site):
    folder = root / "target" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return Shots(folder, "" if "/index.html" not in site else "static-")


@pytest.fixture(scope="module")
def browser(site):
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,900"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_window_size(1280, 900)
    driver.get(site)
    try:
        yield driver
    finally:
        driver.quit()


def api(server, command, options):
    request = urllib.request.Request(f"{server}/api/{command}", data=json.dumps(options).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


def wait(driver, condition, seconds=30):
    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: condition(d))


def tab(driver, name):
    driver.find_element(By.CSS_SELECTOR, f"nav button[data-tab={name}]").click()


def test_a_duel_named_in_the_address_shows_the_command_lines_counts(browser, site, cli):
    """`#duel=...&games=...&seed=...` plays the duel when the page opens and shows its JSON
    in #result: the same counts as the command line (they do not depend on the threads, nor
    on whether the library runs natively or in WebAssembly)."""
    d = browser
    d.get(site + "#duel=1..6,1,1,1,6,6,6&games=20000&seed=1")
    d.refresh()  # a new address with only another fragment does not reload the page
    result = wait(d, lambda d: d.find_elements(By.ID, "result"), seconds=60)[0]
    shown = json.loads(result.get_attribute("textContent"))
    expected = cli("duel", "--a", "1..6", "--b", "1,1,1,6,6,6", "--games", "20000",
                   "--seed", "1", "--format", "json")
    for key in ("a_wins", "b_wins", "unfinished", "games", "board", "profile"):
        assert shown[key] == expected[key], key
    # Two dice that cannot be told apart are refused with a sentence, not guessed.
    d.get(site + "#duel=1,2,3,4,5,6&games=100")
    d.refresh()
    wait(d, lambda d: "not two dice" in d.find_element(By.ID, "duel-out").text)
    d.get(site)
    d.refresh()


def test_rank_shows_the_matrix_the_api_computes(browser, server, shots):
    d = browser
    tab(d, "dice")
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#example option[value='wuerfel0.txt']"))
    Select(d.find_element(By.ID, "example")).select_by_value("wuerfel0.txt")
    assert len(d.find_element(By.ID, "dice-text").get_attribute("value").split("\n")) == 6
    # The page opens on the task's board.
    board = Select(d.find_element(By.ID, "board-preset")).first_selected_option.text
    assert board == "40/20/4/4", board
    text = d.find_element(By.ID, "dice-text")
    text.clear()
    text.send_keys("\n".join(DICE))
    Select(d.find_element(By.ID, "board-preset")).select_by_visible_text("16/8/2/2")
    Select(d.find_element(By.ID, "stop-kind")).select_by_value("games")
    for field, value in (("stop-value", "4000"), ("seed", "3")):
        box = d.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    d.find_element(By.ID, "rank-go").click()
    wait(d, lambda d: "done" in d.find_element(By.ID, "rank-msg").text
         or "err" in d.find_element(By.ID, "rank-msg").get_attribute("class"))
    assert "done" in d.find_element(By.ID, "rank-msg").text, d.find_element(By.ID, "rank-msg").text
    cells = d.find_elements(By.CSS_SELECTOR, "#heatmap rect.cell")
    assert len(cells) == 9
    shown = [[None] * 3 for _ in range(3)]
    for cell in cells:
        p = cell.get_attribute("data-p")
        shown[int(cell.get_attribute("data-i"))][int(cell.get_attribute("data-j"))] = float(p) if p else None
    expected = api(server, "rank", {"die": DICE, **SMALL, "profile": "bwinf", "seed": 3, "games": 4000})
    assert shown == expected["matrix"]
    # Every pair with its interval and its games that never end, without hovering.
    pairs = d.find_elements(By.CSS_SELECTOR, "#pairs tr.pair")
    assert len(pairs) == 3
    for row, (i, j) in zip(pairs, [(0, 1), (0, 2), (1, 2)]):
        cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
        assert cells[0] == f"{DICE[i]} vs {DICE[j]}"
        # Three decimals (JavaScript rounds a tie up, Python to even: compare the numbers).
        shown_p = float(cells[1])
        assert abs(shown_p - expected["matrix"][i][j]) <= 0.0005 + 1e-12
        shown_lo, shown_hi = map(float, cells[2].strip("[]").split(", "))
        lo, hi = expected["ci95"][i][j]
        assert abs(shown_lo - lo) <= 0.0005 + 1e-12 and abs(shown_hi - hi) <= 0.0005 + 1e-12
        never = expected["unfinished"][i][j]
        assert cells[3] == ("0" if never == 0 else f"{100 * never:.1f} %")
    assert "95 % interval" in d.find_element(By.ID, "rank-help").get_attribute("textContent")
    rows = d.find_elements(By.CSS_SELECTOR, "#ranking tr")
    assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in rows[1:]] == \
        [x["die"] for x in expected["ranking"]]

    # A duel of two of them, with both conditional figures.
    d.find_element(By.ID, "duel-go").click()
    wait(d, lambda d: d.find_elements(By.ID, "duel-p"))
    assert "P(A wins) = 0." in d.find_element(By.ID, "duel-p").text
    assert "If A starts" in d.find_element(By.ID, "duel-out").text
    d.set_window_size(1280, 1250)
    d.execute_script("window.scrollTo(0, 0)")
    d.save_screenshot(str(shots / "dice.png"))
    d.set_window_size(1280, 900)


def test_cancel_stops_a_ranking(browser, server, site):
    d = browser
    tab(d, "dice")
    Select(d.find_element(By.ID, "board-preset")).select_by_visible_text("40/20/4/4")
    Select(d.find_element(By.ID, "stop-kind")).select_by_value("precision")
    box = d.find_element(By.ID, "stop-value")
    box.clear()
    box.send_keys("0.00005")
    d.find_element(By.ID, "rank-go").click()
    wait(d, lambda d: "games" in d.find_element(By.ID, "rank-msg").text)
    d.find_element(By.ID, "rank-cancel").click()
    wait(d, lambda d: d.find_element(By.ID, "rank-msg").text == "Cancelled.", 5)
    assert d.find_element(By.ID, "rank-go").is_enabled()
    if "/index.html" in site:
        # The static site ended the ranking's worker: the page runs the next command.
        Select(d.find_element(By.ID, "stop-kind")).select_by_value("games")
        d.find_element(By.ID, "duel-go").click()
        wait(d, lambda d: d.find_elements(By.ID, "result"), seconds=60)
    # The server stopped the job: its only slot is free again within seconds.
    deadline = time.time() + 10
    while "/index.html" not in site:
        try:
            api(server, "duel", {"a": "1..6", "b": "2..7", "games": 100})
            break
        except urllib.error.HTTPError as busy:
            assert busy.code == 503 and time.time() < deadline, busy
            time.sleep(0.1)
    Select(d.find_element(By.ID, "board-preset")).select_by_visible_text("16/8/2/2")


def test_exact_cells_are_marked(browser, shots):
    d = browser
    tab(d, "dice")
    Select(d.find_element(By.ID, "board-preset")).select_by_visible_text("16/8/2/2")
    d.find_element(By.ID, "exact").click()
    try:
        d.find_element(By.ID, "rank-go").click()
        wait(d, lambda d: "done" in d.find_element(By.ID, "rank-msg").text
             or "err" in d.find_element(By.ID, "rank-msg").get_attribute("class"))
        assert "done" in d.find_element(By.ID, "rank-msg").text, d.find_element(By.ID, "rank-msg").text
        cells = d.find_elements(By.CSS_SELECTOR, "#heatmap rect.cell")
        methods = [c.get_attribute("data-method") for c in cells]
        assert methods.count("exact") == 6
        assert len(d.find_elements(By.CSS_SELECTOR, "#heatmap circle")) == 6
        d.save_screenshot(str(shots / "dice-exact.png"))
    finally:
        d.find_element(By.ID, "exact").click()


def new_game(d, board="16/8/2/2"):
    tab(d, "board")
    Select(d.find_element(By.ID, "game-board")).select_by_visible_text(board)
    Select(d.find_element(By.ID, "game-opponent")).select_by_visible_text("frontmost")
    Select(d.find_element(By.ID, "game-profile")).select_by_visible_text("choice")
    old = d.find_element(By.CSS_SELECTOR, "#game-svg circle")
    d.find_element(By.ID, "game-go").click()
    WebDriverWait(d, 10).until(staleness_of(old))
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#game-svg .piece.movable")
         or d.find_element(By.ID, "game-status").get_attribute("data-winner"))


def test_the_advisor_values_every_legal_move(browser, shots):
    d = browser
    for _ in range(20):  # a game that ends before the first decision is rare; start another
        new_game(d)
        if d.find_elements(By.CSS_SELECTOR, "#game-svg .piece.movable"):
            break
    buttons = d.find_elements(By.CSS_SELECTOR, "#game-legal button")
    legal = [b.get_attribute("data-from") for b in buttons]
    assert len(legal) >= 2
    pieces = d.find_elements(By.CSS_SELECTOR, "#game-svg .piece.movable")
    movable = {c.get_attribute("data-from") for c in pieces}
    assert movable == set(legal)
    d.find_element(By.ID, "advise-go").click()
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#advice-table td.value"))
    values = [v.text for v in d.find_elements(By.CSS_SELECTOR, "#advice-table td.value")]
    assert len(values) == len(legal)
    assert all(0 <= float(v) <= 1 for v in values)
    assert "Exact" in d.find_element(By.ID, "advice").text


def test_a_game_against_frontmost_is_played_to_its_end_by_clicking(browser, shots):
    d = browser
    status = d.find_element(By.ID, "game-status")
    clicks = 0
    deadline = time.time() + 30
    while not status.get_attribute("data-winner"):
        assert time.time() < deadline, "the game did not end in 30 s"
        pieces = d.find_elements(By.CSS_SELECTOR, "#game-svg .piece.movable")
        assert pieces, status.text
        if clicks == 0:
            d.save_screenshot(str(shots / "board.png"))
        pieces[0].click()
        clicks += 1
        WebDriverWait(d, 10).until(staleness_of(pieces[0]))  # the board is drawn anew
    assert clicks >= 1
    assert re.search(r"Game over: [AB] wins", status.text), status.text
    d.save_screenshot(str(shots / "board-end.png"))


def test_the_review_lists_the_decisions_of_the_game(browser, shots):
    d = browser
    tab(d, "review")
    d.find_element(By.ID, "review-text").clear()
    Select(d.find_element(By.ID, "review-player")).select_by_visible_text("A")
    d.find_element(By.ID, "review-go").click()
    wait(d, lambda d: "decisions of A" in d.find_element(By.ID, "review-msg").text
         or "err" in d.find_element(By.ID, "review-msg").get_attribute("class"))
    message = d.find_element(By.ID, "review-msg").text
    assert "decisions of A" in message, message
    decided = int(re.search(r"(\d+) decisions", message).group(1))
    rows = d.find_elements(By.CSS_SELECTOR, "#review-table tr.decision")
    assert len(rows) == decided >= 1
    assert all("exact" in r.text for r in rows)
    # Only the rows charged as mistakes beyond doubt are marked, as many as the message says.
    mistakes = int(re.search(r"mistakes beyond doubt: (\d+)", message).group(1))
    assert len(d.find_elements(By.CSS_SELECTOR, "#review-table tr.bad")) == mistakes
    assert d.find_elements(By.CSS_SELECTOR, "#review-svg polyline")
    d.save_screenshot(str(shots / "review.png"))


def test_the_learned_player_reviewed_against_itself_makes_no_mistake_beyond_doubt(browser):
    """A game of `strong` against itself on the task's board, reviewed by simulation: the
    moves are compared on the same dice and the game's comparisons together at 95 %, so a
    good player is not charged for noise (the gaps shown within noise are not counted)."""
    d = browser
    tab(d, "board")
    Select(d.find_element(By.ID, "rp-players")).select_by_visible_text("2")
    Select(d.find_element(By.ID, "rp-board")).select_by_visible_text("40/20/4/4")
    Select(d.find_element(By.ID, "rp-profile")).select_by_visible_text("choice")
    for field in ("rp-a", "rp-b"):
        box = d.find_element(By.ID, field)
        box.clear()
        box.send_keys("1..6")
    Select(d.find_element(By.ID, "rp-sa")).select_by_visible_text("strong")
    Select(d.find_element(By.ID, "rp-sb")).select_by_visible_text("strong")
    d.find_element(By.ID, "rp-go").click()
    wait(d, lambda d: "roll 0 of" in d.find_element(By.ID, "rp-status").text)
    d.find_element(By.ID, "rp-review").click()
    Select(d.find_element(By.ID, "review-player")).select_by_visible_text("A")
    games = d.find_element(By.ID, "review-games")
    games.clear()
    games.send_keys("400")
    # Plain rollouts: their noise must not be charged. (Less the luck of the rolls, the
    # rollouts are precise enough to find the learned player's real mistakes, gaps of 0.02
    # to 0.05 in the value, so a clean review is not expected there.)
    reduce = d.find_element(By.ID, "review-reduce")
    if reduce.is_selected():
        reduce.click()
    d.find_element(By.ID, "review-go").click()
    wait(d, lambda d: "decisions of A" in d.find_element(By.ID, "review-msg").text
         or "err" in d.find_element(By.ID, "review-msg").get_attribute("class"), seconds=240)
    message = d.find_element(By.ID, "review-msg").text
    assert "mistakes beyond doubt: 0," in message, message
    assert "comparisons together at 95 %" in message, message
    assert not d.find_elements(By.CSS_SELECTOR, "#review-table tr.bad")


def test_a_game_at_a_table_of_four_is_played_to_its_end_by_clicking(browser, shots):
    """Seat A at a table of four against three `capture` players: the board shows four
    seats, the players that play only games of two are not offered, the advisor (games of
    two) is off, and the game is played to its end by clicking."""
    d = browser
    tab(d, "board")
    Select(d.find_element(By.ID, "game-players")).select_by_visible_text("4")
    assert d.find_element(By.ID, "game-d").is_displayed()
    assert not d.find_element(By.ID, "game-seat").is_displayed()
    offered = {o.get_attribute("value"): o.is_enabled()
               for o in Select(d.find_element(By.ID, "game-opponent")).options}
    assert not offered["optimal"] and not offered["strong-search"] and offered["strong"]
    Select(d.find_element(By.ID, "game-board")).select_by_visible_text("16/8/2/2")
    Select(d.find_element(By.ID, "game-opponent")).select_by_visible_text("capture")
    old = d.find_element(By.CSS_SELECTOR, "#game-svg circle")
    d.find_element(By.ID, "game-go").click()
    WebDriverWait(d, 10).until(staleness_of(old))
    status = d.find_element(By.ID, "game-status")
    deadline = time.time() + 60
    shot = False
    while not status.get_attribute("data-winner"):
        assert time.time() < deadline, "the game did not end in 60 s"
        assert not d.find_element(By.ID, "advise-go").is_enabled()
        pieces = d.find_elements(By.CSS_SELECTOR, "#game-svg .piece.movable")
        assert pieces, status.text
        if not shot:
            # Four seats' labels on the board.
            labels = {t.text for t in d.find_elements(By.CSS_SELECTOR, "#game-svg text")}
            assert {"A", "B", "C", "D"} <= labels, labels
            d.save_screenshot(str(shots / "board-4.png"))
            shot = True
        pieces[-1].click()
        WebDriverWait(d, 10).until(staleness_of(pieces[-1]))
    assert re.search(r"Game over: [ABCD] wins", status.text), status.text
    Select(d.find_element(By.ID, "game-players")).select_by_visible_text("2")


def test_replay_and_search_pages(browser, root, shots):
    d = browser
    tab(d, "board")
    Select(d.find_element(By.ID, "rp-board")).select_by_visible_text("16/8/2/2")
    d.find_element(By.ID, "rp-go").click()
    wait(d, lambda d: "roll 0 of" in d.find_element(By.ID, "rp-status").text)
    d.find_element(By.ID, "rp-fwd").click()
    assert "roll 1 of" in d.find_element(By.ID, "rp-status").text
    # The replayed game (choice, frontmost against capture) reviewed from B's side.
    d.find_element(By.ID, "rp-review").click()
    Select(d.find_element(By.ID, "review-player")).select_by_visible_text("B")
    d.find_element(By.ID, "review-go").click()
    wait(d, lambda d: "decisions of B" in d.find_element(By.ID, "review-msg").text
         or "err" in d.find_element(By.ID, "review-msg").get_attribute("class"))
    assert "decisions of B" in d.find_element(By.ID, "review-msg").text
    d.save_screenshot(str(shots / "review-replay.png"))
    tab(d, "board")
    # Four players, stepped forward a few rolls: each seat plays its strategy, and one that
    # cannot play this table (no learned player for 16/8/2/2 at four) is refused with why.
    Select(d.find_element(By.ID, "rp-players")).select_by_visible_text("4")
    for seat in "abcd":
        Select(d.find_element(By.ID, f"rp-s{seat}")).select_by_visible_text("strong")
    d.find_element(By.ID, "rp-go").click()
    wait(d, lambda d: "err" in d.find_element(By.ID, "rp-status").get_attribute("class"))
    refusal = d.find_element(By.ID, "rp-status").text
    assert "no learned player" in refusal
    # A sentence for the page: no command-line flag, no program to run.
    assert "--" not in refusal and "wuerfelglueck train" not in refusal, refusal
    assert refusal[0].isupper() and refusal.endswith("."), refusal
    for seat, strategy in zip("abcd", ["capture", "safe", "rearmost", "frontmost"]):
        Select(d.find_element(By.ID, f"rp-s{seat}")).select_by_visible_text(strategy)
    d.find_element(By.ID, "rp-go").click()
    wait(d, lambda d: "roll 0 of" in d.find_element(By.ID, "rp-status").text)
    assert "(rearmost)" in d.find_element(By.ID, "rp-status").text
    assert len(d.find_elements(By.CSS_SELECTOR, "#rp-svg .piece")) == 8
    for _ in range(12):
        d.find_element(By.ID, "rp-fwd").click()
    assert "roll 12 of" in d.find_element(By.ID, "rp-status").text
    d.execute_script("document.getElementById('replay-form').scrollIntoView()")
    d.save_screenshot(str(shots / "replay-4.png"))
    tab(d, "search")
    landscape = root / "results" / "search" / "faces6-values1..6-board20-10-2-2.json"
    if landscape.exists():
        d.find_element(By.ID, "search-file").send_keys(str(landscape))
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#landscape polyline"))
        assert "best mean" in d.find_element(By.ID, "landscape-table").text
        d.save_screenshot(str(shots / "search.png"))


def test_the_full_board_advice_is_simulated_with_intervals(browser, shots):
    d = browser
    tab(d, "board")
    for _ in range(20):
        new_game(d, "40/20/4/4")
        if d.find_elements(By.CSS_SELECTOR, "#game-svg .piece.movable"):
            break
    # The task's board is drawn as the cross people know.
    assert d.find_element(By.ID, "game-svg").get_attribute("data-shape") == "cross"
    d.find_element(By.ID, "advise-go").click()
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#advice-table td.value"))
    assert "Simulated: 2000 games per move" in d.find_element(By.ID, "advice").text
    assert len(d.find_elements(By.CSS_SELECTOR, "#advice-table td.value")) == \
        len(d.find_elements(By.CSS_SELECTOR, "#game-legal button"))
    d.save_screenshot(str(shots / "board-full.png"))


def test_the_board_fits_a_phone(browser, shots):
    d = browser
    d.set_window_size(390, 844)
    try:
        for name in ("board", "dice", "review", "search"):
            tab(d, name)
            d.execute_script("window.scrollTo(0, 0)")
            width = d.execute_script("return document.documentElement.scrollWidth")
            assert width <= 400, f"the {name} page is {width} px wide in a 390 px window"
            if name == "board":
                # A piece that may move can be tapped: its target is at least 40 px across.
                for _ in range(20):
                    new_game(d, "40/20/4/4")
                    if d.find_elements(By.CSS_SELECTOR, "#game-svg .piece.movable"):
                        break
                d.execute_script("window.scrollTo(0, 0)")
                for target in d.find_elements(By.CSS_SELECTOR, "#game-svg .piece.movable"):
                    assert target.size["width"] >= 40, target.size
            d.save_screenshot(str(shots / f"phone-{name}.png"))
    finally:
        d.set_window_size(1280, 900)

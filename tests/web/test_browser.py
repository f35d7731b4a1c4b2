"""The page in a real browser: headless Chromium (Debian's chromium and
chromium-driver) driven by selenium against the running server.

Run with ``pytest -m browser tests/web`` (``-m "browser or slow"`` adds the
screenshots). Each test skips with the reason when the browser, its driver or
selenium is missing; nothing is downloaded.
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from envs.engine.cards import format_card
from envs.engine.history import HandRecord
from envs.registry import ENV_SPECS
from envs.variants import replay
from evaluation.web.server import Server
from tests.web.conftest import CHEAP_OPTIONS

pytestmark = pytest.mark.browser
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
WAIT = 20.0


def _driver_parts() -> tuple[Any, str, str]:
    """selenium's webdriver, the browser and its driver, or a skip saying which is missing."""
    try:
        from selenium import webdriver
    except ImportError:
        pytest.skip("selenium is not installed (pip install selenium)")
    binary = next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)
    if binary is None:
        pytest.skip("no Chromium binary (apt-get install chromium)")
    driver = shutil.which("chromedriver")
    if driver is None:
        pytest.skip("no chromedriver (apt-get install chromium-driver)")
    return webdriver, binary, driver


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    webdriver, binary, driver_path = _driver_parts()
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    yield driver
    driver.quit()


class Page:
    """The page under test, with waits (the page talks to the server asynchronously)."""

    def __init__(self, driver: Any, server: Server) -> None:
        from selenium.webdriver.common.by import By

        self.driver, self.server, self.by = driver, server, By
        driver.get(server.url)
        self.wait_for(lambda: self.all("#tab-replay .file-list a"), "the root folders listed")

    def all(self, css: str) -> list[Any]:
        return self.driver.find_elements(self.by.CSS_SELECTOR, css)

    def one(self, css: str) -> Any:
        return self.driver.find_element(self.by.CSS_SELECTOR, css)

    def wait_for(self, condition: Callable[[], Any], what: str) -> Any:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.support.ui import WebDriverWait

        # a node read while the page redraws the table is stale: look again
        wait = WebDriverWait(self.driver, WAIT, ignored_exceptions=(StaleElementReferenceException,))
        return wait.until(lambda _: condition(), message=f"waited for {what}")

    def tab(self, name: str) -> None:
        self.one(f"#tabs button[data-tab={name}]").click()

    def click_path(self, scope: str, ends_with: str) -> None:
        def link() -> Any:
            found = [
                a
                for a in self.all(f"{scope} .file-list a[data-path]")
                if a.get_attribute("data-path").endswith(ends_with)
            ]
            return found[0] if found else None

        self.wait_for(link, f"a link to {ends_with}").click()

    def error(self) -> str:
        box = self.one("#error")
        return box.text if box.is_displayed() else ""

    def api(self, path: str) -> Any:
        with urllib.request.urlopen(self.server.url + "api/" + path, timeout=30) as response:
            return json.loads(response.read())

    def text_of(self, path: str) -> str:
        with urllib.request.urlopen(self.server.url + "api/" + path, timeout=30) as response:
            return response.read().decode()

    def fill(self, form: str, **fields: str) -> None:
        from selenium.webdriver.support.ui import Select

        for name, value in fields.items():
            field = self.one(f"#{form} [name={name}]")
            if field.tag_name == "select":
                Select(field).select_by_value(value)
            else:
                field.clear()
                field.send_keys(value)

    def table_state(self, scope: str) -> dict[str, Any]:
        """What the drawn table shows: each seat's cards (None: a card back), the pot, the street."""
        seats = {}
        for box in self.all(f"{scope} .seat"):
            cards = [c.get_attribute("data-card") or None for c in box.find_elements(self.by.CSS_SELECTOR, ".card")]
            seats[int(box.get_attribute("data-seat"))] = cards
        return {
            "seats": seats,
            "pot": int(self.one(f"{scope} .pot").get_attribute("data-pot")),
            "street": self.one(f"{scope} .street").get_attribute("data-street"),
        }


@pytest.fixture
def page(browser: Any, server: Server) -> Page:
    return Page(browser, server)


def test_replay_steps_through_a_record(page: Page, web_root: Path) -> None:
    """Every step of a stud hand: the drawn cards and pot are the replay's; jump to a
    street, play at a speed, one seat's view hides the others' down cards."""
    record = HandRecord.from_json((web_root / "stud.json").read_text())
    states: list[Any] = []
    final = replay(record, on_decision=lambda st: states.append(st.clone()))
    states.append(final)
    page.click_path("#replay-files", str(web_root))
    page.click_path("#replay-files", "/stud.json")
    page.wait_for(lambda: page.all("#replay-stage .seat"), "the table drawn")
    for k, st in enumerate(states):
        page.wait_for(lambda k=k: position(page) == k, f"step {k}")
        drawn = page.table_state("#replay-stage")
        assert drawn["pot"] == st.pot(), k
        for seat, cards in drawn["seats"].items():
            assert cards == [format_card(c) for c in st.cards[seat]], (k, seat)
        if k < len(states) - 1:
            page.one("#replay-stage .controls .forward").click()
    payoffs = {
        int(p.find_element(page.by.XPATH, "./../..").get_attribute("data-seat")): int(p.get_attribute("data-payoff"))
        for p in page.all("#replay-stage .payoff")
    }
    assert [payoffs[s] for s in range(record.num_players)] == record.payoffs
    from selenium.webdriver.support.ui import Select

    streets = Select(page.one("#replay-stage .street-jump"))
    streets.select_by_visible_text("fifth street")
    page.wait_for(lambda: page.table_state("#replay-stage")["street"] == "fifth street", "the jump to fifth street")
    Select(page.one("#replay-stage .viewer-select")).select_by_value("1")
    page.wait_for(lambda: "seen by player_1" in page.one("#replay-stage .who").text, "player_1's view")
    at = position(page)
    drawn = page.wait_for(lambda: page.table_state("#replay-stage"), "player_1's table")
    for seat, cards in drawn["seats"].items():
        ups = states[at].up[seat]
        assert [c is not None for c in cards] == [up or seat == 1 for up in ups]
    Select(page.one("#replay-stage .speed")).select_by_visible_text("10×")
    page.one("#replay-stage .controls .play").click()
    last = str(len(states) - 1)
    page.wait_for(
        lambda: page.one("#replay-stage .counter").get_attribute("data-position") == last, "playing to the end"
    )
    assert page.error() == ""


def position(page: Page) -> int:
    """The replay viewer's step."""
    return int(page.one("#replay-stage .counter").get_attribute("data-position"))


def play_to_the_end(page: Page, variant: str) -> tuple[str, float]:
    """Sit down and click legal-action buttons until the hand is over; checks at every
    turn that the buttons are exactly the server's legal actions."""
    page.tab("play")
    options = ", ".join(f"{k}={v}" for k, v in CHEAP_OPTIONS.get(variant, {}).items())
    page.fill("play-form", variant=variant, bots="call", seed="7", options=options)
    page.one("#play-start").click()
    table = page.wait_for(lambda: page.one("#play-table").get_attribute("data-table"), "a table")
    turn = 0
    while True:
        page.wait_for(lambda: page.all("#play-actions .action") or page.all("#play-result [data-result]"), "a turn")
        result = page.all("#play-result [data-result]")
        if result:
            return table, float(result[0].get_attribute("data-result"))
        buttons = page.all("#play-actions .action")
        legal = page.api(f"play/{table}")["legal"]
        assert sorted(int(b.get_attribute("data-action")) for b in buttons) == sorted(o["action"] for o in legal)
        keep = [b for b in buttons if b.get_attribute("data-name") != "fold" or variant in CHEAP_OPTIONS] or buttons
        before = page.one("#play-table .table")
        keep[turn % len(keep)].click()
        page.wait_for(lambda before=before: _stale(before), "the table redrawn")
        turn += 1
        assert turn < 400, "the hand does not end"


def _stale(node: Any) -> bool:
    from selenium.common.exceptions import StaleElementReferenceException

    try:
        node.is_enabled()
    except StaleElementReferenceException:
        return True
    return False


@pytest.mark.parametrize("variant", list(ENV_SPECS))
def test_play_a_hand_by_clicking(page: Page, variant: str) -> None:
    """Every variant: splits, discards, declarations and the dealer's choice of game
    are buttons; the shown result is the replayed record's."""
    table, shown = play_to_the_end(page, variant)
    record = HandRecord.from_json(page.text_of(f"history/{table}?format=jsonl").splitlines()[0])
    final = replay(record)
    assert shown == pytest.approx(final.rewards()[0])
    payoffs = [int(p.get_attribute("data-payoff")) for p in page.all("#play-table .payoff")]
    assert sorted(payoffs) == sorted(final.payoffs())
    assert "SUMMARY" in page.one("#play-history-text").text
    page.one("#play-result .deal").click()
    page.wait_for(lambda: not page.all("#play-result [data-result]"), "the next hand dealt")
    assert page.api(f"play/{table}")["session"]["hands"] == 1
    assert page.error() == ""


def test_watch_shows_probabilities(page: Page) -> None:
    page.tab("watch")
    page.fill("watch-form", variant="stud", bots="pretrained:stud\nrandom", seed="3", hands="2")
    page.one("#watch-form [name=live]").click()  # off: play both hands, then show the last
    page.one("#watch-start").click()
    page.wait_for(lambda: len(page.all("#watch-hands li")) == 2, "two hands played")
    page.wait_for(lambda: page.all("#watch-stage .seat"), "the table drawn")
    seen = []
    for _ in range(60):
        rows = page.all("#watch-stage .probabilities tr")
        if rows:
            seen.append(sum(float(r.find_elements(page.by.CSS_SELECTOR, "td")[-1].text.rstrip("%")) for r in rows))
        forward = page.one("#watch-stage .controls .forward")
        if not forward.is_enabled():
            break
        forward.click()
    assert seen and all(abs(total - 100) < 0.5 for total in seen)
    assert len(page.all("#watch-session tr[data-seat]")) == 2
    # live: each hand plays as it is dealt, then the next is asked for
    from selenium.webdriver.support.ui import Select

    page.one("#watch-form [name=live]").click()
    Select(page.one("#watch-stage .speed")).select_by_visible_text("10×")
    page.fill("watch-form", bots="heuristic\ncall", seed="8")
    page.one("#watch-start").click()
    page.wait_for(lambda: len(page.all("#watch-hands li")) == 2, "two hands dealt live")
    page.wait_for(lambda: not page.one("#watch-stop").is_enabled(), "the match over")
    frames = page.api(f"hand/{page.one('#watch-stage').get_attribute('data-table')}/1?viewer=all")["frames"]
    assert int(page.one("#watch-stage .counter").get_attribute("data-position")) == len(frames) - 1


def test_open_a_tournament_report(page: Page) -> None:
    page.tab("reports")
    page.wait_for(lambda: page.all("#report-files a[data-path]"), "the root folders")
    page.all("#report-files a[data-path]")[0].click()
    page.click_path("#report-files", "/eval_stud")
    page.wait_for(lambda: page.all(".report-bots tr[data-bot]"), "the results table")
    bots = {row.get_attribute("data-bot") for row in page.all(".report-bots tr[data-bot]")}
    assert bots == {"call", "random", "heuristic"}
    assert all(cell.text.lstrip("+-").isdigit() for cell in page.all(".report-bots td.elo"))
    cells = page.all(".crosstable td[data-row]")
    assert len(cells) == 9 and sum(c.text == "·" for c in cells) == 3
    plot = page.one(".report-plot")
    page.wait_for(lambda: page.driver.execute_script("return arguments[0].naturalWidth", plot) > 0, "the plot")
    page.one(".open-hands").click()
    page.wait_for(lambda: len(page.all("#hand-list li")) > 0, "the report's hands in Replay")
    every = len(page.all("#hand-list li"))
    from selenium.webdriver.support.ui import Select

    Select(page.one("#filter-showdown")).select_by_value("yes")
    page.wait_for(lambda: len(page.all("#hand-list li")) < every, "the showdown filter")
    assert all("(showdown)" in li.text for li in page.all("#hand-list li"))
    Select(page.one("#filter-showdown")).select_by_value("")
    Select(page.one("#filter-seat")).select_by_value("heuristic")
    Select(page.one("#filter-result")).select_by_value("won")
    page.wait_for(lambda: len(page.all("#hand-list li")) < every, "the result filter")
    for li in page.all("#hand-list li"):
        result = li.find_element(page.by.CSS_SELECTOR, ".hint").text
        assert "heuristic +" in result, result
    assert page.error() == ""


def test_errors_show_on_the_page(page: Page, tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{"variant": "stud", "num_players": 2}')
    page.one("#upload-file").send_keys(str(bad))
    page.wait_for(page.error, "the error banner")
    assert "broken.json" in page.error() and "missing" in page.error()
    page.tab("play")
    page.fill("play-form", variant="stud", bots="call", options="ante=lots")
    page.one("#play-start").click()
    page.wait_for(lambda: "ante" in page.error(), "the options error")


@pytest.mark.slow
def test_screenshots(page: Page, web_root: Path, tmp_path: Path) -> None:
    """Screenshots to look at (docs/web_replay.png and docs/web_play.png come from
    here); WEB_SCREENSHOTS names a folder to keep them in."""
    out = Path(os.environ.get("WEB_SCREENSHOTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    page.click_path("#replay-files", str(web_root))
    page.click_path("#replay-files", "/chowaha.json")
    page.wait_for(lambda: page.all("#replay-stage .seat"), "the table drawn")
    from selenium.webdriver.support.ui import Select

    Select(page.one("#replay-stage .street-jump")).select_by_visible_text("river")
    page.wait_for(lambda: page.table_state("#replay-stage")["street"] == "river", "the river")
    page.driver.save_screenshot(str(out / "web_replay.png"))
    page.tab("play")
    page.fill("play-form", variant="cowpie", bots="pretrained:cowpie", seed="3")
    page.one("#play-start").click()
    page.wait_for(lambda: page.all("#play-actions .action"), "your turn")
    for _ in range(30):
        names = [b.get_attribute("data-name") for b in page.all("#play-actions .action")]
        if not names or any(n.startswith("split") for n in names):
            break
        before = page.one("#play-table .table")
        page.all("#play-actions .action[data-name=check_call]")[0].click()
        page.wait_for(lambda before=before: _stale(before), "the table redrawn")
        page.wait_for(lambda: page.all("#play-actions .action") or page.all("#play-result [data-result]"), "a turn")
    page.driver.save_screenshot(str(out / "web_play.png"))
    for name in ("web_replay.png", "web_play.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

"""The senior's screen, in a real Chromium: her device opens on her panel of
large tiles; her caregiver, on her own phone (another browser storage: a
different host), moves the tiles and sets large text, and the senior's
tablet follows within a second, in English and Polish; SOS is at the bottom
of every page she can open, a game under way and a dialog included; each
game is played to its end with a seeded deal, its score kept on the hub and
a lower one not replacing the best. No WCAG 2.1 A/AA violations on the new
pages."""

from __future__ import annotations

import os
import time

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import browser_console_errors
from test_care_ui import TABLET, CareHome, browser, home, open_as, seen_within  # noqa: F401 (fixtures)
from test_web_ui import axe_violations, choose_language, wait_for
from test_web_ui import click as click_in_view

SHOTS = os.environ.get("HEARTH_SHOTS")


def shot(driver, name: str) -> None:
    """A screenshot for a person looking at the layout (HEARTH_SHOTS=dir), never asserted on."""
    if SHOTS:
        driver.save_screenshot(os.path.join(SHOTS, f"{name}.png"))


def click(driver, selector: str) -> None:
    """Brings the element to the middle of the screen first, as a person
    scrolls to it: at the bottom it would lie under the SOS bar."""
    wait_for(driver, selector, lambda d: d.find_elements(By.CSS_SELECTOR, selector))
    driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", selector)
    click_in_view(driver, selector)


def put_panel(home: CareHome, tiles: list[tuple[int, str]], headers: dict | None = None) -> requests.Response:
    return requests.put(f"{home.hub.url}/api/v1/people/{home.senior_id}/panel", headers=headers or home.carer_headers, timeout=5,
                        json={"tiles": [{"position": p, "gadget": g} for p, g in tiles]})


def tiles_arranged(driver) -> list[str]:
    """Every tile as arranged ("1:next-dose"), on whichever page of tiles it is."""
    return (driver.execute_script("return document.getElementById('panel-tiles')?.dataset.arranged ?? ''") or "").split()


def tiles_shown(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#panel-tiles .panel-tile')].map(t => t.dataset.position + ':' + t.dataset.gadget)")


def as_tablet(driver) -> None:
    """A 1280×800 screen, as a landscape tablet's (the window's own bars left out)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": TABLET[0], "height": TABLET[1], "deviceScaleFactor": 1, "mobile": False})


def test_the_senior_opens_on_her_panel_and_it_fits_a_tablet(browser, home: CareHome):  # noqa: F811
    as_tablet(browser)
    home.add_medication("Metformina", [{"kind": "weekly", "times": ["23:59"], "weekdays": [1, 2, 3, 4, 5, 6, 7], "amount": 1}])
    open_as(browser, home.hub, home.senior["token"], "127.0.0.1", "")
    wait_for(browser, "the panel", lambda d: len(tiles_shown(d)) == 6)
    shot(browser, "panel-en")
    assert browser.execute_script("return location.hash") in ("", "#", "#/")
    assert tiles_shown(browser)[0] == "1:next-dose"
    # Six large tiles on a 1280×800 tablet: nothing to scroll, each at least a third of the width.
    sizes = browser.execute_script("""
        return { scroll: document.documentElement.scrollHeight, height: innerHeight, width: innerWidth,
                 tiles: [...document.querySelectorAll('.panel-tile')].map(t => t.getBoundingClientRect().width) }""")
    assert sizes["scroll"] <= sizes["height"], sizes
    assert min(sizes["tiles"]) >= sizes["width"] / 3, sizes
    assert browser.find_element(By.ID, "sos-slider").is_displayed()
    assert axe_violations(browser, "the panel") == []
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def senior_window(driver, home: CareHome, page: str = "") -> str:
    return open_as(driver, home.hub, home.senior["token"], "127.0.0.1", page)


def carer_window(driver, home: CareHome, page: str) -> str:
    """Ania's phone: another host, so another cookie jar and storage than the senior's tablet."""
    return open_as(driver, home.hub, home.carer["token"], "localhost", page, new_window=True)


def text_size(driver) -> str | None:
    return driver.execute_script("return document.documentElement.dataset.textSize")


def test_a_caregiver_arranges_the_seniors_screen_from_her_phone_and_the_tablet_follows_within_a_second(browser, home: CareHome):  # noqa: F811
    senior = senior_window(browser, home)
    wait_for(browser, "the standard panel", lambda d: len(tiles_arranged(d)) == 6)
    assert tiles_arranged(browser)[:2] == ["1:next-dose", "2:clock"]
    assert text_size(browser) == "large", "a senior starts with large text"

    # Ania opens "Arrange screen" from Babcia's card on the Household page.
    carer = carer_window(browser, home, "household")
    click_when_there(browser, f"#person-{home.senior_id}-arrange")
    wait_for(browser, "the six places", lambda d: d.find_elements(By.ID, "arrange-place-6"))
    assert "6 used" in browser.find_element(By.ID, "arrange-count").text
    assert axe_violations(browser, "arranging the screen") == []

    # She moves the clock to the first place: Babcia's tablet shows it within a second.
    click(browser, "#arrange-place-2-up")
    seen_within(browser, senior, "the clock first", lambda d: tiles_arranged(d)[:2] == ["1:clock", "2:next-dose"], 1.0)
    # She takes the memory game off: "5 used", and it is among those not placed.
    browser.switch_to.window(carer)
    Select(browser.find_element(By.ID, "arrange-place-6")).select_by_value("")
    wait_for(browser, "5 used", lambda d: "5 used" in d.find_element(By.ID, "arrange-count").text)
    assert browser.find_elements(By.CSS_SELECTOR, "#arrange-unplaced li[data-gadget='memory']")
    seen_within(browser, senior, "five tiles", lambda d: len(tiles_arranged(d)) == 5, 1.0)

    # Extra-large text, set from her phone, on the tablet within a second.
    browser.switch_to.window(carer)
    click(browser, "#arrange-text-size-x-large")
    seen_within(browser, senior, "extra-large text", lambda d: text_size(d) == "x-large", 1.0)
    assert text_size(browser) == "x-large"
    browser.switch_to.window(carer)
    assert text_size(browser) != "x-large", "Ania's own phone keeps her own size"

    # Polish for Babcia, from Ania's phone; her tablet speaks it within a second.
    click(browser, "#arrange-language-pl")
    seen_within(browser, senior, "the tablet in Polish",
                lambda d: d.execute_script("return document.documentElement.lang") == "pl", 1.0)
    wait_for(browser, "Polish words on the tiles", lambda d: "Zegar" in d.find_element(By.ID, "panel-tiles").text)
    assert axe_violations(browser, "the panel in Polish, extra-large") == []
    stored = requests.get(f"{home.hub.url}/api/v1/people/{home.senior_id}/display", headers=home.senior_headers, timeout=5).json()
    assert (stored["textSize"], stored["language"], stored["chosen"]) == ("x-large", "pl", True)

    # Ania's page in Polish too: axe clean.
    browser.switch_to.window(carer)
    choose_language(browser, "pl")
    wait_for(browser, "the editor in Polish", lambda d: "zajęte: 5" in d.find_element(By.ID, "arrange-count").text)
    assert axe_violations(browser, "arranging the screen, in Polish") == []
    assert browser_console_errors(browser) == []


def click_when_there(driver, selector: str) -> None:
    wait_for(driver, selector, lambda d: d.find_elements(By.CSS_SELECTOR, selector))
    click(driver, selector)


def test_a_caregiver_who_does_not_look_after_her_cannot_arrange_her_screen(browser, home: CareHome):  # noqa: F811
    obcy = home.hub.pair_device("--new-person", "Obcy", "--role", "caregiver", device_name="Telefon obcego", wait=False)
    headers = {"Authorization": f"Bearer {obcy['token']}"}
    refused = put_panel(home, [(1, "clock")], headers=headers)
    assert refused.status_code == 404, refused.text
    open_as(browser, home.hub, obcy["token"], "127.0.0.1", "household")
    wait_for(browser, "the people", lambda d: d.find_elements(By.ID, f"person-{home.senior_id}-name"))
    assert not browser.find_elements(By.ID, f"person-{home.senior_id}-arrange")


SENIOR_PAGES = ["", "today", "notes", "medications", "alerts", "games", "games/wordle", "games/sudoku", "games/memory",
                "household", "settings", "phone-alerts"]


def sos_reachable(driver) -> bool:
    """The SOS slider is shown and nothing lies over it: the point at its middle is the slider."""
    return driver.execute_script("""
        const thumb = document.getElementById('sos-slider');
        if (!thumb || !thumb.checkVisibility()) return false;
        const box = thumb.getBoundingClientRect();
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return !!top && thumb.contains(top) && box.bottom <= innerHeight;""")


def go(driver, page: str) -> None:
    driver.execute_script("location.hash = arguments[0]", f"#/{page}")
    wait_for(driver, f"#/{page}", lambda d: d.execute_script(
        "return !!document.querySelector('main h1') && (location.hash === '#/' + arguments[0] || arguments[0] === '')", page))


def test_sos_is_on_every_page_a_senior_opens_and_works_from_a_game_in_progress_and_a_dialog(browser, home: CareHome):  # noqa: F811
    senior_window(browser, home)
    wait_for(browser, "the panel", lambda d: len(tiles_arranged(d)) == 6)
    for page in SENIOR_PAGES + [f"arrange/{home.senior_id}"]:
        go(browser, page)
        wait_for(browser, f"SOS on #/{page}", sos_reachable)

    # A Sudoku under way: a digit in the first empty cell.
    go(browser, "games/sudoku")
    close_rules(browser, "sudoku")
    empty = browser.execute_script("""
        return [...document.querySelectorAll('.sudoku-cell')].find(c => !c.textContent.trim())?.id""")
    click(browser, f"#{empty}")
    click(browser, "#sudoku-pad-5")
    wait_for(browser, "the digit", lambda d: d.find_element(By.ID, empty).text.strip().startswith("5"))

    # "New game?" asks first: the dialog holds SOS too, and it can be reached.
    click(browser, "#sudoku-new-game")
    wait_for(browser, "the question", lambda d: d.find_elements(By.CSS_SELECTOR, "dialog[open] #sos-slider"))
    assert sos_reachable(browser)
    browser.execute_script("document.getElementById('sos-slider').focus()")
    assert browser.switch_to.active_element.get_attribute("id") == "sos-slider", "not inert behind the dialog"
    click(browser, "#sudoku-new-cancel")
    wait_for(browser, "SOS back at the bottom", lambda d: d.execute_script(
        "return document.getElementById('sos-dock').parentElement === document.body && !document.querySelector('dialog[open]')"))
    assert browser.find_element(By.ID, empty).text.strip().startswith("5"), "the game is still there"

    # Slid from the game, by keyboard: the caregivers get an SOS.
    browser.find_element(By.ID, "sos-slider").send_keys(Keys.END)
    wait_for(browser, "help called", lambda d: d.find_element(By.ID, "sos-status").text.strip() != ""
             and "Calling" not in d.find_element(By.ID, "sos-status").text)
    sos = [a for a in requests.get(f"{home.hub.url}/api/v1/alerts", headers=home.carer_headers, timeout=5).json() if a["kind"] == "sos"]
    assert len(sos) == 1 and sos[0]["personId"] == home.senior_id, sos
    assert browser.find_element(By.ID, empty).text.strip().startswith("5"), "the game is still there"


def close_rules(driver, game: str) -> None:
    """The rules are shown before the first game on a device: read, then "Start playing"."""
    wait_for(driver, f"the {game} page", lambda d: d.find_elements(By.ID, f"{game}-how-to-play"))
    if driver.find_element(By.ID, f"{game}-rules").is_displayed():
        click(driver, f"#{game}-rules-close")


def scores(home: CareHome) -> dict[str, dict]:
    response = requests.get(f"{home.hub.url}/api/v1/people/{home.senior_id}/scores", headers=home.carer_headers, timeout=5)
    assert response.status_code == 200, response.text
    return {entry["game"]: entry for entry in response.json()["scores"]}


def new_game(driver, game: str, seed: int) -> None:
    """A new game dealt from `seed`: set by the test's own script, which no page can do."""
    driver.execute_script("window.hearthGameSeed = arguments[0]", seed)
    click(driver, f"#{game}-new-game")
    if driver.find_elements(By.CSS_SELECTOR, f"#{game}-new-confirm"):
        click(driver, f"#{game}-new-confirm")


def wordle_answer(driver, seed: int, language: str) -> tuple[str, list[str]]:
    return tuple(driver.execute_async_script("""
        const [seed, language, done] = arguments;
        Promise.all([import('/games/wordle.js'), fetch(`/games/words/${language}.json`).then(r => r.json())])
          .then(([m, words]) => done([m.pickAnswer(seed, words.answers), words.answers.slice(0, 50)]));""", seed, language))


def type_word(driver, word: str) -> None:
    for letter in word:
        click(driver, f"#wordle-key-{letter}")
    click(driver, "#wordle-enter")


def play_wordle(driver, seed: int, language: str, tries: int) -> str:
    """Plays a seeded game: `tries - 1` wrong words from the answer list, then the answer."""
    new_game(driver, "wordle", seed)
    answer, others = wordle_answer(driver, seed, language)
    wrong = [word for word in others if word != answer][:tries - 1]
    for row, word in enumerate(wrong + [answer]):
        type_word(driver, word)
        wait_for(driver, f"row {row} marked", lambda d: d.find_element(By.ID, f"wordle-tile-{row}-0").get_attribute("data-mark"))
    wait_for(driver, "the score", lambda d: d.find_element(By.ID, "wordle-result").is_displayed())
    return answer


def test_each_game_is_played_to_its_end_and_only_a_higher_score_replaces_the_best(browser, home: CareHome):  # noqa: F811
    senior_window(browser, home, "games/wordle")
    close_rules(browser, "wordle")
    assert axe_violations(browser, "the word game") == []

    # Won on the second try (50), then on the first (60): the best rises.
    play_wordle(browser, 11, "en", tries=2)
    assert (scores(home)["wordle"]["best"], scores(home)["wordle"]["lastScore"]) == (50, 50)
    play_wordle(browser, 12, "en", tries=1)
    assert scores(home)["wordle"]["best"] == 60
    # A lower score does not replace it; when she last played does move.
    before = scores(home)["wordle"]["lastPlayedAt"]
    time.sleep(0.01)
    play_wordle(browser, 13, "en", tries=3)
    kept = scores(home)["wordle"]
    assert (kept["best"], kept["lastScore"], kept["gamesPlayed"]) == (60, 40, 3)
    assert kept["lastPlayedAt"] >= before

    # In Polish, with the Polish letters on the screen's keyboard.
    choose_language(browser, "pl")
    seed = browser.execute_async_script("""
        const done = arguments[0];
        Promise.all([import('/games/wordle.js'), fetch('/games/words/pl.json').then(r => r.json())]).then(([m, words]) => {
          for (let seed = 1; seed < 5000; seed += 1) if (/[ąćęłńóśźż]/.test(m.pickAnswer(seed, words.answers))) return done(seed);
          done(null);
        });""")
    answer = play_wordle(browser, seed, "pl", tries=1)
    assert any(letter in answer for letter in "ąćęłńóśźż"), answer
    assert axe_violations(browser, "the word game won, in Polish") == []
    choose_language(browser, "en")

    # Sudoku: the seeded puzzle's solution typed into every empty cell.
    go(browser, "games/sudoku")
    close_rules(browser, "sudoku")
    new_game(browser, "sudoku", 21)
    solution = browser.execute_async_script("""
        const done = arguments[0];
        import('/games/sudoku.js').then(m => done(m.generateSudoku(21, 'easy').solution));""")
    for index, digit in enumerate(solution):
        cell = f"sudoku-cell-{index // 9}-{index % 9}"
        if browser.find_element(By.ID, cell).text.strip():
            continue
        browser.execute_script("document.getElementById(arguments[0]).focus(); document.getElementById(arguments[1]).click()",
                               cell, f"sudoku-pad-{digit}")
    wait_for(browser, "the Sudoku score", lambda d: d.find_element(By.ID, "sudoku-result").is_displayed())
    assert scores(home)["sudoku"]["best"] >= 100
    assert axe_violations(browser, "a solved Sudoku") == []

    # Memory: each pair of the seeded deal turned in turn, a perfect game.
    go(browser, "games/memory")
    close_rules(browser, "memory")
    new_game(browser, "memory", 31)
    cards = browser.execute_async_script("""
        const done = arguments[0];
        import('/games/memory.js').then(m => done(m.dealMemory(31, '3x4')));""")
    for picture in dict.fromkeys(cards):
        for index in [i for i, card in enumerate(cards) if card == picture]:
            click(browser, f"#memory-card-{index}")
    wait_for(browser, "the Memory score", lambda d: d.find_element(By.ID, "memory-result").is_displayed())
    assert scores(home)["memory"]["best"] == 150
    assert axe_violations(browser, "a finished Memory") == []

    # "Best scores" shows all three; her caregiver sees when she last played.
    go(browser, "games")
    wait_for(browser, "the best scores", lambda d: "60" in d.find_element(By.ID, "best-scores-wordle").text)
    assert axe_violations(browser, "Games and best scores") == []
    assert browser_console_errors(browser) == []


BOARD_LAYOUT = """
const grid = (selector) => { const e = document.querySelector(selector); return e ? getComputedStyle(e).display : null; };
const columns = (selector) => { const e = document.querySelector(selector);
  return e ? getComputedStyle(e).gridTemplateColumns.split(' ').filter(Boolean).length : 0; };
function luminance(color) {
  const [r, g, b] = color.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
    const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(selector) {
  const e = document.querySelector(selector);
  if (!e) return 0;
  let back = e, bg = 'rgba(0, 0, 0, 0)';
  while (back && /rgba\\(.*, 0\\)$/.test(bg = getComputedStyle(back).backgroundColor)) back = back.parentElement;
  const [a, b] = [luminance(getComputedStyle(e).color), luminance(bg)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}
return { wordleBoard: grid('.wordle-board'), wordleRow: grid('.wordle-row'), wordleColumns: columns('.wordle-row'),
         wordleKeys: grid('.wordle-keyboard'), keyRow: grid('.wordle-key-row'), keyContrast: contrast('.wordle-key'),
         tileContrast: contrast('.wordle-tile-filled'),
         sudokuRow: grid('.sudoku-row'), sudokuColumns: columns('.sudoku-row'), sudokuPad: grid('.sudoku-pad'),
         memory: grid('.memory-grid') };
"""


def test_each_games_board_is_laid_out_as_a_grid_and_readable_in_both_themes(browser, home: CareHome):  # noqa: F811
    """A rule left open in the stylesheet once stacked the word game's letters
    in a column, invisible in the dark theme, while every other test passed."""
    as_tablet(browser)
    senior_window(browser, home, "games/wordle")
    for theme in ("light", "dark"):
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [
            {"name": "prefers-color-scheme", "value": theme}]})
        go(browser, "games/wordle")
        close_rules(browser, "wordle")
        click(browser, "#wordle-key-a")
        wait_for(browser, "a letter typed", lambda d: d.find_elements(By.CSS_SELECTOR, ".wordle-tile-filled"))
        wordle = browser.execute_script(BOARD_LAYOUT)
        assert (wordle["wordleBoard"], wordle["wordleRow"], wordle["wordleColumns"]) == ("grid", "grid", 5), (theme, wordle)
        assert (wordle["wordleKeys"], wordle["keyRow"]) == ("grid", "flex"), (theme, wordle)
        assert wordle["keyContrast"] >= 4.5 and wordle["tileContrast"] >= 4.5, (theme, wordle)
        go(browser, "games/sudoku")
        close_rules(browser, "sudoku")
        sudoku = browser.execute_script(BOARD_LAYOUT)
        assert (sudoku["sudokuRow"], sudoku["sudokuColumns"], sudoku["sudokuPad"]) == ("grid", 9, "grid"), (theme, sudoku)
        go(browser, "games/memory")
        close_rules(browser, "memory")
        assert browser.execute_script(BOARD_LAYOUT)["memory"] == "grid", theme
        shot(browser, f"memory-{theme}")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def set_text_size(home: CareHome, size: str) -> None:
    response = requests.put(f"{home.hub.url}/api/v1/people/{home.senior_id}/display", headers=home.carer_headers, timeout=5,
                            json={"textSize": size, "theme": "light", "language": "en", "speechRate": "normal"})
    assert response.status_code == 200, response.text


def page_fits(driver) -> dict:
    return driver.execute_script("""
        const root = document.documentElement;
        const dock = document.getElementById('sos-dock').getBoundingClientRect();
        const under = [...document.querySelectorAll('.panel-tile, #panel-pager button')]
          .filter((e) => e.getBoundingClientRect().bottom > dock.top + 1).map((e) => e.id || e.dataset.gadget);
        return { down: root.scrollHeight <= innerHeight, across: root.scrollWidth <= innerWidth, under };""")


def test_at_extra_large_text_every_tile_is_reached_by_pages_never_under_the_sos_bar(browser, home: CareHome):  # noqa: F811
    set_text_size(home, "x-large")
    for width, height in ((1280, 800), (390, 844)):
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        senior_window(browser, home)
        browser.refresh()  # the same address again: a new page, on its first page of tiles
        wait_for(browser, "her tiles", lambda d: tiles_shown(d))
        assert not browser.find_elements(By.ID, "panel-page-back"), "it opens on the first page"
        seen: list[str] = []
        if width < 600:
            # A phone, one tile to a row, scrolls as every phone page does: each tile clear of the bar.
            assert not browser.find_elements(By.ID, "panel-page-more")
            for tile in browser.find_elements(By.CSS_SELECTOR, ".panel-tile"):
                browser.execute_script("arguments[0].scrollIntoView({block: 'end'})", tile)
                assert page_fits(browser)["under"] == [] or browser.execute_script(
                    "return arguments[0].getBoundingClientRect().bottom <= document.getElementById('sos-dock').getBoundingClientRect().top + 1",
                    tile), tile.get_attribute("data-gadget")
            assert page_fits(browser)["across"]
            seen = tiles_shown(browser)
        for _ in range(6 if width >= 600 else 0):
            wait_for(browser, "a page that fits", lambda d: page_fits(d)["down"])
            fits = page_fits(browser)
            assert fits["across"] and fits["under"] == [], (width, fits)
            seen += [tile for tile in tiles_shown(browser) if tile not in seen]
            more = browser.find_elements(By.ID, "panel-page-more")
            if not more:
                break
            more[0].click()
            wait_for(browser, "the next page", lambda d: d.switch_to.active_element.get_attribute("class") and
                     "panel-tile" in (d.switch_to.active_element.get_attribute("class") or "")
                     or d.switch_to.active_element.find_elements(By.XPATH, "ancestor::*[contains(@class,'panel-tile')]"))
        assert sorted(seen) == sorted(f"{p}:{g}" for p, g in enumerate(
            ["next-dose", "clock", "people", "pinned-note", "today", "memory"], start=1)), (width, seen)
        if width == 1280:
            assert browser.find_element(By.ID, "panel-page-count").text.startswith("Page "), "x-large takes two pages on a tablet"
        assert axe_violations(browser, f"the panel's last page at {width}") == []
        shot(browser, f"panel-x-large-{width}")
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_no_page_of_hers_scrolls_sideways_on_a_small_phone_at_extra_large_text(browser, home: CareHome):  # noqa: F811
    set_text_size(home, "x-large")
    for width in (360, 390):
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": True})
        senior_window(browser, home)
        wide = []
        for page in SENIOR_PAGES:
            go(browser, page)
            time.sleep(0.3)
            sizes = browser.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
            if sizes[0] > sizes[1]:
                wide.append((page, sizes))
        assert wide == [], f"at {width} px: {wide}"
        # The slide's own words fit in its track, not clipped to a few letters.
        label = browser.execute_script(
            "const l = document.querySelector('#sos-dock .sos-track-label');"
            " return [l.scrollWidth <= l.clientWidth + 1, l.scrollHeight <= l.clientHeight + 1, l.textContent]")
        assert label[:2] == [True, True], (width, label)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

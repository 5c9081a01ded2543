"""A tablet kept for Hearth, in kiosk mode with sound allowed from the start
(Chromium's --autoplay-policy=no-user-gesture-required, as README says):
the page turns its alert sounds on by itself, so no "Tap to turn on alert
sounds" is shown and an SOS would be heard before anyone touched it."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from conftest import CHROMEDRIVER, _require_chromium, chromium_options
from test_care_ui import CareHome, home, open_as  # noqa: F401 (fixtures)
from test_web_ui import wait_for


@pytest.fixture
def kiosk():
    _require_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = chromium_options("--window-size=1280,800", "--autoplay-policy=no-user-gesture-required")
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()


def test_a_kiosk_tablet_has_sound_on_without_a_tap(kiosk, home: CareHome):  # noqa: F811
    open_as(kiosk, home.hub, home.senior["token"], "127.0.0.1", "")
    wait_for(kiosk, "her page", lambda d: d.find_elements(By.CSS_SELECTOR, "main h1"))
    wait_for(kiosk, "the page to know who she is", lambda d: d.find_elements(By.ID, "sos-slider"))
    # Nothing was touched, yet the page may sound: no button asks for a tap.
    wait_for(kiosk, "sound on by itself", lambda d: d.execute_script(
        "return document.getElementById('sound-button').hidden && localStorage.getItem('hearth.soundAllowed') === 'true'"))

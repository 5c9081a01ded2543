"""Today on a senior's 1280×800 tablet shows the first dose still to answer
above the fold (above the SOS bar): the household's name and the live state
sit in a quiet corner beside the date, and a day whose morning is done opens
at the evening's dose, not at the morning's answered ones. The hub's clock is
put at 18:00 so the day has a done morning and an evening to come whatever
the time the test runs."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from test_care_ui import CareHome, browser, every_day, home  # noqa: F401 (fixtures)
from test_reminders_live import set_hub_clock
from test_senior_screen import as_tablet, senior_window, shot
from test_web_ui import axe_violations, wait_for


def test_a_senior_tablet_opens_today_with_the_first_dose_to_answer_above_the_fold(browser, home: CareHome):  # noqa: F811
    evening = home.local_now().replace(hour=18, minute=0, second=0, microsecond=0)
    set_hub_clock(home.hub, home.hub.token, evening)
    for name in ("Aspiryna", "Bisoprolol", "Metformina", "Witamina D"):
        home.add_medication(name, [{"kind": "weekly", "times": ["08:00", "12:00", "20:00"], "weekdays": [1, 2, 3, 4, 5, 6, 7], "amount": 1}])
    # The morning and midday were answered (planned before the medicines were entered, so still to answer).
    for dose in home.doses_of_today():
        if dose["time"] in ("08:00", "12:00"):
            taken = requests.post(f"{home.hub.url}/api/v1/doses", headers=home.carer_headers, timeout=5,
                                  json={"key": dose["key"], "status": "taken"})
            assert taken.status_code in (200, 201), taken.text
    evening_keys = {dose["key"] for dose in home.doses_of_today() if dose["time"] == "20:00"}
    assert len(evening_keys) == 4

    as_tablet(browser)
    senior_window(browser, home, "today")
    wait_for(browser, "her day", lambda d: len(d.find_elements(By.CSS_SELECTOR, "li.dose-item")) == 12)
    first = browser.execute_script("""
        const item = [...document.querySelectorAll('li.dose-item')].find((li) => !['taken', 'skipped'].includes(li.dataset.status));
        const box = item.getBoundingClientRect();
        const fold = document.getElementById('sos-dock').getBoundingClientRect().top;
        return { key: item.dataset.key, top: box.top, name: item.querySelector('.dose-name').getBoundingClientRect().bottom, fold };""")
    assert first["key"] in evening_keys
    assert 0 <= first["top"] and first["name"] <= first["fold"], first
    # The household's name and the live state are still there, beside the date, quietly.
    assert browser.find_element(By.ID, "household-name").is_displayed()
    assert browser.find_element(By.ID, "live-indicator").is_displayed()
    shot(browser, "today-fold-tablet")
    assert axe_violations(browser, "Today on her tablet") == []
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

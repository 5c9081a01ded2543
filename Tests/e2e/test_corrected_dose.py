"""Sentences stay true after a correction. A dose missed (its grace over)
and then taken reads "Taken late, at 13:40" on the caregiver's Alerts page,
and History counts it taken late ("Taken on time: 0% of doses, late:
100%"), not 100% taken. Put right to skipped, the alert says so at once
(live) and History counts it skipped; put right again to taken late, both
follow, in Polish as in English. On a 1280×800 tablet and a 390×844 phone,
with no WCAG 2.1 A/AA violations.

No real minutes pass: the hub's clock is put forward past the dose's grace
(as an admin would), and the reminder service marks it missed at once."""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import browser_console_errors
from test_care_ui import (  # noqa: F401 (fixtures)
    CARER, PHONE, SENIOR, TABLET, CareHome, browser, every_day, home, open_as, soon, text_of, turn_sound_on,
)
from test_reminders_live import iso, parse, set_hub_clock
from test_senior_screen import shot
from test_web_ui import axe_violations, choose_language, overflowing, wait_for


@pytest.fixture(params=[TABLET, PHONE], ids=["tablet", "phone"])
def screen(request, browser):  # noqa: F811
    """The page's own size exactly, as on the device (one window throughout)."""
    width, height = request.param
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    yield "tablet" if request.param == TABLET else "phone"
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def missed_then_taken_late(home: CareHome) -> tuple[dict, dict, datetime]:  # noqa: F811
    """Her 500 mg of Metformina, planned a couple of minutes ahead; the hub's
    clock put 45 minutes past it (its 30 minutes of grace over: missed, the
    caregiver told), then taken, she says, 40 minutes after its time.
    Returns the medication, the dose and when it was planned."""
    medication = home.add_medication("Metformina", [every_day(soon(home, minutes=2))], strength="500 mg")
    [planned] = home.doses_of_today()
    due = parse(planned["dueAt"])
    set_hub_clock(home.hub, home.hub.token, due + timedelta(minutes=45))
    deadline = time.monotonic() + 10
    while not home.alerts(kind="dose-missed"):
        assert time.monotonic() < deadline, "the dose was not counted missed"
        time.sleep(0.1)
    taken = requests.post(f"{home.hub.url}/api/v1/doses", headers=home.senior_headers, timeout=5,
                          json={"key": planned["key"], "status": "taken", "takenAt": iso(due + timedelta(minutes=40))})
    assert taken.status_code == 201, taken.text
    assert taken.json()["takenLate"] is True
    return medication, taken.json(), due


def correct(home: CareHome, dose: dict, **change) -> dict:  # noqa: F811
    """Her caregiver puts the dose right (as History's Change does)."""
    response = requests.patch(f"{home.hub.url}/api/v1/doses/{dose['id']}", headers=home.carer_headers, timeout=5, json=change)
    assert response.status_code == 200, response.text
    return response.json()


def alert_state(driver, alert_id: str) -> str:
    return text_of(driver, f"li.alert-history-item[data-alert-id='{alert_id}'] .alert-history-state")


def go(driver, page: str, ready: str) -> None:
    """To another page of the app, as its menu would; waits for `ready` (a CSS selector)."""
    driver.execute_script("location.hash = arguments[0]", f"#/{page}")
    wait_for(driver, page, lambda d: d.find_elements(By.CSS_SELECTOR, ready))


def adherence(driver, medication_id: str) -> str:
    return text_of(driver, f".history-medication[data-medication-id='{medication_id}'] p.adherence")


def day_cell(medication_id: str, day: str, state: str) -> str:
    return f".history-medication[data-medication-id='{medication_id}'] td[data-day='{day}'][data-state='{state}']"


def open_day(driver, medication_id: str, day: str) -> str:
    """Opens the day below the month (Enter on its button); its text."""
    selector = f".history-medication[data-medication-id='{medication_id}'] td[data-day='{day}'] button.day-button"
    wait_for(driver, "the day's button", lambda d: d.find_elements(By.CSS_SELECTOR, selector))
    if driver.find_element(By.CSS_SELECTOR, selector).get_attribute("aria-pressed") != "true":
        driver.find_element(By.CSS_SELECTOR, selector).send_keys(Keys.ENTER)
    wait_for(driver, "the day's doses", lambda d: text_of(d, f"#history-day-{medication_id}"))
    driver.execute_script("document.getElementById(arguments[0]).scrollIntoView({block: 'end'})", f"history-day-{medication_id}")
    return text_of(driver, f"#history-day-{medication_id}")


def clean(driver, label: str) -> None:
    """Nothing sticks out sideways and axe finds nothing; a screenshot to look at."""
    assert overflowing(driver) == [], label
    violations = axe_violations(driver, label)
    assert not violations, "\n\n".join(violations)


def test_the_alert_and_history_say_what_the_dose_is_now(browser, home, screen):  # noqa: F811
    medication, dose, due = missed_then_taken_late(home)
    zone = home.local_now().tzinfo
    at = lambda moment: moment.astimezone(zone).strftime("%H:%M")  # noqa: E731
    [missed] = home.alerts(kind="dose-missed")
    day = dose["plannedDate"]
    late = at(due + timedelta(minutes=40))

    # The caregiver's Alerts page: taken late, by whom.
    open_as(browser, home.hub, home.carer["token"], "localhost", "alerts")
    turn_sound_on(browser)
    wait_for(browser, "the answered alert", lambda d: alert_state(d, missed["id"]).startswith("Taken late"))
    assert alert_state(browser, missed["id"]).startswith(f"Taken late, at {late} (recorded by {SENIOR}, ")
    shot(browser, f"corrected-alerts-late-en-{screen}")
    clean(browser, f"Alerts, a dose taken late ({screen})")

    # History counts it late, in the month, the day's colour and the day's words.
    go(browser, "medications/history", ".history-medication")
    wait_for(browser, "late in the month", lambda d: d.find_elements(By.CSS_SELECTOR, day_cell(medication["id"], day, "late")))
    assert adherence(browser, medication["id"]) == "Taken on time: 0% of doses, late: 100%"
    assert f"Taken late, at {late}" in open_day(browser, medication["id"], day)
    shot(browser, f"corrected-history-late-en-{screen}")
    clean(browser, f"History, a dose taken late ({screen})")

    # Put right to skipped while her Alerts page is open: it follows at once.
    go(browser, "alerts", f"li.alert-history-item[data-alert-id='{missed['id']}']")
    correct(home, dose, status="skipped")
    wait_for(browser, "the alert follows", lambda d: alert_state(d, missed["id"]).startswith("Skipped"))
    assert alert_state(browser, missed["id"]).startswith(f"Skipped (changed by {CARER}, ")
    assert "Taken" not in alert_state(browser, missed["id"])
    shot(browser, f"corrected-alerts-skipped-en-{screen}")
    go(browser, "medications/history", ".history-medication")
    wait_for(browser, "skipped in the month", lambda d: d.find_elements(By.CSS_SELECTOR, day_cell(medication["id"], day, "skipped")))
    assert adherence(browser, medication["id"]) == "Taken: 0% of doses"

    # In Polish, and put right again: taken after all, still late.
    go(browser, "alerts", f"li.alert-history-item[data-alert-id='{missed['id']}']")
    choose_language(browser, "pl")
    wait_for(browser, "skipped in Polish", lambda d: alert_state(d, missed["id"]).startswith("Dawka pominięta"))
    assert alert_state(browser, missed["id"]).startswith(f"Dawka pominięta (zmienione przez: {CARER}, ")
    clean(browser, f"Alerts, a dose put right, in Polish ({screen})")
    correct(home, dose, status="taken", takenAt=iso(due + timedelta(minutes=40)))
    wait_for(browser, "taken late in Polish", lambda d: alert_state(d, missed["id"]).startswith("Lek przyjęty z opóźnieniem"))
    assert alert_state(browser, missed["id"]).startswith(f"Lek przyjęty z opóźnieniem, o {late} (zmienione przez: {CARER}, ")
    shot(browser, f"corrected-alerts-late-pl-{screen}")
    go(browser, "medications/history", ".history-medication")
    wait_for(browser, "late in the month again", lambda d: d.find_elements(By.CSS_SELECTOR, day_cell(medication["id"], day, "late")))
    assert adherence(browser, medication["id"]) == "Przyjęto na czas 0% dawek, z opóźnieniem 100%"
    assert f"Przyjęty z opóźnieniem, o {late}" in open_day(browser, medication["id"], day)
    shot(browser, f"corrected-history-late-pl-{screen}")
    clean(browser, f"History, a dose taken late, in Polish ({screen})")
    assert browser_console_errors(browser) == []

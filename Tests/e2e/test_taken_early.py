"""Taken early asks everywhere: on the senior's panel, the next-dose tile's
Taken on a dose planned hours later asks the same question as Today's
("Taken Bisoprolol 5 mg already? It is planned for 15:00. Record it as
taken now?"), with "Not yet" holding the keyboard; "Not yet" records
nothing, "Yes, taken now" records it. On a 1280×800 tablet and a 390×844
phone, in English and Polish, with no WCAG 2.1 A/AA violations.

The question's rule is the tablet's clock against the dose's planned time;
late in the evening no dose is "later today", so the hub's clock is put
forward to just after midnight (as an admin would): the tablet's clock is
then behind the hub's, and the dose is still between one and twelve hours
ahead by both (more than twelve and neither Today nor the tile offers
Taken at all: the hub refuses it)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import browser_console_errors
from test_care_ui import PHONE, TABLET, CareHome, browser, dialog_fits, every_day, home, text_of, turn_sound_on  # noqa: F401 (fixtures)
from test_reminders_live import set_hub_clock
from test_senior_screen import click, senior_window, shot, tiles_arranged
from test_web_ui import axe_violations, wait_for

HOURS_AHEAD = 3


@pytest.fixture(params=[TABLET, PHONE], ids=["tablet", "phone"])
def screen(request, browser):  # noqa: F811
    """The whole screen of a tablet, then of a phone (no window bars taken off)."""
    width, height = request.param
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    yield "tablet" if request.param == TABLET else "phone"
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def later_today(home: CareHome) -> str:  # noqa: F811
    """A time of day HOURS_AHEAD after the hub's now, still today by the
    hub's clock; from 21:00 the hub's clock goes forward to 00:30, so the
    dose (03:30) is 3 hours ahead by the hub and 3.5 to 6.5 by the tablet."""
    now = home.local_now()
    planned = now + timedelta(hours=HOURS_AHEAD)
    if planned.date() != now.date():
        after_midnight = (now + timedelta(days=1)).replace(hour=0, minute=30, second=0, microsecond=0)
        set_hub_clock(home.hub, home.hub.token, after_midnight)
        planned = after_midnight + timedelta(hours=HOURS_AHEAD)
    return planned.strftime("%H:%M")


def the_question_is_open(driver) -> bool:
    return driver.execute_script("return !!document.getElementById('early-dose-dialog')?.open")


def recorded(home: CareHome) -> list[str]:  # noqa: F811
    """Today's doses' statuses as the hub has them."""
    return [dose["status"] for dose in home.doses_of_today()]


def speak(home: CareHome, language: str) -> None:  # noqa: F811
    """Her language, set from her caregiver's phone as on her Settings; her tablet follows live."""
    chosen = requests.put(f"{home.hub.url}/api/v1/people/{home.senior_id}/display", headers=home.carer_headers, timeout=5,
                          json={"textSize": "large", "theme": "system", "language": language, "speechRate": "normal"})
    assert chosen.status_code == 200, chosen.text


def ask(driver, label: str, title: str, text: str) -> None:
    """Taken on the tile; the question, as Today's, keyboard on "Not yet", fitting the screen, axe clean."""
    click(driver, "#panel-next-dose-taken")
    wait_for(driver, "the question", the_question_is_open)
    assert text_of(driver, "#early-dose-title") == title
    assert text_of(driver, "#early-dose-text") == text
    assert driver.switch_to.active_element.get_attribute("id") == "early-dose-cancel", "Not yet has the keyboard"
    assert dialog_fits(driver, "early-dose-dialog")
    shot(driver, f"taken-early-{label}")
    violations = axe_violations(driver, f"the panel, the early question ({label})")
    assert not violations, "\n\n".join(violations)


def test_taken_on_the_panels_next_dose_hours_early_asks_first_and_not_yet_records_nothing(browser, home, screen):  # noqa: F811
    later = later_today(home)
    home.add_medication("Bisoprolol", [every_day(later)], strength="5 mg")
    senior_window(browser, home)
    wait_for(browser, "the panel", lambda d: len(tiles_arranged(d)) == 6)
    turn_sound_on(browser)
    wait_for(browser, "the next dose", lambda d: "Bisoprolol 5 mg" in text_of(d, "#panel-next-dose-what"))

    # "Not yet", by keyboard (the Enter a stray press would be): nothing recorded, the keyboard back on Taken.
    ask(browser, f"{screen}-en", "Taken Bisoprolol 5 mg already?", f"It is planned for {later}. Record it as taken now?")
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(browser, "the question gone", lambda d: not d.find_elements(By.ID, "early-dose-dialog"))
    wait_for(browser, "the keyboard back on Taken",
             lambda d: d.switch_to.active_element.get_attribute("id") == "panel-next-dose-taken")
    assert recorded(home) == ["upcoming"], "Not yet records nothing"

    # In Polish: "Jeszcze nie" by a tap records nothing; "Tak, przyjęty teraz" records it.
    speak(home, "pl")
    wait_for(browser, "the tablet in Polish", lambda d: d.execute_script("return document.documentElement.lang") == "pl")
    polish = ("Czy już przyjęte: Bisoprolol 5 mg?", f"Jest zaplanowany na {later}. Zapisać jako przyjęty teraz?")
    ask(browser, f"{screen}-pl", *polish)
    click(browser, "#early-dose-cancel")
    wait_for(browser, "the question gone", lambda d: not d.find_elements(By.ID, "early-dose-dialog"))
    assert recorded(home) == ["upcoming"], "Jeszcze nie records nothing"

    click(browser, "#panel-next-dose-taken")
    wait_for(browser, "the question again", the_question_is_open)
    click(browser, "#early-dose-confirm")
    wait_for(browser, "recorded", lambda d: recorded(home) == ["taken"])
    wait_for(browser, "the tile says nothing is left",
             lambda d: d.find_elements(By.ID, "panel-next-dose-none"))
    assert browser_console_errors(browser) == []

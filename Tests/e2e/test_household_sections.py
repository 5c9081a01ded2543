"""The Household page in sections a person opens, in a real headless
Chromium on a laptop (1280×800) and a phone (390×844): each section's
heading and a line of what is inside stay in view while it is closed; People
is open at first, the rest closed; Enter and Space open and close a section
as a button would, and Tab hops from heading to heading; with every section
closed the page on a phone is a couple of screens, not nine, and nothing
scrolls sideways; this device keeps what a person left open, not what a
link opened. The admin sees every section; a senior and a caregiver see
none of the admin's, and no admin's control is even in the page (the hub
refuses them those routes anyway). A link names a section to open. No
WCAG 2.1 A/AA violations in English or Polish, sections open or closed."""

from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import browser_console_errors
from test_care_ui import CARER, SENIOR, CareHome, browser, home, open_as, text_of  # noqa: F401 (browser, home: fixtures)
from test_household_ui import ADMIN_SECTIONS, admin_window, carer_window, open_section, section_open, wait_for_household
from test_web_ui import axe_violations, choose_language, overflowing, wait_for

LAPTOP, PHONE = (1280, 800), (390, 844)
EVERY_SECTION = ["household-people", "archived-people", "household-care-links", "household-devices",
                 "household-alert-apps", "household-away", "household-add-device", "household-reminders",
                 "household-details", "household-language", "household-audit"]
# What only an admin can use: none of it may be in a senior's or a caregiver's page, even hidden.
ADMIN_CONTROLS = ["[data-action='approve']", ".person-archive", ".person-restore", "#archived-people-list",
                  "#away-reach", "#emergency-contacts-form", "#away-delays-form",
                  "#care-link-seniors", "select[data-action='add-caregiver']", "#household-audit-list",
                  "#reminders-form", "#household-form", "#household-language-select", "input[name='invite-role']",
                  "#invite-not-allowed"]


@pytest.fixture(params=[LAPTOP, PHONE], ids=["laptop", "phone"])
def size(request, browser):  # noqa: F811
    browser.set_window_size(*request.param)
    yield request.param
    browser.set_window_size(1280, 900)


def sections_shown(driver) -> list[str]:
    return driver.execute_script("return [...document.querySelectorAll('main section.household-section')].map(s => s.id)")


def sections_open(driver) -> list[str]:
    return [s for s in sections_shown(driver) if section_open(driver, s)]


def summary_lines(driver) -> dict[str, str]:
    """Each section's line under its heading, as read on screen."""
    return {s: text_of(driver, f"#{s}-summary") for s in sections_shown(driver)}


def wait_for_lines(driver, sections: list[str]) -> dict[str, str]:
    """Waits until the page knows who this is and has written every section's line."""
    wait_for(driver, "every section with its line", lambda d: sections_shown(d) == sections
             and all(summary_lines(d).get(s) for s in sections if s not in ("household-details", "household-language")))
    return summary_lines(driver)


def press(driver, section_id: str, key: str) -> None:
    """The keyboard on a section's heading, then a key, as a keyboard user does."""
    driver.execute_script("document.querySelector(arguments[0]).focus()", f"#{section_id} > details > summary")
    ActionChains(driver).send_keys(key).perform()


def page_height(driver) -> int:
    return driver.execute_script("return document.documentElement.scrollHeight")


def test_an_admin_sees_every_section_and_opens_and_closes_each_by_keyboard(browser, home: CareHome, size):  # noqa: F811
    admin_window(browser, home)
    wait_for_household(browser, 3)
    lines = wait_for_lines(browser, EVERY_SECTION)
    assert sections_open(browser) == ["household-people"], "People open at first, the rest closed"
    assert lines["household-people"] == "In all: 3 · cared for: 1"
    assert lines["household-devices"] == "Paired: 3"
    assert lines["household-care-links"] == "Cared for: 1"
    assert lines["household-reminders"] == "Missed after 30 min · reminded every 10 min"
    assert lines["archived-people"] == "Nobody is archived."
    assert lines["household-audit"].startswith("Latest: ")
    for section in EVERY_SECTION:
        summary = browser.find_element(By.CSS_SELECTOR, f"#{section} > details > summary")
        assert summary.is_displayed() and browser.find_element(By.ID, f"{section}-summary").is_displayed()
        assert summary.accessible_name.startswith(browser.find_element(By.ID, f"{section}-heading").text), section

    # Enter opens and Space closes, each section in turn; the keyboard stays on its heading.
    for section in EVERY_SECTION:
        if section_open(browser, section):
            press(browser, section, Keys.SPACE)
            wait_for(browser, f"{section} closed by Space", lambda d: not section_open(d, section))
        press(browser, section, Keys.ENTER)
        wait_for(browser, f"{section} opened by Enter", lambda d: section_open(d, section))
        assert browser.find_element(By.ID, f"{section}-heading").is_displayed()
        press(browser, section, Keys.SPACE)
        wait_for(browser, f"{section} closed by Space", lambda d: not section_open(d, section))
        assert browser.switch_to.active_element.tag_name == "summary"
    assert sections_open(browser) == []

    # All closed: Tab hops from heading to heading; the page is short and nothing scrolls sideways.
    press(browser, EVERY_SECTION[0], Keys.TAB)
    assert browser.execute_script("return document.activeElement.closest('section')?.id") == EVERY_SECTION[1]
    closed = page_height(browser)
    assert overflowing(browser) == []
    # The page before its sections was 7,826 px on this phone (6,138 on the laptop).
    # Not counted: the room kept free under a phone's bar of pages (fixed to the bottom).
    under_bar = browser.execute_script(
        "return parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--nav-bar-height')) || 0")
    assert closed - under_bar <= 2.5 * size[1], f"{closed} px ({under_bar} under the bar) with every section closed at {size}"

    # Every section open: still nothing sideways.
    for section in EVERY_SECTION:
        press(browser, section, Keys.ENTER)
    wait_for(browser, "every section open", lambda d: sections_open(d) == EVERY_SECTION)
    assert overflowing(browser) == []
    assert page_height(browser) > 2 * closed

    # This device keeps what she left open.
    for section in EVERY_SECTION[1:]:
        press(browser, section, Keys.ENTER)
    press(browser, "household-people", Keys.SPACE)
    press(browser, "household-devices", Keys.ENTER)
    wait_for(browser, "only Devices open", lambda d: sections_open(d) == ["household-devices"])
    browser.refresh()
    wait_for_lines(browser, EVERY_SECTION)
    assert sections_open(browser) == ["household-devices"]
    assert browser_console_errors(browser) == []


def test_the_admins_sections_are_axe_clean_open_and_closed_in_english_and_polish(browser, home: CareHome):  # noqa: F811
    violations = []
    try:
        for size in (PHONE, LAPTOP):
            browser.set_window_size(*size)
            browser.get("about:blank")
            admin_window(browser, home)
            wait_for_lines(browser, EVERY_SECTION)
            for language in ("en", "pl"):
                choose_language(browser, language)
                lines = wait_for_lines(browser, EVERY_SECTION)
                if language == "pl":
                    assert lines["household-people"] == "Razem: 3 · pod opieką: 1", lines
                    assert browser.find_element(By.ID, "household-devices-heading").text == "Urządzenia"
                for section in EVERY_SECTION:
                    if section_open(browser, section):
                        press(browser, section, Keys.SPACE)
                wait_for(browser, "every section closed", lambda d: sections_open(d) == [])
                violations += axe_violations(browser, f"Household, admin, closed, {language}, {size}")
                for section in EVERY_SECTION:
                    open_section(browser, section)
                violations += axe_violations(browser, f"Household, admin, open, {language}, {size}")
            choose_language(browser, "en")
    finally:
        browser.set_window_size(1280, 900)
    assert not violations, f"{len(violations)} WCAG 2.1 A/AA violation(s):\n\n" + "\n\n".join(violations)


def test_a_senior_and_a_caregiver_see_only_what_is_theirs(browser, home: CareHome):  # noqa: F811
    # What the page leaves out the hub refuses them anyway.
    for headers in (home.senior_headers, home.carer_headers):
        assert requests.get(f"{home.hub.url}/api/v1/household/audit", headers=headers, timeout=5).status_code == 403
        assert requests.get(f"{home.hub.url}/api/v1/people?archived=1", headers=headers, timeout=5).status_code == 403
        assert requests.put(f"{home.hub.url}/api/v1/household/reminders", json={"graceMinutes": 5, "repeatMinutes": 5},
                            headers=headers, timeout=5).status_code == 403
    violations = []
    try:
        for size in (LAPTOP, PHONE):
            browser.set_window_size(*size)
            browser.get("about:blank")

            # Babcia: her people, her devices, her phones' alerts, a code for her caregiver's phone.
            open_as(browser, home.hub, home.senior["token"], "127.0.0.1", "household")
            mine = ["household-people", "household-devices", "household-alert-apps", "household-add-device"]
            lines = wait_for_lines(browser, mine)
            assert lines["household-people"] == f"Looked after by: {CARER}"
            assert lines["household-devices"] == "Yours: 1"
            if size == LAPTOP:  # (then she opens them all, and this device keeps them open)
                assert sections_open(browser) == ["household-people"]
            people = browser.execute_script(
                "return [...document.querySelectorAll('#people-list li.person-item h3')].map(h => h.textContent)")
            assert people == [f"{SENIOR} (you)", CARER], "herself and who looks after her, not the whole household"
            assert browser.find_element(By.ID, f"person-{home.senior_id}-arrange").is_displayed(), "arranging her screen"
            open_section(browser, "household-alert-apps")
            assert browser.find_element(By.ID, "household-phone-alerts-link").is_displayed()
            assert not [s for s in ADMIN_SECTIONS if browser.find_elements(By.ID, s)]
            assert not [c for c in ADMIN_CONTROLS if browser.find_elements(By.CSS_SELECTOR, c)]
            for section in mine:
                open_section(browser, section)
            assert overflowing(browser) == []
            for language in ("en", "pl"):
                choose_language(browser, language)
                wait_for_lines(browser, mine)
                violations += axe_violations(browser, f"Household, senior, {language}, {size}")
            choose_language(browser, "en")

            # Ania: people, her own devices and phones; no code to make, no settings, no changes.
            carer_window(browser, home)
            theirs = ["household-people", "household-devices", "household-alert-apps"]
            lines = wait_for_lines(browser, theirs)
            assert lines["household-people"] == "In all: 3 · cared for: 1"
            assert lines["household-devices"] == "Yours: 1"
            assert not [s for s in ADMIN_SECTIONS if browser.find_elements(By.ID, s)]
            assert not browser.find_elements(By.ID, "household-add-device")
            assert not [c for c in ADMIN_CONTROLS if browser.find_elements(By.CSS_SELECTOR, c)]
            assert "below" not in text_of(browser, "#household-people"), "no pointer to a section she does not have"
            for section in theirs:
                open_section(browser, section)
            assert overflowing(browser) == []
            for language in ("en", "pl"):
                choose_language(browser, language)
                wait_for_lines(browser, theirs)
                violations += axe_violations(browser, f"Household, caregiver, {language}, {size}")
            choose_language(browser, "en")
            browser.close()
            browser.switch_to.window(browser.window_handles[0])
    finally:
        browser.set_window_size(1280, 900)
    assert not violations, f"{len(violations)} WCAG 2.1 A/AA violation(s):\n\n" + "\n\n".join(violations)
    assert browser_console_errors(browser) == []


def test_a_link_opens_its_section_and_this_device_does_not_keep_it_open(browser, home: CareHome):  # noqa: F811
    open_as(browser, home.hub, home.hub.token, "127.0.0.1", "household/devices")
    wait_for(browser, "Devices open", lambda d: section_open(d, "household-devices"))
    wait_for(browser, "the keyboard on its heading",
             lambda d: d.switch_to.active_element.get_attribute("id") == "household-devices-heading")
    wait_for(browser, "the device list shown", lambda d: d.find_element(By.CSS_SELECTOR, "#device-list").is_displayed())
    # Opened by the link, not by her: the page as she left it next time.
    browser.get(f"{home.hub.url}/#/household")
    wait_for_lines(browser, EVERY_SECTION)
    assert sections_open(browser) == ["household-people"]
    # A link to what is not hers opens nothing (and shows nothing of it).
    carer_window(browser, home, "household/audit")
    wait_for_lines(browser, ["household-people", "household-devices", "household-alert-apps"])
    assert sections_open(browser) == ["household-people"]
    assert browser_console_errors(browser) == []

"""The Household page in a real headless Chromium: the admin's laptop, the
senior's tablet and the caregiver's phone. The people are listed with their
roles and who looks after whom; the devices with whose they are and when
they were last used; the admin removes the caregiver's phone after a
confirmation and it disappears (and is refused by the hub), and is warned
before removing the very device in use; the reminder settings and the
household's name are saved (the name reaches the other screens live; the
settings are the admin's alone); a pairing code
made on the page is a QR code a phone can read and a code to type, and a
device paired with it shows up at once; a senior makes a code for her
caregiver, and the hub's refusal for someone else is shown; axe finds no
WCAG 2.1 A/AA violations on the page, with a code shown and with the
removal question open, in both colour schemes and in Polish.

The admin's window uses http://127.0.0.1:<port>, the caregiver's
http://localhost:<port> (see test_care_ui.py)."""

from __future__ import annotations

import io
import re
import time

import requests
import zxingcpp
from PIL import Image
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import ADMIN_NAME, HOUSEHOLD_NAME, browser_console_errors
from test_care_ui import CARER, SENIOR, CareHome, browser, every_day, home, open_as, soon, text_of  # noqa: F401 (browser, home: fixtures)
from test_web_ui import axe_violations, choose_language, click, overflowing, use_dark_colour_scheme, wait_for

SHORT_CODE = re.compile(r"^[0-9A-Z]{4}-[0-9A-Z]{4}$")


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def admin_window(driver, home: CareHome, page: str = "household") -> str:
    return open_as(driver, home.hub, home.hub.token, "127.0.0.1", page)


def carer_window(driver, home: CareHome, page: str = "household") -> str:
    return open_as(driver, home.hub, home.carer["token"], "localhost", page, new_window=True)


def lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip()]


def people_shown(driver) -> list[str]:
    """Each person's card as read on screen (one line each), in the page's order."""
    return ["\n".join(lines(card)) for card in driver.execute_script(
        "return [...document.querySelectorAll('#people-list li.person-item')].map(li => li.innerText)")]


def devices_shown(driver) -> dict[str, str]:
    """Device name → its card as read on screen (one line each), in the page's order."""
    pairs = driver.execute_script(
        "return [...document.querySelectorAll('#device-list li.device-item')]"
        ".map(li => [li.querySelector('h3').textContent, li.innerText])")
    return {name: "\n".join(lines(card)) for name, card in pairs}


def device_button(driver, name: str):
    """The device's Remove button. The list may be drawn again (a live change
    arrived) between finding a card and reading it: then it is read again."""
    for _ in range(20):
        try:
            for item in driver.find_elements(By.CSS_SELECTOR, "#device-list li.device-item"):
                if item.find_element(By.TAG_NAME, "h3").text == name:
                    return item.find_element(By.CSS_SELECTOR, "button[data-action='remove']")
            break
        except StaleElementReferenceException:
            time.sleep(0.1)
    raise AssertionError(f"no device {name!r} on the page")


def click_remove(driver, name: str) -> None:
    """Clicks the device's Remove button. The list is drawn again when a live
    change arrives (a device removed a moment ago), which can replace the
    button between finding and clicking it: then it is found again."""
    for _ in range(20):
        try:
            device_button(driver, name).click()
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    device_button(driver, name).click()


def dialog_open(driver, dialog_id: str) -> bool:
    return driver.execute_script("return !!document.getElementById(arguments[0])?.open", dialog_id)


def active_focus_key(driver) -> str | None:
    return driver.execute_script("return document.activeElement?.dataset?.focusKey ?? null")


def wait_for_household(driver, devices: int):
    wait_for(driver, f"{devices} device(s) on the Household page",
             lambda d: len(d.find_elements(By.CSS_SELECTOR, "#device-list li.device-item")) == devices
             and d.find_elements(By.CSS_SELECTOR, "#people-list li.person-item"))


# The sections only an admin sees: nobody else gets even their headings.
ADMIN_SECTIONS = ("archived-people", "household-care-links", "household-reminders", "household-details",
                  "household-language", "household-audit")


def section_open(driver, section_id: str) -> bool:
    return driver.execute_script("return !!document.querySelector(arguments[0])?.open", f"#{section_id} > details")


def open_section(driver, section_id: str) -> None:
    """Opens a section of the Household page as a person does, with a click
    on its heading (nothing when it is open already)."""
    summary = f"#{section_id} > details > summary"
    wait_for(driver, f"the section {section_id}", lambda d: d.find_elements(By.CSS_SELECTOR, summary))
    if not section_open(driver, section_id):
        click(driver, summary)
    wait_for(driver, f"{section_id} open", lambda d: section_open(d, section_id))


def reminders(home: CareHome) -> dict:
    response = requests.get(f"{home.hub.url}/api/v1/household/reminders", headers=home.hub.headers, timeout=5)
    assert response.status_code == 200, response.text
    return response.json()


def type_into(driver, element_id: str, text: str):
    field = driver.find_element(By.ID, element_id)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE)
    field.send_keys(text)


def decoded_qr(driver) -> str:
    """The QR code on screen, photographed and read as a phone would."""
    qr = driver.find_element(By.ID, "pairing-qr")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", qr)
    image = Image.open(io.BytesIO(qr.screenshot_as_png)).convert("L")
    found = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(found) == 1, f"one QR code expected on screen, found {len(found)}"
    return found[0].text


# --------------------------------------------------------------------------
# People and devices
# --------------------------------------------------------------------------


def test_the_household_page_lists_the_people_and_the_devices_with_their_owners(browser, home):
    admin_window(browser, home)
    wait_for_household(browser, 3)
    assert browser.find_element(By.CSS_SELECTOR, "main h1").text == "Household"
    assert browser.find_element(By.ID, "household-page-name").text == HOUSEHOLD_NAME
    people = people_shown(browser)
    assert [card.split("\n")[:2] for card in people] == [
        [SENIOR, "Cared for"], [CARER, "Caregiver"], [f"{ADMIN_NAME} (you)", "Household admin"]]

    open_section(browser, "household-devices")
    devices = devices_shown(browser)
    assert list(devices) == ["e2e admin", "Telefon Ani", "Tablet babci"], "this device first, then by whose they are"
    assert "This device (in use now)" in devices["e2e admin"] and f"Belongs to: {ADMIN_NAME}" in devices["e2e admin"]
    assert "Last used: now" in devices["e2e admin"]
    assert f"Belongs to: {SENIOR}" in devices["Tablet babci"] and "This device" not in devices["Tablet babci"]
    assert f"Belongs to: {CARER}" in devices["Telefon Ani"]
    remove = device_button(browser, "Tablet babci")
    assert remove.accessible_name == "Remove", "the button says what it does"
    assert browser.execute_script("return document.getElementById(arguments[0].getAttribute('aria-describedby')).textContent",
                                  remove) == "Tablet babci", "and which device it is for"
    # An admin manages the household: forms, not just values.
    assert browser.find_element(By.ID, "reminder-grace").get_attribute("value") == "30"
    assert browser.find_element(By.ID, "reminder-repeat").get_attribute("value") == "10"
    assert browser.find_element(By.ID, "household-name-input").get_attribute("value") == HOUSEHOLD_NAME
    assert browser.find_elements(By.ID, "invite-form")

    # The caregiver: her own phone only, whom she looks after, and none of the admin's sections.
    carer_window(browser, home)
    wait_for_household(browser, 1)
    open_section(browser, "household-devices")
    assert list(devices_shown(browser)) == ["Telefon Ani"]
    assert device_button(browser, "Telefon Ani"), "her own device she may remove"
    people = {card.split("\n")[0]: card for card in people_shown(browser)}
    assert f"Looks after: {SENIOR}" in people[f"{CARER} (you)"]
    assert f"Looked after by: {CARER}" in people[SENIOR]
    assert not browser.find_elements(By.ID, "household-add-device"), "the hub lets her add no device"
    assert not browser.find_elements(By.ID, "invite-form")
    assert not browser.find_elements(By.ID, "reminders-form") and not browser.find_elements(By.ID, "household-form")
    assert not [s for s in ADMIN_SECTIONS if browser.find_elements(By.ID, s)]

    # A new phone paired for her shows up on her page without a reload.
    home.hub.pair_device("--person", CARER, device_name="Tablet Ani", wait=False)
    wait_for(browser, "the new tablet in her list", lambda d: "Tablet Ani" in devices_shown(d))
    assert browser_console_errors(browser) == []


def test_removing_another_device_asks_first_and_then_it_is_gone(browser, home):
    admin_window(browser, home)
    wait_for_household(browser, 3)
    open_section(browser, "household-devices")

    click_remove(browser, "Telefon Ani")
    wait_for(browser, "the question", lambda d: dialog_open(d, "remove-device-dialog"))
    assert text_of(browser, "#remove-device-title") == "Remove “Telefon Ani”?"
    assert not browser.find_elements(By.ID, "remove-device-current"), "not this device: no warning about it"
    assert browser.switch_to.active_element.get_attribute("id") == "remove-device-cancel", \
        "Cancel has the keyboard, so a stray Enter removes nothing"
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_for(browser, "the question gone", lambda d: not d.find_elements(By.ID, "remove-device-dialog"))
    assert active_focus_key(browser) == f"{home.carer['device']['id']}:remove", "the keyboard is back on Remove"
    assert "Telefon Ani" in [device["name"] for device in home.hub.devices()], "Escape removes nothing"

    click_remove(browser, "Telefon Ani")
    wait_for(browser, "the question", lambda d: dialog_open(d, "remove-device-dialog"))
    browser.find_element(By.ID, "remove-device-confirm").click()
    wait_for(browser, "the phone gone from the list", lambda d: list(devices_shown(d)) == ["e2e admin", "Tablet babci"])
    wait_for(browser, "it said so", lambda d: d.find_element(By.ID, "household-announcer").get_attribute("textContent")
             == "Telefon Ani was removed. It can no longer use Hearth.")
    assert sorted(device["name"] for device in home.hub.devices()) == ["Tablet babci", "e2e admin"]
    refused = requests.get(f"{home.hub.url}/api/v1/devices", headers=home.carer_headers, timeout=5)
    assert refused.status_code == 401, "the hub no longer lets the phone in"
    assert browser.find_element(By.ID, "problem").text == ""

    # This very laptop: the question says so plainly.
    click_remove(browser, "e2e admin")
    wait_for(browser, "the question", lambda d: dialog_open(d, "remove-device-dialog"))
    warning = text_of(browser, "#remove-device-current")
    assert warning.startswith("This is the device you are using now."), warning
    assert text_of(browser, "#remove-device-confirm") == "Remove this device"
    browser.find_element(By.ID, "remove-device-confirm").click()
    wait_for(browser, "the not-paired notice", lambda d: d.find_elements(By.ID, "unpaired"))
    assert [device["name"] for device in requests.get(
        f"{home.hub.url}/api/v1/devices", headers=home.senior_headers, timeout=5).json()] == ["Tablet babci"]


# --------------------------------------------------------------------------
# Settings
# --------------------------------------------------------------------------


def test_reminder_settings_and_the_name_are_saved_and_reach_other_screens(browser, home):
    admin_window(browser, home)
    wait_for_household(browser, 3)
    assert text_of(browser, "#household-reminders-summary") == "Missed after 30 min · reminded every 10 min"
    carer = carer_window(browser, home)
    wait_for_household(browser, 1)
    admin = browser.window_handles[0]
    browser.switch_to.window(admin)
    open_section(browser, "household-reminders")
    open_section(browser, "household-details")

    # A mistake is explained beside the field, which gets the keyboard; nothing is sent.
    type_into(browser, "reminder-grace", "0")
    browser.find_element(By.ID, "save-reminders").click()
    wait_for(browser, "the mistake explained", lambda d: d.find_elements(By.ID, "reminder-grace-error"))
    assert text_of(browser, "#reminder-grace-error") == "Please give a whole number of minutes from 1 to 720."
    assert browser.switch_to.active_element.get_attribute("id") == "reminder-grace"
    assert browser.find_element(By.ID, "reminder-grace").get_attribute("aria-invalid") == "true"
    assert reminders(home) == {"graceMinutes": 30, "repeatMinutes": 10}

    type_into(browser, "reminder-grace", "45")
    type_into(browser, "reminder-repeat", "15")
    browser.find_element(By.ID, "save-reminders").click()
    wait_for(browser, "Saved.", lambda d: text_of(d, "#save-reminders-status") == "Saved.")
    assert reminders(home) == {"graceMinutes": 45, "repeatMinutes": 15}
    assert not browser.find_elements(By.ID, "reminder-grace-error")

    type_into(browser, "household-name-input", "Dom Babci Zosi")
    browser.find_element(By.ID, "save-household").click()
    wait_for(browser, "the new name at the top", lambda d: text_of(d, "#household-page-name") == "Dom Babci Zosi")
    household = requests.get(f"{home.hub.url}/api/v1/household", headers=home.hub.headers, timeout=5).json()
    assert household["name"] == "Dom Babci Zosi"

    # Closed again, each section says what it holds now.
    click(browser, "#household-reminders > details > summary")
    click(browser, "#household-details > details > summary")
    wait_for(browser, "the new values in the sections' lines",
             lambda d: text_of(d, "#household-reminders-summary") == "Missed after 45 min · reminded every 15 min"
             and text_of(d, "#household-details-summary").startswith("Dom Babci Zosi · "))
    browser.switch_to.window(carer)
    wait_for(browser, "the new name on the caregiver's phone, live", lambda d: text_of(d, "#household-page-name") == "Dom Babci Zosi")
    assert not browser.find_elements(By.ID, "household-reminders"), "the settings are the admin's"

    # The hub is the judge: a caregiver who tries anyway is refused.
    refused = requests.put(f"{home.hub.url}/api/v1/household/reminders", headers=home.carer_headers, timeout=5,
                           json={"graceMinutes": 5, "repeatMinutes": 5})
    assert refused.status_code == 403
    assert browser_console_errors(browser) == []


def test_the_time_zone_is_found_by_a_few_letters_with_this_devices_zone_first(browser, home):
    # This device is in Lisbon; the household in Warsaw.
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Europe/Lisbon"})
    try:
        requests.patch(f"{home.hub.url}/api/v1/household", json={"timeZone": "Europe/Warsaw"},
                       headers=home.hub.headers, timeout=5).raise_for_status()
        admin_window(browser, home)
        wait_for_household(browser, 3)
        open_section(browser, "household-details")
        groups = browser.execute_script("""return [...document.querySelectorAll('#household-time-zone optgroup')]
            .map(g => [g.label, [...g.querySelectorAll('option')].map(o => o.value)])""")
        assert groups[0] == ["This household and this device", ["Europe/Warsaw", "Europe/Lisbon"]]
        assert [label for label, _ in groups[1:4]] == ["Europe", "America", "Asia"]
        assert sum(len(zones) for _, zones in groups) > 300

        # A few letters narrow the list; what is chosen stays in it.
        search = browser.find_element(By.ID, "household-time-zone-search")
        assert search.accessible_name.startswith("Find a time zone")
        search.send_keys("buenos")
        options = browser.execute_script(
            "return [...document.querySelectorAll('#household-time-zone option')].map(o => [o.value, o.textContent])")
        # (Chromium names it America/Buenos_Aires; the label says the place.)
        assert options[0] == ["Europe/Warsaw", "Warsaw (Europe/Warsaw)"]
        assert len(options) == 2 and "Buenos Aires (America/" in options[1][1], options
        assert browser.switch_to.active_element.get_attribute("id") == "household-time-zone-search", "typing goes on"
        Select(browser.find_element(By.ID, "household-time-zone")).select_by_value(options[1][0])
        browser.find_element(By.ID, "save-household").click()
        wait_for(browser, "the household moved", lambda d: requests.get(
            f"{home.hub.url}/api/v1/household", headers=home.hub.headers, timeout=5).json()["timeZone"] == options[1][0])
        assert browser_console_errors(browser) == []
    finally:
        browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})


PAGES = ("today", "notes", "medications", "medications/history", "medications/new", "alerts", "household", "settings")


def test_every_page_fits_a_phone_whose_pages_are_a_bar_at_the_bottom_but_a_seniors(browser, home):
    home.add_medication("Aspirin", [every_day(soon(home))], strength="75 mg")
    for raised in range(2):
        requests.post(f"{home.hub.url}/api/v1/sos", headers=home.senior_headers, timeout=5).raise_for_status()
    try:
        for width, height in ((360, 800), (390, 844), (1280, 800)):
            browser.set_window_size(width, height)
            for who, token in (("admin", home.hub.token), ("caregiver", home.carer["token"]), ("senior", home.senior["token"])):
                browser.get("about:blank")
                open_as(browser, home.hub, token, "127.0.0.1", "today")
                for page in PAGES:
                    browser.get(f"{home.hub.url}/#/{page}")
                    wait_for(browser, f"{page} drawn", lambda d: d.find_elements(By.CSS_SELECTOR, "main h1")
                             and not d.find_elements(By.CSS_SELECTOR, "main .loading"))
                    time.sleep(0.2)
                    assert overflowing(browser) == [], f"{who}, #/{page} at {width} px"

        # On a phone the header takes one row at the top, once sound is on, and the pages
        # a bar of icons with their names at the bottom: four, then "More".
        browser.set_window_size(390, 844)
        browser.get("about:blank")
        open_as(browser, home.hub, home.carer["token"], "127.0.0.1", "today")
        wait_for(browser, "the sound button", lambda d: d.find_element(By.ID, "sound-button").is_displayed())
        browser.find_element(By.ID, "sound-button").click()
        wait_for(browser, "sound on", lambda d: not d.find_element(By.ID, "sound-button").is_displayed())
        assert browser.execute_script("return document.querySelector('.site-header').getBoundingClientRect().bottom") <= 70
        bar = browser.execute_script("const r = document.querySelector('.site-nav').getBoundingClientRect();"
                                     "return [r.top, r.bottom, innerHeight]")
        assert bar[1] == bar[2] and bar[2] - bar[0] <= 100, f"the bar's top, bottom and the screen's: {bar}"
        shown = lambda d: [a.get_attribute("data-page") for a in d.find_elements(By.CSS_SELECTOR, "#nav-list a") if a.is_displayed()]
        assert shown(browser) == ["today", "notes", "medications", "alerts"]
        toggle = browser.find_element(By.ID, "nav-toggle")
        assert toggle.text == "More" and toggle.get_attribute("aria-expanded") == "false"
        # Its icon is drawn (an SVG the size of the text), not a character a font may lack.
        assert toggle.find_element(By.CSS_SELECTOR, ".nav-toggle-icon svg.icon").size["width"] >= 16
        # The page keeps its last line above the bar.
        assert browser.execute_script("return parseFloat(getComputedStyle(document.querySelector('main')).paddingBottom)") >= bar[2] - bar[0]
        toggle.click()
        assert toggle.get_attribute("aria-expanded") == "true"
        assert shown(browser) == ["today", "notes", "medications", "alerts", "games", "household", "settings"]
        # The keyboard is taken to the first page "More" shows, above it.
        assert browser.switch_to.active_element.get_attribute("data-page") == "games"
        browser.find_element(By.CSS_SELECTOR, "#nav-list a[data-page='household']").click()
        wait_for(browser, "the Household page, More closed", lambda d: d.find_element(By.CSS_SELECTOR, "main h1").text == "Household"
                 and shown(d) == ["today", "notes", "medications", "alerts"])
        # "More" is lit as where the open page is, and says which to a screen reader.
        toggle = browser.find_element(By.ID, "nav-toggle")
        assert toggle.get_attribute("data-current") == "true"
        assert toggle.get_attribute("textContent").split() == ["More", "Household"]
        toggle.click()
        browser.switch_to.active_element.send_keys(Keys.ESCAPE)
        assert shown(browser) == ["today", "notes", "medications", "alerts"]
        assert browser.switch_to.active_element.get_attribute("id") == "nav-toggle"
        browser.find_element(By.CSS_SELECTOR, "#nav-list a[data-page='today']").click()
        wait_for(browser, "Today again", lambda d: d.find_element(By.CSS_SELECTOR, "main h1").text == "Today")
        assert browser.find_element(By.ID, "nav-toggle").get_attribute("data-current") is None

        # Two open SOS calls fold into the first and a count.
        items = lambda d: [e for e in d.find_elements(By.CSS_SELECTOR, "#alert-banner .alert-item") if e.is_displayed()]
        wait_for(browser, "one banner shown", lambda d: len(items(d)) == 1)
        more = browser.find_element(By.ID, "alert-banner-more")
        assert more.text == "More alerts: 1" and more.get_attribute("aria-expanded") == "false"
        more.click()
        wait_for(browser, "both banners", lambda d: len(items(d)) == 2)
        # A tablet too shows one alert at a time, and how many more (the fold is kept as it was).
        browser.set_window_size(1280, 800)
        assert len(items(browser)) == 2 and browser.find_element(By.ID, "alert-banner-more").is_displayed()
        browser.find_element(By.ID, "alert-banner-more").click()
        wait_for(browser, "one banner on the tablet", lambda d: len(items(d)) == 1)
        assert browser.find_element(By.ID, "nav-list").is_displayed() and not browser.find_element(By.ID, "nav-toggle").is_displayed()

        # A senior's phone keeps its bottom for her SOS bar: her pages are behind one "Menu" at the top.
        browser.set_window_size(390, 844)
        browser.get("about:blank")
        open_as(browser, home.hub, home.senior["token"], "127.0.0.1", "today")
        wait_for(browser, "her SOS bar", lambda d: d.find_element(By.ID, "sos-dock").is_displayed())
        toggle = browser.find_element(By.ID, "nav-toggle")
        assert toggle.text.split()[0] == "Menu"
        assert browser.execute_script("return document.querySelector('.site-nav').getBoundingClientRect().bottom") <= 200
        assert browser.execute_script("return getComputedStyle(document.querySelector('.site-nav')).position") != "fixed"
    finally:
        browser.set_window_size(1280, 900)


def test_a_phone_is_axe_clean_in_english_and_polish(browser, home):
    home.add_medication("Aspirin", [every_day(soon(home))], strength="75 mg")
    for raised in range(2):
        requests.post(f"{home.hub.url}/api/v1/sos", headers=home.senior_headers, timeout=5).raise_for_status()
    violations = []
    try:
        browser.set_window_size(390, 844)
        for who, token in (("caregiver", home.carer["token"]), ("senior", home.senior["token"]), ("admin", home.hub.token)):
            browser.get("about:blank")
            open_as(browser, home.hub, token, "127.0.0.1", "today")
            for language in ("en", "pl"):
                choose_language(browser, language)
                for page in ("today", "alerts", "household"):
                    browser.get(f"{home.hub.url}/#/{page}")
                    wait_for(browser, f"{page} drawn", lambda d: d.find_elements(By.CSS_SELECTOR, "main h1")
                             and not d.find_elements(By.CSS_SELECTOR, "main .loading"))
                    violations += axe_violations(browser, f"{who}, {page}, {language}, phone")
                browser.find_element(By.ID, "nav-toggle").click()
                violations += axe_violations(browser, f"{who}, the menu open, {language}, phone")
                browser.find_element(By.ID, "nav-toggle").click()
    finally:
        browser.set_window_size(1280, 900)
    assert not violations, f"{len(violations)} WCAG 2.1 A/AA violation(s):\n\n" + "\n\n".join(violations)


# --------------------------------------------------------------------------
# Adding a device with a code shown on the page
# --------------------------------------------------------------------------


def test_a_pairing_code_made_on_the_page_pairs_a_new_persons_phone(browser, home):
    admin_window(browser, home)
    wait_for_household(browser, 3)
    open_section(browser, "household-add-device")
    open_section(browser, "household-devices")
    browser.find_element(By.ID, "invite-who-new").click()
    wait_for(browser, "the new person's fields", lambda d: d.find_elements(By.ID, "invite-name"))
    browser.find_element(By.ID, "invite-button").click()
    wait_for(browser, "what is missing", lambda d: d.find_elements(By.ID, "invite-name-error"))
    assert text_of(browser, "#invite-name-error") == "Please give their name."
    assert browser.switch_to.active_element.get_attribute("id") == "invite-name"

    browser.find_element(By.ID, "invite-name").send_keys("Wnuczka Ola")
    browser.find_element(By.ID, "invite-role-caregiver").click()
    browser.find_element(By.ID, "invite-button").click()
    wait_for(browser, "the code", lambda d: d.find_elements(By.CSS_SELECTOR, "#pairing-code[data-status='waiting'] #pairing-qr"))
    assert browser.switch_to.active_element.get_attribute("id") == "pairing-code-heading", "screen readers hear it came"
    assert text_of(browser, "#pairing-code-heading") == "Pairing code for Wnuczka Ola"
    short_code = text_of(browser, "#pairing-short-code")
    assert SHORT_CODE.match(short_code), short_code
    assert f"open http://127.0.0.1:{home.hub.port}/pair and type this code" in text_of(browser, "#pairing-code")
    countdown = text_of(browser, "#pairing-countdown")
    assert re.fullmatch(r"The code works for another (10:00|9:[0-5]\d)\.", countdown), countdown
    qr = browser.find_element(By.ID, "pairing-qr")
    assert qr.size["width"] >= 300, "large enough to scan from arm's length"
    assert qr.accessible_name == "QR code to pair a device for Wnuczka Ola"
    time.sleep(1.2)
    assert text_of(browser, "#pairing-countdown") != countdown, "the countdown runs"

    # A phone reads the QR code and opens its link: the secret in it pairs the phone.
    url = decoded_qr(browser)
    match = re.fullmatch(rf"http://127\.0\.0\.1:{home.hub.port}/pair#([A-Za-z0-9_-]+)", url)
    assert match, url
    paired = requests.post(f"{home.hub.url}/api/v1/pairing", json={"code": match[1], "deviceName": "Telefon Oli"}, timeout=5)
    assert paired.status_code == 201, paired.text
    person = paired.json()["person"]
    assert (person["name"], person["role"]) == ("Wnuczka Ola", "caregiver")
    wait_for(browser, "the page to say it is paired", lambda d: d.find_elements(By.CSS_SELECTOR, "#pairing-code[data-status='paired']"))
    assert text_of(browser, "#pairing-status") == "Paired: Telefon Oli, for Wnuczka Ola."
    wait_for(browser, "Ola and her phone in the lists",
             lambda d: "Telefon Oli" in devices_shown(d) and any(card.startswith("Wnuczka Ola\nCaregiver") for card in people_shown(d)))
    assert "Belongs to: Wnuczka Ola" in devices_shown(browser)["Telefon Oli"]

    # Another code, for someone already here, typed by hand on the phone.
    browser.find_element(By.ID, "pairing-again").click()
    wait_for(browser, "the form again", lambda d: d.find_elements(By.ID, "invite-form"))
    browser.find_element(By.ID, "invite-who-existing").click()
    Select(browser.find_element(By.ID, "invite-personId")).select_by_visible_text(f"{CARER} (Caregiver)")
    browser.find_element(By.ID, "invite-button").click()
    wait_for(browser, "the code", lambda d: d.find_elements(By.CSS_SELECTOR, "#pairing-code[data-status='waiting']"))
    typed = text_of(browser, "#pairing-short-code").lower().replace("-", " ")
    paired = requests.post(f"{home.hub.url}/api/v1/pairing", json={"shortCode": typed, "deviceName": "Laptop Ani"}, timeout=5)
    assert paired.status_code == 201, paired.text
    assert paired.json()["person"]["id"] == home.carer["person"]["id"]
    wait_for(browser, "paired", lambda d: text_of(d, "#pairing-status") == f"Paired: Laptop Ani, for {CARER}.")
    wait_for(browser, "the laptop in the list", lambda d: "Laptop Ani" in devices_shown(d))
    assert browser.find_element(By.ID, "problem").text == ""
    assert browser_console_errors(browser) == []


def test_a_seniors_tablet_offers_only_someone_new_and_the_hub_refuses_her_a_code_for_anyone_who_exists(browser, home):
    """Issue 38 #2: whoever redeems a code acts as its person, and her
    caregiver may look after another senior: a code her tablet made for him
    was a key to that senior's medicines and notes."""
    open_as(browser, home.hub, home.senior["token"], "127.0.0.1", "household")
    wait_for_household(browser, 1)
    open_section(browser, "household-devices")
    open_section(browser, "household-add-device")
    assert list(devices_shown(browser)) == ["Tablet babci"]
    assert not browser.find_elements(By.ID, "invite-personId"), "nobody who exists is offered"
    assert not browser.find_elements(By.CSS_SELECTOR, "input[name='invite-who']"), "no choice: someone new"
    assert browser.find_elements(By.ID, "invite-name")
    assert not browser.find_elements(By.CSS_SELECTOR, "input[name='invite-role']"), "she never picks a role"
    assert "ask the household admin" in text_of(browser, "#invite-intro")

    # Asked directly, the hub refuses her tablet a code for the admin and for
    # the caregiver who looks after her, alike.
    people = requests.get(f"{home.hub.url}/api/v1/people", headers=home.hub.headers, timeout=5).json()
    for name in ("admin", CARER):
        person = next(p for p in people if p["role"] == name or p["name"] == name)
        refused = requests.post(f"{home.hub.url}/api/v1/pairing/invitations", json={"personId": person["id"]},
                                headers=home.senior_headers, timeout=5)
        assert refused.status_code == 403, refused.text
        assert refused.headers["Content-Type"].startswith("application/problem+json")
    assert browser_console_errors(browser) == []


def test_a_seniors_tablet_invites_someone_new_who_then_looks_after_her_alone_once_an_admin_approves(browser, home):
    open_as(browser, home.hub, home.senior["token"], "127.0.0.1", "household")
    wait_for_household(browser, 1)
    open_section(browser, "household-add-device")
    wait_for(browser, "the name field", lambda d: d.find_elements(By.ID, "invite-name"))
    assert not browser.find_elements(By.CSS_SELECTOR, "input[name='invite-role']"), "a caregiver: she never picks a role"
    browser.find_element(By.ID, "invite-name").send_keys("Wnuczka Ola")
    browser.find_element(By.ID, "invite-button").click()
    wait_for(browser, "the code", lambda d: d.find_elements(By.CSS_SELECTOR, "#pairing-code[data-status='waiting'] #pairing-qr"))
    assert "caregiver who looks after you" in text_of(browser, "#pairing-new-caregiver")
    assert axe_violations(browser, "A senior's code for someone new") == []

    # Ola's phone reads the QR code: she is a caregiver who looks after Babcia, and no one else.
    url = decoded_qr(browser)
    match = re.fullmatch(rf"http://127\.0\.0\.1:{home.hub.port}/pair#([A-Za-z0-9_-]+)", url)
    assert match, url
    paired = requests.post(f"{home.hub.url}/api/v1/pairing", json={"code": match[1], "deviceName": "Telefon Oli"}, timeout=5)
    assert paired.status_code == 201, paired.text
    ola = paired.json()
    assert (ola["person"]["name"], ola["person"]["role"]) == ("Wnuczka Ola", "caregiver")
    wait_for(browser, "the page to say it is paired", lambda d: d.find_elements(By.CSS_SELECTOR, "#pairing-code[data-status='paired']"))
    ola_headers = {"Authorization": f"Bearer {ola['token']}"}
    people = requests.get(f"{home.hub.url}/api/v1/people", headers=home.hub.headers, timeout=5).json()
    [listed] = [p for p in people if p["name"] == "Wnuczka Ola"]
    assert listed["caresFor"] == [home.senior_id]
    # By default her phone does nothing until an admin approves it.
    waiting = requests.get(f"{home.hub.url}/api/v1/alerts", params={"personId": home.senior_id}, headers=ola_headers, timeout=5)
    assert waiting.status_code == 403 and waiting.json()["type"] == "urn:hearth:problem:awaiting-approval", waiting.text
    approved = requests.post(f"{home.hub.url}/api/v1/devices/{ola['device']['id']}/approve", headers=home.hub.headers, timeout=5)
    assert approved.status_code in (200, 204), approved.text
    assert requests.get(f"{home.hub.url}/api/v1/alerts", params={"personId": home.senior_id}, headers=ola_headers,
                        timeout=5).status_code == 200, "she sees Babcia's care once approved"

    # The admin sees whom Babcia invited, and the link it made.
    audit = requests.get(f"{home.hub.url}/api/v1/household/audit", headers=home.hub.headers, timeout=5).json()
    assert any(e["entity"] == "pairingCode" and e["summary"].get("personName") == "Wnuczka Ola"
               and e["summary"].get("seniorName") == SENIOR and e["actorName"] == SENIOR for e in audit), audit
    assert any(e["entity"] == "careLink" and e["summary"].get("caregiverName") == "Wnuczka Ola" for e in audit), audit

    # Her tablet may not invite an admin, nor someone whose name is taken.
    for body, status in (({"newPerson": {"name": "Nowy", "role": "admin"}}, 403), ({"newPerson": {"name": CARER, "role": "caregiver"}}, 409)):
        refused = requests.post(f"{home.hub.url}/api/v1/pairing/invitations", json=body, headers=home.senior_headers, timeout=5)
        assert refused.status_code == status, refused.text


def test_a_device_a_seniors_code_paired_waits_until_an_admin_approves_it_unless_the_household_says_not(browser, hub_launcher):
    """The default asks an admin; `pairing.seniorInvitesNeedApproval: false` does not."""
    trusting = hub_launcher.start(data_dir=hub_launcher.tmp_path / "trusting",
                                  env={"HEARTH_PAIRING_SENIOR_INVITES_NEED_APPROVAL": "false"}).pair_admin(wait=False)
    senior = trusting.pair_device("--new-person", SENIOR, "--role", "senior", device_name="Tablet babci", wait=False)
    made = requests.post(f"{trusting.url}/api/v1/pairing/invitations", json={"newPerson": {"name": "Wnuczka Ola", "role": "caregiver"}},
                         headers={"Authorization": f"Bearer {senior['token']}"}, timeout=5)
    assert made.status_code == 201, made.text
    paired = requests.post(f"{trusting.url}/api/v1/pairing", json={"code": made.json()["url"].rsplit("#", 1)[1]}, timeout=5)
    assert paired.status_code == 201, paired.text
    assert requests.get(f"{trusting.url}/api/v1/today", headers={"Authorization": f"Bearer {paired.json()['token']}"},
                        timeout=5).status_code == 200, "works at once when the household said so"

    hub = hub_launcher.start().pair_admin(wait=False)
    senior = hub.pair_device("--new-person", SENIOR, "--role", "senior", device_name="Tablet babci", wait=False)
    senior_headers = {"Authorization": f"Bearer {senior['token']}"}
    made = requests.post(f"{hub.url}/api/v1/pairing/invitations", json={"newPerson": {"name": "Wnuczka Ola", "role": "caregiver"}},
                         headers=senior_headers, timeout=5)
    assert made.status_code == 201, made.text
    secret = made.json()["url"].rsplit("#", 1)[1]
    paired = requests.post(f"{hub.url}/api/v1/pairing", json={"code": secret, "deviceName": "Telefon Oli"}, timeout=5)
    assert paired.status_code == 201, paired.text
    ola = paired.json()
    ola_headers = {"Authorization": f"Bearer {ola['token']}"}
    waiting = requests.get(f"{hub.url}/api/v1/today", headers=ola_headers, timeout=5)
    assert waiting.status_code == 403 and waiting.json()["type"] == "urn:hearth:problem:awaiting-approval", waiting.text
    assert "admin" in waiting.json()["detail"]

    # The admin sees it waiting among the devices, and approves it.
    open_as(browser, hub, hub.token, "127.0.0.1", "household")
    device_id = ola["device"]["id"]
    wait_for(browser, "the approve button", lambda d: d.find_elements(By.ID, f"device-{device_id}-approve"))
    item = browser.find_element(By.CSS_SELECTOR, f"li[data-device-id='{device_id}']")
    assert "Waiting for an admin’s approval" in item.text
    assert axe_violations(browser, "Household with a device waiting for approval") == []
    browser.find_element(By.ID, f"device-{device_id}-approve").click()
    wait_for(browser, "the device approved", lambda d: not d.find_elements(By.ID, f"device-{device_id}-approve"))
    assert requests.get(f"{hub.url}/api/v1/today", headers=ola_headers, timeout=5).status_code == 200
    assert browser_console_errors(browser) == []


# --------------------------------------------------------------------------
# Accessibility
# --------------------------------------------------------------------------


def test_the_household_page_has_no_wcag_21_aa_violations(browser, home):
    violations = []
    for scheme in ("light", "dark"):
        if scheme == "dark":
            use_dark_colour_scheme(browser)
            browser.refresh()  # the page as first opened, without the code made above
        else:
            admin_window(browser, home)
        wait_for_household(browser, 3)
        violations += axe_violations(browser, f"Household, admin, {scheme}")
        for section in ("household-add-device", "household-reminders", "household-devices"):
            open_section(browser, section)

        browser.find_element(By.ID, "invite-who-new").click()
        browser.find_element(By.ID, "invite-button").click()
        wait_for(browser, "the mistakes", lambda d: d.find_elements(By.ID, "invite-name-error"))
        type_into(browser, "reminder-repeat", "999")
        browser.find_element(By.ID, "save-reminders").click()
        wait_for(browser, "the reminder mistake", lambda d: d.find_elements(By.ID, "reminder-repeat-error"))
        violations += axe_violations(browser, f"Household, admin, form mistakes, {scheme}")

        browser.find_element(By.ID, "invite-name").send_keys(f"Gość {scheme}")
        browser.find_element(By.ID, "invite-role-senior").click()
        browser.find_element(By.ID, "invite-button").click()
        wait_for(browser, "the code", lambda d: d.find_elements(By.ID, "pairing-qr"))
        violations += axe_violations(browser, f"Household, pairing code shown, {scheme}")

        click_remove(browser, "Tablet babci")
        wait_for(browser, "the question", lambda d: dialog_open(d, "remove-device-dialog"))
        violations += axe_violations(browser, f"Household, removing a device, {scheme}")
        browser.find_element(By.ID, "remove-device-cancel").click()

    carer_window(browser, home)
    wait_for_household(browser, 1)
    violations += axe_violations(browser, "Household, caregiver, dark")
    choose_language(browser, "pl")
    wait_for(browser, "Polish", lambda d: d.find_element(By.CSS_SELECTOR, "main h1").text == "Dom"
             and "Opiekuje się" in text_of(d, "#people-list"))
    violations += axe_violations(browser, "Household, caregiver, Polish, dark")

    assert not violations, f"{len(violations)} WCAG 2.1 A/AA violation(s):\n\n" + "\n\n".join(violations)

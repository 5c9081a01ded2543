"""Lines that stop being true go, in a real Chromium on a 1280×800 tablet and
a 390×844 phone: the senior's line under the SOS slider follows her call
("Help has been called", "Ania is on the way.", how it ended for a minute,
then nothing) and never lies over a question's buttons; her Alerts page
says "Cancelled" of a call she called off; "Cannot reach the hub" and
"could not be sent" go when the hub is back, "an admin must approve" when
one does; and a tablet removed from the household shows nothing of it at
once, not after a reload.

The minute an ended call is told is shortened by the test's own script
(`window.hearthSOSEndedShownMs`, pages/today/sos-status.js): the Node tests hold
the minute itself."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import browser_console_errors
from test_care_ui import (  # noqa: F401 (fixtures)
    CARER, CareHome, banner_texts, browser, dose_selector, dose_status, every_day, home, open_as, soon, text_of,
    turn_sound_on,
)
from test_web_ui import axe_violations, choose_language, click, live_state, wait_for

SHOTS = os.environ.get("HEARTH_SHOTS")
SCREENS = {"tablet": (1280, 800), "phone": (390, 844)}
# How long an ended call is told in these tests, instead of a minute.
ENDED_SHOWN_MS = 1500


@pytest.fixture(params=list(SCREENS), ids=list(SCREENS))
def screen(request, browser):  # noqa: F811
    """The page's own size exactly (the window's bars left out), as on the device."""
    width, height = SCREENS[request.param]
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    yield request.param
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def shot(driver, name: str) -> None:
    """A screenshot for a person looking at the layout (HEARTH_SHOTS=dir), never asserted on."""
    if SHOTS:
        driver.save_screenshot(os.path.join(SHOTS, f"{name}.png"))


def sos_line(driver) -> str:
    return driver.execute_script("return document.getElementById('sos-status')?.textContent ?? null")


def senior_tablet(driver, home: CareHome, page: str = "today") -> str:
    window = open_as(driver, home.hub, home.senior["token"], "127.0.0.1", page)
    wait_for(driver, "the SOS slider", lambda d: d.find_elements(By.ID, "sos-slider"))
    turn_sound_on(driver)
    # The minute shortened, by the test's own script (no page can set it).
    driver.execute_script("window.hearthSOSEndedShownMs = arguments[0]", ENDED_SHOWN_MS)
    return window


def call_for_help(driver, home: CareHome) -> dict:
    driver.find_element(By.ID, "sos-slider").send_keys(Keys.END)
    wait_for(driver, "help called", lambda d: "Help has been called" in sos_line(d))
    [alert] = home.alerts(kind="sos", open="1")
    return alert


def answer(home: CareHome, alert: dict, action: str) -> None:
    """Ania answers from her phone's alert app: "respond" (I'm on my way) or "ack" (OK)."""
    response = requests.post(f"{home.hub.url}/api/v1/alerts/{alert['id']}/{action}", headers=home.carer_headers, timeout=5)
    assert response.status_code == 200, response.text


def line_lies_in_the_bar(driver) -> dict:
    """Where the line is, the bar around it and the room the page keeps free under its last line."""
    return driver.execute_script("""
        const line = document.getElementById('sos-status').getBoundingClientRect();
        const dock = document.getElementById('sos-dock').getBoundingClientRect();
        const kept = parseFloat(getComputedStyle(document.getElementById('main')).paddingBottom);
        return { inside: line.top >= dock.top - 0.5 && line.bottom <= dock.bottom + 0.5 && line.height > 0,
                 dock: dock.height, kept };""")


def clear_of_the_bar(driver, selector: str) -> bool:
    """Each element, brought into view, lies wholly above the SOS bar, and the
    bar is not what is at its middle. (The alert banner, lent to a dialog
    too, is the banner's own business: care/alert-banner.js.)"""
    return driver.execute_script("""
        const dock = document.getElementById('sos-dock');
        return [...document.querySelectorAll(arguments[0])].every(element => {
            element.scrollIntoView({block: 'nearest'});
            const box = element.getBoundingClientRect();
            const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return box.bottom <= dock.getBoundingClientRect().top && !dock.contains(top);
        });""", selector)


def everything_in_the_page(driver) -> str:
    """The page's markup and what its fields hold (a field's value is not in its markup)."""
    return driver.execute_script("""
        return document.documentElement.outerHTML + ' '
            + [...document.querySelectorAll('input, textarea, select')].map(field => field.value).join(' ');""")


def test_her_sos_line_follows_the_answer_then_goes_and_never_covers_a_question(browser, home, screen):  # noqa: F811
    now = home.local_now()
    home.add_medication("Bisoprolol", [every_day((now + timedelta(hours=2)).strftime("%H:%M"))], strength="5 mg")
    if screen == "tablet":
        # Her extra-large text, as Ania set it for her tablet: the tallest bar. (On a phone
        # her open call's banner and the bar would leave no room for the page at all.)
        display = requests.put(f"{home.hub.url}/api/v1/people/{home.senior_id}/display", headers=home.carer_headers,
                               timeout=5, json={"textSize": "x-large", "theme": "light", "language": "en", "speechRate": "normal"})
        assert display.status_code == 200, display.text
    senior_tablet(browser, home)
    alert = call_for_help(browser, home)

    # In the bar, whose whole height the page keeps free under its last line.
    placed = line_lies_in_the_bar(browser)
    assert placed["inside"] and placed["kept"] >= placed["dock"], placed
    shot(browser, f"sos-line-waiting-{screen}")
    # The early dose's question: the bar with its line lies over none of its buttons.
    [planned] = home.doses_of_today()
    wait_for(browser, "the dose", lambda d: dose_status(d, planned["key"]) == "upcoming")
    click(browser, dose_selector(planned["key"], "taken"))
    wait_for(browser, "the question", lambda d: d.execute_script("return !!document.getElementById('early-dose-dialog')?.open"))
    shot(browser, f"sos-line-early-dose-{screen}")
    assert clear_of_the_bar(browser, "#early-dose-dialog .dialog-actions button")
    # "Not yet" by keyboard: on a phone her open call's banner lies over the question.
    browser.execute_script("document.getElementById('early-dose-cancel').focus()")
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(browser, "the question gone", lambda d: not d.find_elements(By.ID, "early-dose-dialog"))

    answer(home, alert, "respond")
    wait_for(browser, "who is coming", lambda d: sos_line(d) == f"{CARER} is on the way.", timeout=3)
    shot(browser, f"sos-line-on-the-way-{screen}")
    assert axe_violations(browser, f"the SOS line, on the way, {screen}") == []
    choose_language(browser, "pl")
    wait_for(browser, "in Polish", lambda d: sos_line(d) == f"{CARER} jest w drodze.")
    shot(browser, f"sos-line-on-the-way-pl-{screen}")
    assert axe_violations(browser, f"the SOS line in Polish, {screen}") == []
    choose_language(browser, "en")

    answer(home, alert, "ack")
    wait_for(browser, "how it ended", lambda d: sos_line(d) == "Your call for help was answered.", timeout=3)
    wait_for(browser, "the line gone", lambda d: sos_line(d) == "", timeout=ENDED_SHOWN_MS / 1000 + 3)
    assert not browser.find_element(By.ID, "sos-status").is_displayed(), "an empty line takes no room"
    # On another page too: it is the call's line, not the slide's.
    browser.execute_script("location.hash = '#/games'")
    wait_for(browser, "Games", lambda d: text_of(d, "main h1") == "Games")
    assert sos_line(browser) == ""
    assert browser_console_errors(browser) == []


def test_her_own_cancel_says_cancelled_then_goes_and_her_alerts_page_says_so(browser, home, screen):  # noqa: F811
    senior_tablet(browser, home)
    alert = call_for_help(browser, home)
    wait_for(browser, "her call in the banner", lambda d: banner_texts(d, "sos"))
    click(browser, ".alert-item[data-kind='sos'] button[data-action='ack']")  # "Cancel the call"
    wait_for(browser, "Cancelled", lambda d: sos_line(d) == "Call for help cancelled.", timeout=3)
    shot(browser, f"sos-line-cancelled-{screen}")
    assert axe_violations(browser, f"the SOS line, cancelled, {screen}") == []
    wait_for(browser, "the line gone", lambda d: sos_line(d) == "", timeout=ENDED_SHOWN_MS / 1000 + 3)
    assert [a["acknowledgedBy"] for a in home.alerts(kind="sos")] == [home.senior_id]

    # Her Alerts page: not "Waiting for an answer…" for ever.
    browser.execute_script("location.hash = '#/alerts'")
    item = f"#alert-list li[data-alert-id='{alert['id']}']"
    wait_for(browser, "her call in the list", lambda d: text_of(d, item))
    assert "Cancelled." in text_of(browser, item) and "Waiting" not in text_of(browser, item), text_of(browser, item)
    assert axe_violations(browser, f"her Alerts page, {screen}") == []
    choose_language(browser, "pl")
    wait_for(browser, "in Polish", lambda d: "Odwołano." in text_of(d, item))
    assert axe_violations(browser, f"her Alerts page in Polish, {screen}") == []
    assert browser_console_errors(browser) == []


def test_cannot_reach_the_hub_goes_when_it_is_back(browser, home, hub_launcher, screen):  # noqa: F811
    senior_tablet(browser, home)
    wait_for(browser, "connected", lambda d: live_state(d) == "connected")
    code, _ = home.hub.stop()
    assert code == 0
    wait_for(browser, "the hub gone", lambda d: live_state(d) == "disconnected")
    browser.find_element(By.ID, "sos-slider").send_keys(Keys.END)
    wait_for(browser, "could not be sent", lambda d: "could not be sent" in sos_line(d))
    assert text_of(browser, "#problem").startswith("Cannot reach the Hearth hub")
    shot(browser, f"sos-line-failed-{screen}")

    hub_launcher.start(data_dir=home.hub.data_dir, port=home.hub.port)
    # The page tries again by itself (1 s, 2 s, 4 s… apart).
    wait_for(browser, "connected again", lambda d: live_state(d) == "connected", timeout=20)
    wait_for(browser, "the lines gone", lambda d: text_of(d, "#problem") == "" and sos_line(d) == "", timeout=1)
    assert home.alerts(kind="sos") == [], "nothing was sent"


def test_a_removed_tablet_shows_nothing_of_the_household_at_once(browser, home, screen):  # noqa: F811
    home.add_medication("Metformina", [every_day(soon(home, minutes=30))], strength="500 mg")
    [planned] = home.doses_of_today()
    senior_tablet(browser, home)
    wait_for(browser, "her medicine", lambda d: dose_status(d, planned["key"]) == "upcoming")
    # Her question about the dose is open when the admin removes the tablet.
    click(browser, dose_selector(planned["key"], "skip"))
    wait_for(browser, "the question", lambda d: d.find_elements(By.CSS_SELECTOR, "dialog[open]"))
    assert "Metformina" in browser.page_source

    revoked = home.hub.hearth("devices", "revoke", home.senior["device"]["id"][:8])
    assert revoked.returncode == 0, revoked.stderr
    wait_for(browser, "not paired", lambda d: d.find_elements(By.ID, "unpaired"), timeout=5)
    wait_for(browser, "nothing of hers left", lambda d: "Metformina" not in everything_in_the_page(d), timeout=1)
    assert not browser.find_elements(By.CSS_SELECTOR, "dialog[open]")
    assert banner_texts(browser) == []
    assert text_of(browser, "main h1") == "Today"
    shot(browser, f"removed-tablet-{screen}")


def test_must_be_approved_goes_when_an_admin_approves_the_phone(browser, hub_launcher, screen):  # noqa: F811
    hub = hub_launcher.start(env={"HEARTH_PAIRING_SENIOR_INVITES_NEED_APPROVAL": "true"}).pair_admin(wait=False)
    senior = hub.pair_device("--new-person", "Babcia Zosia", "--role", "senior", device_name="Tablet babci", wait=False)
    made = requests.post(f"{hub.url}/api/v1/pairing/invitations", json={"newPerson": {"name": "Wnuczka Ola", "role": "caregiver"}},
                         headers={"Authorization": f"Bearer {senior['token']}"}, timeout=5)
    assert made.status_code == 201, made.text
    paired = requests.post(f"{hub.url}/api/v1/pairing", json={"code": made.json()["url"].rsplit("#", 1)[1],
                                                              "deviceName": "Telefon Oli"}, timeout=5)
    assert paired.status_code == 201, paired.text
    ola = paired.json()

    open_as(browser, hub, ola["token"], "localhost", "today")
    wait_for(browser, "the page says it waits", lambda d: "must approve" in text_of(d, "#problem"))
    approved = requests.post(f"{hub.url}/api/v1/devices/{ola['device']['id']}/approve", headers=hub.headers, timeout=5)
    assert approved.status_code in (200, 204), approved.text
    # The phone tries its live connection again by itself (1 s, 2 s, 4 s… apart): let in, it works.
    wait_for(browser, "let in", lambda d: live_state(d) == "connected", timeout=20)
    wait_for(browser, "the notice gone", lambda d: text_of(d, "#problem") == "", timeout=1)
    wait_for(browser, "her Today", lambda d: "Babcia Zosia" in text_of(d, "main"))
    # Only the refusals while she waited (the browser logs each it was given, the live socket's too).
    assert [e for e in browser_console_errors(browser)
            if "status of 403" not in e and "WebSocket handshake: Unexpected response code" not in e] == []

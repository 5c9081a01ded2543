"""An SOS cannot be missed on a caregiver's screen: wherever she has scrolled
and whatever she is doing — deep in a long Today, typing in a note, in a
dialog — it is over the page in view, takes the keyboard, is announced, and
offers Call, "I'm on my way" and OK; one alert at a time, "More alerts: N"
for the rest. Once it is answered the keyboard goes back to the note she
was typing in, with her text as it was. On a 1280×800 tablet and a 390×844
phone, axe clean in English and Polish."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_care_ui import CARER, SENIOR, CareHome, browser, carer_window, every_day, home, screen  # noqa: F401 (fixtures)
from test_notes_ui import create_note
from test_senior_screen import shot
from test_web_ui import axe_violations, choose_language, wait_for

SENIOR_PHONE = "+48 600 100 200"


def raise_sos(home: CareHome) -> dict:
    response = requests.post(f"{home.hub.url}/api/v1/sos", headers=home.senior_headers, timeout=5)
    assert response.status_code == 201, response.text
    return response.json()


def give_her_a_phone(home: CareHome) -> None:
    response = requests.patch(f"{home.hub.url}/api/v1/people/{home.senior_id}", headers=home.hub.headers,
                              json={"phone": SENIOR_PHONE}, timeout=5)
    assert response.status_code == 200, response.text


def sos_in_view(driver) -> dict:
    """Where the SOS is: inside the screen, on top of whatever lies at its
    middle, and whether the keyboard is on it."""
    return driver.execute_script("""
        const item = document.querySelector(".alert-item[data-kind='sos']");
        if (!item || !item.checkVisibility()) return { shown: false };
        const box = item.getBoundingClientRect();
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + Math.min(box.height, 40) / 2);
        return { shown: true, inScreen: box.top >= 0 && box.top < innerHeight - 100, onTop: !!top && item.contains(top),
                 focused: item.contains(document.activeElement), scrolled: scrollY };""")


def test_an_sos_is_over_the_page_in_view_of_a_caregiver_typing_in_a_note_and_her_text_is_kept(browser, home, screen):  # noqa: F811
    give_her_a_phone(home)
    note = create_note(home.hub, home.carer_headers, title="Zakupy", text="Mleko\n" * 80)
    carer_window(browser, home, f"notes/{note['id']}")
    wait_for(browser, "the editor", lambda d: d.execute_script(
        "const t = document.getElementById('note-text'); return t && !t.readOnly"))
    area = browser.find_element(By.ID, "note-text")
    area.click()
    area.send_keys(Keys.CONTROL, Keys.END)
    area.send_keys("Chleb")
    # She has scrolled down to the end of her long note.
    browser.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert browser.execute_script("return scrollY") > 200, "the page is long enough to scroll"

    raise_sos(home)
    wait_for(browser, "the SOS over the page in view", lambda d: sos_in_view(d).get("onTop"), timeout=5)
    where = sos_in_view(browser)
    assert where["inScreen"] and where["focused"], where
    wait_for(browser, "the SOS announced", lambda d: d.find_element(By.ID, "alert-announcer")
             .get_attribute("textContent").startswith(f"{SENIOR} needs help!"))
    item = browser.find_element(By.CSS_SELECTOR, ".alert-item[data-kind='sos']")
    call = item.find_element(By.CSS_SELECTOR, "a.alert-call")
    assert call.get_attribute("href") == "tel:+48600100200" and SENIOR in call.text
    assert item.find_element(By.CSS_SELECTOR, "button[data-action='respond']").is_displayed()
    shot(browser, f"sos-over-a-note-{screen[0]}")
    assert axe_violations(browser, "the SOS over a note") == []

    # "I'm on my way", then OK: the keyboard goes back to her note, her words as they were.
    where_her_note = "return document.getElementById('note-text').getBoundingClientRect().bottom"
    scrolled = browser.execute_script(where_her_note)
    browser.execute_script("document.querySelector(\".alert-item[data-kind='sos'] button[data-action='respond']\").click()")
    wait_for(browser, "on her way", lambda d: d.find_elements(By.CSS_SELECTOR, ".alert-item[data-kind='sos'][data-responded='true']"))
    # Answered, the SOS stays over the page where she was: her note does not move on the screen.
    assert abs(browser.execute_script(where_her_note) - scrolled) < 5
    assert sos_in_view(browser)["onTop"]
    browser.find_element(By.CSS_SELECTOR, ".alert-item[data-kind='sos'] button[data-action='ack']").click()
    wait_for(browser, "the banner gone", lambda d: not d.find_elements(By.CSS_SELECTOR, ".alert-item"))
    wait_for(browser, "the keyboard back in her note",
             lambda d: d.switch_to.active_element.get_attribute("id") == "note-text")
    assert browser.find_element(By.ID, "note-text").get_attribute("value").endswith("Mleko\nChleb")


def test_an_sos_reaches_a_caregiver_deep_in_today_and_in_an_open_dialog_one_alert_at_a_time(browser, home, screen):  # noqa: F811
    for index in range(8):
        home.add_medication(f"Lek {index + 1}", [every_day("23:58")])
    carer_window(browser, home, "today")
    wait_for(browser, "her Today", lambda d: len(d.find_elements(By.CSS_SELECTOR, ".dose-item")) >= 8)
    browser.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert browser.execute_script("return scrollY") > 200, "Today is long enough to scroll"

    raise_sos(home)
    wait_for(browser, "the SOS in view", lambda d: sos_in_view(d).get("onTop"), timeout=5)
    assert sos_in_view(browser)["focused"]

    # A second SOS: one alert in view and how many more.
    raise_sos(home)
    shown = lambda d: [e for e in d.find_elements(By.CSS_SELECTOR, "#alert-banner .alert-item") if e.is_displayed()]
    wait_for(browser, "one alert and a count", lambda d: len(shown(d)) == 1
             and d.find_element(By.ID, "alert-banner-more").text == "More alerts: 1")

    # A dialog open on her page: the SOS is in it, above the page, and can be answered.
    for alert in home.alerts(open="1", kind="sos"):
        requests.post(f"{home.hub.url}/api/v1/alerts/{alert['id']}/ack", headers=home.carer_headers, timeout=5)
    wait_for(browser, "the banner gone", lambda d: not shown(d))
    browser.execute_script("window.scrollTo(0, 0)")
    opener = browser.find_elements(By.CSS_SELECTOR, ".dose-item button[data-action='skip']")[0]
    opener.click()
    wait_for(browser, "the skip question", lambda d: d.find_elements(By.CSS_SELECTOR, "dialog[open]"))
    raise_sos(home)
    wait_for(browser, "the SOS over the dialog", lambda d: sos_in_view(d).get("onTop"), timeout=5)
    shot(browser, f"sos-over-a-dialog-{screen[0]}")
    assert browser.execute_script(
        "return !!document.querySelector('dialog[open] #alert-banner') && !document.querySelector('#alert-banner').closest('[inert]')")
    browser.find_element(By.CSS_SELECTOR, ".alert-item[data-kind='sos'] button[data-action='respond']").click()
    wait_for(browser, "answered from the dialog",
             lambda d: any(a["respondedAt"] for a in home.alerts(open="1", kind="sos")))
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_for(browser, "the dialog closed", lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog[open]"))
    # The banner is back above the page, in its place (the dialog's close event comes a moment after it closes).
    wait_for(browser, "the banner back in its place", lambda d: d.execute_script(
        "const b = document.getElementById('alert-banner'); return b.parentElement.id === 'main' && b.nextElementSibling.id === 'test-notice'"))
    choose_language(browser, "pl")
    wait_for(browser, "the banner in Polish", lambda d: "potrzebuje pomocy" in d.find_element(By.ID, "alert-banner").text.lower()
             or "pomoc" in d.find_element(By.ID, "alert-banner").text.lower())
    assert axe_violations(browser, "the SOS on Today, in Polish") == []


def test_an_sos_she_cancels_is_said_to_her_caregiver_and_in_the_history(browser, home, screen):  # noqa: F811
    carer_window(browser, home, "today")
    sos = raise_sos(home)
    wait_for(browser, "the SOS", lambda d: sos_in_view(d).get("shown"), timeout=5)
    # Babcia slides "Cancel the call" on her tablet (her own OK, before anyone answered).
    closed = requests.post(f"{home.hub.url}/api/v1/alerts/{sos['id']}/ack", headers=home.senior_headers, timeout=5)
    assert closed.status_code == 200, closed.text
    news = ".alert-item[data-kind='sos-cancelled']"
    wait_for(browser, "the news that all is well", lambda d: d.find_elements(By.CSS_SELECTOR, news), timeout=5)
    assert not browser.find_elements(By.CSS_SELECTOR, ".alert-item[data-kind='sos']")
    text = browser.find_element(By.CSS_SELECTOR, f"{news} .alert-text").text
    assert text.startswith(f"{SENIOR} cancelled the SOS at ") and text.endswith("all is well."), text
    wait_for(browser, "it is announced", lambda d: "cancelled the SOS" in d.find_element(By.ID, "alert-announcer").get_attribute("textContent"))
    assert browser.find_element(By.ID, "alert-banner").get_attribute("data-calling") == "false"
    shot(browser, f"sos-cancelled-{screen[0]}")
    assert axe_violations(browser, "the SOS cancelled") == []
    browser.find_element(By.CSS_SELECTOR, f"{news} button[data-action='ack']").click()
    wait_for(browser, "put away", lambda d: not d.find_elements(By.CSS_SELECTOR, news))

    # The history says so too, in English and in Polish.
    browser.execute_script("location.hash = '#/alerts'")
    item = f".alert-history-item[data-alert-id='{sos['id']}'] .alert-history-state"
    wait_for(browser, "the history", lambda d: d.find_elements(By.CSS_SELECTOR, item))
    assert browser.find_element(By.CSS_SELECTOR, item).text.startswith(f"Cancelled by {SENIOR} at ")
    choose_language(browser, "pl")
    wait_for(browser, "in Polish", lambda d: d.find_element(By.CSS_SELECTOR, item).text.startswith(f"Odwołane przez: {SENIOR}"))
    assert axe_violations(browser, "the history in Polish") == []

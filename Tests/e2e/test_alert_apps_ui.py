"""The "Alerts on this phone" page in a real Chromium: a caregiver makes a
sign-in for the ntfy app, reads the server address, user name and password
off the page (with a QR code of the address), an app signed in with them
listens, and the page's Test button says within seconds that the phone got
it; the household page lists the credential beside her devices and an
admin sets the hub's language; the alert history says where an SOS went
and from where it was answered. No WCAG 2.1 A/AA violations, in English
and Polish."""

from __future__ import annotations

import time

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import browser_console_errors
from ntfy_client import NtfyClient
from test_care_ui import CARER, CareHome, browser, home, open_as  # noqa: F401 (fixtures)
from test_household_ui import open_section
from test_web_ui import axe_violations, choose_language, click, wait_for


def text(driver, element_id: str) -> str:
    return driver.execute_script("return document.getElementById(arguments[0])?.textContent ?? ''", element_id)


def test_a_caregiver_makes_a_sign_in_for_her_phone_and_the_test_reaches_it(browser, home: CareHome):  # noqa: F811
    open_as(browser, home.hub, home.carer["token"], "localhost", "phone-alerts")
    wait_for(browser, "the page", lambda d: d.find_element(By.TAG_NAME, "h1").text == "Alerts on this phone")
    assert browser.find_elements(By.CSS_SELECTOR, "#ntfy-steps li")
    assert "iPhone" in browser.find_element(By.TAG_NAME, "main").text
    name = browser.find_element(By.ID, "alert-app-name")
    name.clear()
    name.send_keys("Telefon Ani")
    click(browser, "#make-alert-app")
    wait_for(browser, "the new sign-in", lambda d: text(d, "alert-app-password").strip())
    server, username, password = (text(browser, f"alert-app-{part}").strip() for part in ("server", "username", "password"))
    assert server == f"http://localhost:{home.hub.port}/ntfy" or server.endswith(f":{home.hub.port}/ntfy"), server
    assert browser.switch_to.active_element.get_attribute("id") == "alert-app-made-heading"
    assert browser.find_element(By.ID, "alert-app-qr").get_attribute("aria-label") or \
        browser.find_element(By.ID, "alert-app-qr").accessible_name
    assert browser.find_element(By.ID, "copy-alert-app-password").accessible_name == "Copy password"
    assert axe_violations(browser, "Alerts on this phone, a sign-in just made") == []

    # The app, signed in with what the page showed, listens; the Test button reaches it.
    phone = NtfyClient(f"http://127.0.0.1:{home.hub.port}/ntfy", username, password)
    stream = phone.subscribe("alerts")
    stream.wait_for("the open event", lambda e: e["event"] == "open")
    click(browser, "#alert-app-test")
    wait_for(browser, "the test's result", lambda d: d.find_element(By.ID, "alert-app-test-result").get_attribute("data-outcome")
             in ("delivered", "unconfirmed", "nobody"), timeout=8)
    assert browser.find_element(By.ID, "alert-app-test-result").get_attribute("data-outcome") == "delivered"
    assert "Telefon Ani" in text(browser, "alert-app-test-result")
    # This open page is one of her channels too: the hub names it, and it shows the test.
    assert "Shown on Telefon Ani at" in text(browser, "alert-app-test-result"), text(browser, "alert-app-test-result")
    wait_for(browser, "the test on this page", lambda d: d.find_element(By.ID, "test-notice").is_displayed())
    assert "alerts reach this screen" in browser.find_element(By.ID, "test-notice").text
    assert axe_violations(browser, "Alerts on this phone, a test shown on the page") == []
    click(browser, "#test-notice-ok")
    wait_for(browser, "the test notice gone", lambda d: not d.find_element(By.ID, "test-notice").is_displayed())
    _, test = stream.wait_for("the test message", lambda e: e["event"] == "message")
    assert test["title"] == "Alert test" and CARER in test["message"]
    stream.close()

    # Listed, without its password; removed here, it is refused at once.
    wait_for(browser, "the list", lambda d: d.find_elements(By.CSS_SELECTOR, "#my-alert-app-list li.alert-app-item"))
    assert password not in browser.find_element(By.ID, "my-alert-app-list").text
    choose_language(browser, "pl")
    wait_for(browser, "the Polish page", lambda d: d.find_element(By.TAG_NAME, "h1").text == "Powiadomienia na tym telefonie")
    assert axe_violations(browser, "Powiadomienia na tym telefonie") == []
    choose_language(browser, "en")
    click(browser, "#my-alert-app-list li.alert-app-item button[data-action='remove']")
    wait_for(browser, "the remove dialog", lambda d: d.find_element(By.ID, "remove-alert-app-dialog").is_displayed())
    click(browser, "#remove-alert-app-confirm")
    wait_for(browser, "the list emptied", lambda d: d.find_elements(By.ID, "my-alert-app-list-empty"))
    assert phone.auth("alerts").status_code == 401
    assert browser_console_errors(browser) == []


def test_the_household_page_lists_alert_apps_and_an_admin_sets_the_hubs_language(browser, home: CareHome):  # noqa: F811
    made = requests.post(f"{home.hub.url}/api/v1/alert-apps", json={"name": "Telefon Ani"}, headers=home.carer_headers, timeout=5)
    assert made.status_code == 201
    open_as(browser, home.hub, home.hub.token, "127.0.0.1", "household")
    open_section(browser, "household-alert-apps")
    open_section(browser, "household-language")
    wait_for(browser, "the alert apps on the household page",
             lambda d: "Telefon Ani" in d.find_element(By.ID, "household-alert-apps").text)
    assert made.json()["username"] in browser.find_element(By.ID, "household-alert-apps").text
    Select(browser.find_element(By.ID, "household-language-select")).select_by_value("pl")
    click(browser, "#save-household-language")
    wait_for(browser, "the language saved", lambda d: requests.get(
        f"{home.hub.url}/api/v1/household", headers=home.hub.headers, timeout=5).json()["language"] == "pl")
    assert axe_violations(browser, "Household with alert apps") == []
    # Revoked elsewhere, it leaves the list live.
    requests.delete(f"{home.hub.url}/api/v1/alert-apps/{made.json()['id']}", headers=home.carer_headers, timeout=5)
    wait_for(browser, "the list to follow", lambda d: "Telefon Ani" not in d.find_element(By.ID, "household-alert-apps").text)
    assert browser_console_errors(browser) == []


def test_the_alert_history_says_where_an_sos_went_and_from_where_it_was_answered(browser, home: CareHome):  # noqa: F811
    made = requests.post(f"{home.hub.url}/api/v1/alert-apps", json={"name": "Telefon Ani"}, headers=home.carer_headers, timeout=5).json()
    phone = NtfyClient(made["server"].replace("localhost", "127.0.0.1"), made["username"], made["password"])
    stream = phone.subscribe("sos")
    stream.wait_for("the open event", lambda e: e["event"] == "open")
    sos = requests.post(f"{home.hub.url}/api/v1/sos", headers=home.senior_headers, timeout=5).json()
    _, message = stream.wait_for("the SOS", lambda e: e["event"] == "message")
    [respond] = [a for a in message["actions"] if a["id"] == "respond"]
    assert phone.press(respond).status_code == 200
    stream.close()

    open_as(browser, home.hub, home.carer["token"], "localhost", "alerts")
    button = f"#alert-list li[data-alert-id='{sos['id']}'] button[data-action='deliveries']"
    wait_for(browser, "the SOS in the history", lambda d: d.find_elements(By.CSS_SELECTOR, button))
    # Kept once a second: wait for it, then open the panel.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not requests.get(f"{home.hub.url}/api/v1/alerts/{sos['id']}/deliveries",
                                                           headers=home.carer_headers, timeout=5).json()["deliveries"]:
        time.sleep(0.2)
    click(browser, button)
    lines = f"#alert-list li[data-alert-id='{sos['id']}'] .alert-delivery-list li"
    wait_for(browser, "where it went", lambda d: d.find_elements(By.CSS_SELECTOR, lines + "[data-line='alert-app']"))
    shown = browser.execute_script("return [...document.querySelectorAll(arguments[0])].map(li => [li.dataset.line, li.textContent])", lines)
    said = dict(shown)
    assert said["alert-app"].startswith("Sent to Telefon Ani at "), shown
    assert "Telefon Ani" in said["responded"], shown
    assert browser.find_element(By.CSS_SELECTOR, button).get_attribute("aria-expanded") == "true"
    assert axe_violations(browser, "Alerts with where an SOS went") == []
    assert browser_console_errors(browser) == []

"""Who looks after whom, from the admin's Household page in a real Chromium:
a caregiver linked to no one is pointed out, linking her under the senior
takes effect at once (she sees the senior's alerts), and unlinking asks
first and takes it back. No WCAG 2.1 A/AA violations."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import browser_console_errors
from test_care_ui import CARER, SENIOR, CareHome, browser, home, open_as  # noqa: F401 (fixtures)
from test_household_ui import open_section
from test_web_ui import axe_violations, click, wait_for


def test_an_admin_links_a_new_caregiver_and_unlinks_another_from_the_household_page(browser, home: CareHome):  # noqa: F811
    hub = home.hub
    ola = hub.pair_device("--new-person", "Ola", "--role", "caregiver", device_name="Telefon Oli", wait=False)
    ola_headers = {"Authorization": f"Bearer {ola['token']}"}
    assert requests.get(f"{hub.url}/api/v1/alerts", params={"personId": home.senior_id}, headers=ola_headers,
                        timeout=5).status_code == 404
    open_as(browser, hub, hub.token, "127.0.0.1", "household")
    section = "#household-care-links"
    open_section(browser, "household-care-links")
    wait_for(browser, "the care links", lambda d: d.find_elements(By.CSS_SELECTOR, f"{section} li.care-link-senior"))
    ola_id = ola["person"]["id"]
    wait_for(browser, "Ola pointed out", lambda d: d.find_elements(By.CSS_SELECTOR, f".care-link-warning[data-person-id='{ola_id}']"))
    assert axe_violations(browser, "Household, who looks after whom") == []

    senior = f"li.care-link-senior[data-senior-id='{home.senior_id}']"
    Select(browser.find_element(By.CSS_SELECTOR, f"{senior} select[data-action='add-caregiver']")).select_by_value(ola_id)
    click(browser, f"{senior} button[data-action='link']")
    wait_for(browser, "Ola under Babcia", lambda d: d.find_elements(By.CSS_SELECTOR, f"{senior} li[data-caregiver-id='{ola_id}']"))
    wait_for(browser, "the warning gone", lambda d: not d.find_elements(By.CSS_SELECTOR, f".care-link-warning[data-person-id='{ola_id}']"))
    assert requests.get(f"{hub.url}/api/v1/alerts", params={"personId": home.senior_id}, headers=ola_headers,
                        timeout=5).status_code == 200

    carer_id = home.carer["person"]["id"]
    click(browser, f"{senior} li[data-caregiver-id='{carer_id}'] button[data-action='unlink']")
    wait_for(browser, "the question", lambda d: d.find_element(By.ID, "unlink-caregiver-dialog").is_displayed())
    assert browser.switch_to.active_element.get_attribute("id") == "unlink-caregiver-cancel"
    assert CARER in browser.find_element(By.ID, "unlink-caregiver-dialog").text
    click(browser, "#unlink-caregiver-confirm")
    wait_for(browser, f"{CARER} gone from {SENIOR}",
             lambda d: not d.find_elements(By.CSS_SELECTOR, f"{senior} li[data-caregiver-id='{carer_id}']"))
    assert requests.get(f"{hub.url}/api/v1/alerts", params={"personId": home.senior_id}, headers=home.carer_headers,
                        timeout=5).status_code == 404
    assert browser_console_errors(browser) == []

"""The care circle from the browser, in a real Chromium: an admin renames a
caregiver and gives her a number (a number that is not one is refused next
to its field, nothing saved), cannot demote the household's only admin,
archives someone and brings them back, and reads all of it in "Changes to
the household"; a caregiver's SOS banner offers "Call Babcia"; the senior's
Today lists the people who look after her, each to be called. No WCAG 2.1
A/AA violations in English or Polish."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from conftest import ADMIN_NAME, browser_console_errors
from test_care_ui import CARER, SENIOR, CareHome, banner_texts, browser, home, open_as  # noqa: F401 (fixtures)
from test_household_ui import open_section
from test_web_ui import axe_violations, choose_language, click, wait_for


def people(hub, headers=None, archived=False) -> list[dict]:
    response = requests.get(f"{hub.url}/api/v1/people", params={"archived": "1"} if archived else None,
                            headers=headers or hub.headers, timeout=5)
    assert response.status_code == 200, response.text
    return response.json()


def person_named(hub, name: str) -> dict:
    [person] = [p for p in people(hub) if p["name"] == name]
    return person


def fill(driver, element_id: str, text: str):
    field = driver.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(text)


def test_an_admin_renames_numbers_archives_and_restores_people_and_reads_it_in_the_changes(browser, home: CareHome):  # noqa: F811
    hub = home.hub
    carer_id = home.carer["person"]["id"]
    obcy = hub.pair_device("--new-person", "Obcy", "--role", "caregiver", device_name="Telefon obcego", wait=False)
    obcy_id = obcy["person"]["id"]
    open_as(browser, hub, hub.token, "127.0.0.1", "household")
    wait_for(browser, "Ania's change button", lambda d: d.find_elements(By.ID, f"person-{carer_id}-change"))

    # A number that is not one: said next to the field, nothing saved.
    click(browser, f"#person-{carer_id}-change")
    wait_for(browser, "the dialog", lambda d: d.find_element(By.ID, "person-dialog").is_displayed())
    fill(browser, "person-name", "Ania Nowak")
    fill(browser, "person-phone", "zadzwoń wieczorem")
    click(browser, "#person-save")
    wait_for(browser, "the phone's error", lambda d: d.find_element(By.ID, "person-phone-error").text.strip() != "")
    assert browser.find_element(By.ID, "person-phone").get_attribute("aria-invalid") == "true"
    assert person_named(hub, CARER)["phone"] is None, "nothing was saved"
    fill(browser, "person-phone", "+48 601 234 567")
    click(browser, "#person-save")
    # As she sees it: the dialog closes, then she taps on. (The live change
    # can draw the list behind the dialog before the hub's answer closes it.)
    wait_for(browser, "the dialog closed", lambda d: not d.find_elements(By.ID, "person-dialog"))
    wait_for(browser, "the new name and number", lambda d: d.find_elements(By.CSS_SELECTOR, f"#person-{carer_id}-phone[href='tel:+48601234567']"))
    renamed = [p for p in people(hub) if p["id"] == carer_id][0]
    assert (renamed["name"], renamed["phone"]) == ("Ania Nowak", "+48 601 234 567")

    # The only admin cannot be made anything else.
    admin_id = person_named(hub, ADMIN_NAME)["id"]
    click(browser, f"#person-{admin_id}-change")
    wait_for(browser, "the dialog", lambda d: d.find_element(By.ID, "person-dialog").is_displayed())
    assert browser.find_element(By.ID, "person-role").get_attribute("disabled") is not None
    assert browser.find_element(By.ID, "person-role-note").text.strip() != ""
    refused = requests.patch(f"{hub.url}/api/v1/people/{admin_id}", json={"role": "caregiver"}, headers=hub.headers, timeout=5)
    assert refused.status_code == 409 and "only admin" in refused.json()["detail"], refused.text
    click(browser, "#person-cancel")

    # Archive Obcy (asked first), then bring him back from the archived list.
    click(browser, f"#person-{obcy_id}-archive")
    wait_for(browser, "the question", lambda d: d.find_element(By.ID, "archive-person-dialog").is_displayed())
    assert browser.switch_to.active_element.get_attribute("id") == "archive-cancel"
    click(browser, "#archive-confirm")
    open_section(browser, "archived-people")
    wait_for(browser, "Obcy among the archived", lambda d: d.find_elements(By.ID, f"person-{obcy_id}-restore"))
    assert requests.get(f"{hub.url}/api/v1/people", headers={"Authorization": f"Bearer {obcy['token']}"}, timeout=5).status_code == 401
    click(browser, f"#person-{obcy_id}-restore")
    wait_for(browser, "Obcy back", lambda d: d.find_elements(By.ID, f"person-{obcy_id}-change"))

    # All of it, newest first, in "Changes to the household".
    open_section(browser, "household-audit")
    wait_for(browser, "the changes", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#household-audit .audit-entry")) >= 3)
    # Read through wait_for, which reads again if the page redrew meanwhile.
    texts = wait_for(browser, "the changes' words", lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#household-audit .audit-entry .audit-text")])
    assert texts[0] == f"{ADMIN_NAME} restored Obcy.", texts
    # Archiving him ended his device, in the same change.
    assert texts[1:3] == [f"{ADMIN_NAME} removed the device “Telefon obcego” of Obcy.",
                          f"{ADMIN_NAME} archived Obcy; their devices no longer work."], texts
    assert any(t == f"{ADMIN_NAME} renamed {CARER} to Ania Nowak." for t in texts), texts
    assert any("linked" in t and SENIOR in t and "The hub’s terminal" in t for t in texts), texts
    # Not for anyone but admins.
    assert requests.get(f"{hub.url}/api/v1/household/audit", headers=home.carer_headers, timeout=5).status_code == 403

    violations = axe_violations(browser, "Household with people, archived people and changes, en")
    click(browser, f"#person-{carer_id}-change")
    wait_for(browser, "the dialog", lambda d: d.find_element(By.ID, "person-dialog").is_displayed())
    violations += axe_violations(browser, "The change dialog, en")
    click(browser, "#person-cancel")
    browser.get(f"http://127.0.0.1:{hub.port}/#/settings")
    wait_for(browser, "the settings", lambda d: d.find_elements(By.ID, "language-select"))
    choose_language(browser, "pl")
    browser.get(f"http://127.0.0.1:{hub.port}/#/household")
    wait_for(browser, "the changes in Polish", lambda d: d.find_elements(By.CSS_SELECTOR, "#household-audit .audit-entry"))
    assert browser.execute_script("return document.querySelector('#household-audit > details').open"), \
        "the sections she opened are open again on this device"
    assert "przywrócono osobę Obcy" in browser.find_element(By.ID, "household-audit").text
    violations += axe_violations(browser, "Household, pl")
    click(browser, f"#person-{obcy_id}-archive")
    wait_for(browser, "the question", lambda d: d.find_element(By.ID, "archive-person-dialog").is_displayed())
    violations += axe_violations(browser, "The archive question, pl")
    click(browser, "#archive-cancel")
    assert violations == [], "\n".join(violations)
    assert browser_console_errors(browser) == []


def test_a_live_change_redraws_the_people_without_moving_her_page(browser, home: CareHome):  # noqa: F811
    """She pressed Change on Ania, closed it and scrolled on down the page; a
    change from another phone redraws the people. The keyboard goes back to
    Ania's button, but the page stays where she scrolled it: a page that
    jumped back would put another button under her next tap."""
    hub = home.hub
    carer_id = home.carer["person"]["id"]
    browser.set_window_size(390, 844)
    try:
        open_as(browser, hub, hub.token, "127.0.0.1", "household")
        wait_for(browser, "Ania's change button", lambda d: d.find_elements(By.ID, f"person-{carer_id}-change"))
        click(browser, f"#person-{carer_id}-change")
        wait_for(browser, "the dialog", lambda d: d.find_element(By.ID, "person-dialog").is_displayed())
        click(browser, "#person-cancel")
        wait_for(browser, "the keyboard back on Ania's Change", lambda d: d.switch_to.active_element.get_attribute("id") == f"person-{carer_id}-change")
        browser.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
        place = browser.execute_script("return window.scrollY")
        assert place > 0 and not browser.execute_script(
            "const r = document.activeElement.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight"), \
            "the page is scrolled away from Ania's button"

        # Babcia's number, changed from another device: her row keeps its height.
        response = requests.patch(f"{hub.url}/api/v1/people/{home.senior_id}", json={"phone": "22 123 45 67"}, headers=hub.headers, timeout=5)
        assert response.status_code == 200, response.text
        wait_for(browser, "Babcia's new number", lambda d: d.find_elements(By.CSS_SELECTOR, f"#person-{home.senior_id}-phone[href='tel:221234567']"))
        assert browser.switch_to.active_element.get_attribute("id") == f"person-{carer_id}-change", "the keyboard is where it was"
        assert browser.execute_script("return window.scrollY") == place, "the page did not move"
    finally:
        browser.set_window_size(1280, 900)


def test_a_caregivers_sos_banner_offers_a_call_and_the_seniors_today_lists_who_looks_after_her(browser, home: CareHome):  # noqa: F811
    hub = home.hub
    for person_id, number in ((home.senior_id, "22 123 45 67"), (home.carer["person"]["id"], "+48 601 234 567")):
        response = requests.patch(f"{hub.url}/api/v1/people/{person_id}", json={"phone": number}, headers=hub.headers, timeout=5)
        assert response.status_code == 200, response.text

    # Her Today: the people who look after her, Ania with a number to call.
    open_as(browser, hub, home.senior["token"], "127.0.0.1", "today")
    wait_for(browser, "the people who look after her", lambda d: d.find_elements(By.CSS_SELECTOR, "#my-carers .carer-call"))
    call = browser.find_element(By.CSS_SELECTOR, "#my-carers .carer-call")
    assert call.get_attribute("href") == "tel:+48601234567" and CARER in call.text
    violations = axe_violations(browser, "Today with the people who look after her")

    # An SOS: Ania's banner offers to call Babcia; Babcia's own does not offer to call herself.
    assert requests.post(f"{hub.url}/api/v1/sos", json={}, headers=home.senior_headers, timeout=5).status_code in (200, 201)
    wait_for(browser, "her own SOS", lambda d: banner_texts(d, "sos"))
    assert not browser.find_elements(By.CSS_SELECTOR, ".alert-item[data-kind='sos'] .alert-call")
    open_as(browser, hub, home.carer["token"], "localhost", "today", new_window=True)
    wait_for(browser, "Ania's SOS banner with a call", lambda d: d.find_elements(By.CSS_SELECTOR, ".alert-item[data-kind='sos'] .alert-call"))
    link = browser.find_element(By.CSS_SELECTOR, ".alert-item[data-kind='sos'] .alert-call")
    assert link.get_attribute("href") == "tel:221234567" and SENIOR in link.text
    violations += axe_violations(browser, "A caregiver's SOS banner with Call")

    # Ania calls her "Mama", from the Household page: her banner says so; no one else sees the name.
    browser.get(f"http://localhost:{hub.port}/#/household")
    wait_for(browser, "Babcia's Change button", lambda d: d.find_elements(By.ID, f"person-{home.senior_id}-change"))
    click(browser, f"#person-{home.senior_id}-change")
    wait_for(browser, "her own name field", lambda d: d.find_elements(By.ID, "person-alias"))
    assert not browser.find_elements(By.ID, "person-name"), "Babcia's name is not hers to change"
    browser.find_element(By.ID, "person-alias").send_keys("Mama")
    click(browser, "#person-save")
    wait_for(browser, "You call her: Mama", lambda d: "Mama" in d.find_element(By.ID, f"person-{home.senior_id}-alias").text)
    wait_for(browser, "Call Mama on the banner", lambda d: "Mama" in d.find_element(By.CSS_SELECTOR, ".alert-item[data-kind='sos'] .alert-call").text)
    assert all("Mama" not in str(p) for p in people(hub)), "the admin never sees it"
    assert all("Mama" not in str(p) for p in people(hub, home.senior_headers))
    assert violations == [], "\n".join(violations)

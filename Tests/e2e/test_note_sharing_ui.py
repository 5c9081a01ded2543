"""A note shared with the right people, in a real headless Chromium: the
senior writes a note from her page for the people who look after her, to
be read only; her caregiver reads it (and follows her typing live) but
cannot type into it; a caregiver who does not look after her, and the
admin, neither list it nor open it; the choice and its dialog are axe clean
in English and Polish.

Each person's browser is the same Chromium with that person's device cookie
on http://localhost:<port>, set anew (and the page's saved copies cleared)
when the next person sits down."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from conftest import Hub
from test_notes_ui import editor_status, note_on_hub, textarea_value, type_at_end
from test_web_ui import axe_violations, choose_language, wait_for

SENIOR, CARER, STRANGER = "Babcia Zosia", "Ania", "Obcy"


def sit_down_as(driver, hub: Hub, token: str, page: str = "notes") -> str:
    """The browser becomes this person's device at http://localhost:<port>."""
    base = f"http://localhost:{hub.port}"
    driver.get(f"{base}/favicon.svg")
    driver.execute_script("localStorage.clear(); sessionStorage.clear()")
    driver.execute_cdp_cmd("Network.setCookie", {
        "name": "hearth_device", "value": token, "url": base,
        "httpOnly": True, "sameSite": "Strict", "path": "/",
    })
    driver.get(f"{base}/#/{page}")
    return base


def bearer(device: dict) -> dict:
    return {"Authorization": f"Bearer {device['token']}"}


def test_a_note_shared_read_only_with_the_seniors_caregivers_is_read_by_them_and_unseen_by_others(browser, hub):
    zosia = hub.pair_device("--new-person", SENIOR, "--role", "senior", device_name="Tablet Zosi")
    ania = hub.pair_device("--new-person", CARER, "--role", "caregiver", device_name="Telefon Ani")
    obcy = hub.pair_device("--new-person", STRANGER, "--role", "caregiver", device_name="Telefon obcego")
    assert hub.hearth("people", "link", "--caregiver", CARER, "--senior", SENIOR).returncode == 0

    # Zosia writes it from her Notes page: for the people who look after her, to read only.
    base = sit_down_as(browser, hub, zosia["token"])
    wait_for(browser, "the New note button", lambda d: d.find_elements(By.ID, "new-note-open"))
    browser.find_element(By.ID, "new-note-open").click()
    wait_for(browser, "the new-note dialog", lambda d: d.find_elements(By.ID, "new-note-visibility-circle"))
    assert browser.switch_to.active_element.get_attribute("id") == "new-note-title", "the title has the keyboard first"
    assert browser.find_element(By.ID, "new-note-visibility-private").is_selected(), "private unless she chooses"
    browser.find_element(By.ID, "new-note-title").send_keys("Moje leki")
    browser.find_element(By.ID, "new-note-visibility-circle").click()
    read_only = browser.find_element(By.ID, "new-note-read-only")
    read_only.click()
    assert read_only.is_selected()
    browser.find_element(By.ID, "new-note-button").click()
    wait_for(browser, "the editor of her note", lambda d: "#/notes/" in d.current_url and d.find_elements(By.ID, "note-text"))
    note_id = browser.current_url.rsplit("/", 1)[1]
    wait_for(browser, "her note, hers to type into", lambda d: editor_status(d) == "saved"
             and not d.find_element(By.ID, "note-text").get_attribute("readonly"))
    type_at_end(browser, "Rano: Metformina")
    wait_for(browser, "her words saved", lambda d: editor_status(d) == "saved")
    stored = note_on_hub(hub, note_id, bearer(zosia))
    assert (stored["visibility"], stored["readOnly"], stored["canEdit"]) == ("circle", True, True)
    assert stored["text"] == "Rano: Metformina"
    sharing = browser.find_element(By.ID, "note-visibility").text
    assert "Shared with the people who look after you" in sharing and CARER in sharing, sharing

    # Ania, who looks after her, reads it in her list and in the editor, and cannot type into it.
    base = sit_down_as(browser, hub, ania["token"])
    item = f"li[data-note-id='{note_id}']"
    wait_for(browser, "the note in Ania's list", lambda d: d.find_elements(By.CSS_SELECTOR, f"{item}[data-can-edit='false']"))
    words = browser.find_element(By.CSS_SELECTOR, f"{item} .note-sharing").text
    assert f"Only {SENIOR} can change it" in words, words
    assert browser.find_elements(By.CSS_SELECTOR, f"{item} .note-read-only")
    assert not browser.find_elements(By.CSS_SELECTOR, f"{item} [data-action='trash']"), "nothing to do to it but read"
    browser.get(f"{base}/#/notes/{note_id}")
    wait_for(browser, "the note, to read", lambda d: textarea_value(d) == "Rano: Metformina"
             and d.find_element(By.ID, "note-text").get_attribute("readonly") is not None
             and d.find_element(By.ID, "note-read-only-notice").is_displayed())
    assert f"Only {SENIOR} can change this note" in browser.find_element(By.ID, "note-read-only-notice").text
    assert browser.find_element(By.ID, "note-text").get_attribute("aria-readonly") == "true"
    browser.find_element(By.ID, "note-text").send_keys(" i wieczorem")
    assert textarea_value(browser) == "Rano: Metformina", "typing changes nothing"
    # The hub refuses what the page does not send, too.
    refused = requests.patch(f"{hub.url}/api/v1/notes/{note_id}", json={"title": "Zmienione"}, headers=bearer(ania), timeout=5)
    assert refused.status_code == 403, refused.text
    assert "only its owner changes it" in refused.json()["detail"]
    # Zosia lets her caregivers change it after all: Ania's open page becomes editable, live, and her words are kept.
    opened = requests.patch(f"{hub.url}/api/v1/notes/{note_id}", json={"readOnly": False}, headers=bearer(zosia), timeout=5)
    assert opened.status_code == 200 and opened.json()["readOnly"] is False, opened.text
    wait_for(browser, "the note editable on Ania's page", lambda d: d.find_element(By.ID, "note-text").get_attribute("readonly") is None
             and not d.find_element(By.ID, "note-read-only-notice").is_displayed(), 5)
    wait_for(browser, "ready to type", lambda d: editor_status(d) == "saved")
    type_at_end(browser, " i wieczorem")
    wait_for(browser, "Ania's words on the hub", lambda d: note_on_hub(hub, note_id, bearer(zosia))["text"] == "Rano: Metformina i wieczorem")
    # And back to read-only: the page stops her again without a reload.
    requests.patch(f"{hub.url}/api/v1/notes/{note_id}", json={"readOnly": True}, headers=bearer(zosia), timeout=5).raise_for_status()
    wait_for(browser, "the note read-only again", lambda d: d.find_element(By.ID, "note-text").get_attribute("readonly") is not None, 5)

    # Obcy, who does not look after her, and the admin neither list it nor open it.
    for device in (obcy, None):
        headers = bearer(device) if device else hub.headers
        assert note_id not in [n["id"] for n in requests.get(f"{hub.url}/api/v1/notes", headers=headers, timeout=5).json()]
        assert requests.get(f"{hub.url}/api/v1/notes/{note_id}", headers=headers, timeout=5).status_code == 404
        found = requests.get(f"{hub.url}/api/v1/notes", params={"q": "Metformina"}, headers=headers, timeout=5).json()
        assert found == [], found
    base = sit_down_as(browser, hub, obcy["token"])
    wait_for(browser, "Obcy's list", lambda d: d.find_elements(By.ID, "notes-empty") or d.find_elements(By.CSS_SELECTOR, "#note-list > li"))
    assert not browser.find_elements(By.CSS_SELECTOR, item)
    browser.get(f"{base}/#/notes/{note_id}")
    wait_for(browser, "the editor to say the note is not there",
             lambda d: "does not exist" in d.find_element(By.ID, "problem").text)
    assert "Metformina" not in browser.find_element(By.TAG_NAME, "main").text
    assert textarea_value(browser) in ("", None)


def test_the_sharing_choice_and_its_dialog_have_no_wcag_21_aa_violations_in_english_and_polish(browser, hub):
    zosia = hub.pair_device("--new-person", SENIOR, "--role", "senior", device_name="Tablet Zosi")
    hub.pair_device("--new-person", CARER, "--role", "caregiver", device_name="Telefon Ani")
    assert hub.hearth("people", "link", "--caregiver", CARER, "--senior", SENIOR).returncode == 0
    note = requests.post(f"{hub.url}/api/v1/notes", json={"title": "Plan", "visibility": "circle", "readOnly": True},
                         headers=bearer(zosia), timeout=5).json()
    base = sit_down_as(browser, hub, zosia["token"])
    violations = []
    for language in ("en", "pl"):
        if language == "pl":
            browser.get(f"{base}/#/settings")
            wait_for(browser, "the settings", lambda d: d.find_elements(By.ID, "language-select"))
            choose_language(browser, "pl")
        browser.get(f"{base}/#/notes")
        wait_for(browser, "the list", lambda d: d.find_elements(By.CSS_SELECTOR, f"li[data-note-id='{note['id']}']"))
        violations += axe_violations(browser, f"Notes, {language}")
        browser.find_element(By.ID, "new-note-open").click()
        wait_for(browser, "the new note's sharing choice", lambda d: d.find_elements(By.ID, "new-note-visibility-circle"))
        violations += axe_violations(browser, f"New note with the sharing choice, {language}")
        browser.find_element(By.ID, "new-note-cancel").click()
        wait_for(browser, "the dialog closed", lambda d: not d.find_elements(By.ID, "new-note-dialog"))
        browser.find_element(By.CSS_SELECTOR, f"li[data-note-id='{note['id']}'] [data-action='visibility']").click()
        wait_for(browser, "the sharing dialog", lambda d: d.find_element(By.ID, "note-sharing-dialog").is_displayed())
        assert browser.find_element(By.ID, "note-visibility-circle").is_selected(), "it opens on the note's sharing"
        assert browser.find_element(By.ID, "note-read-only").is_selected()
        violations += axe_violations(browser, f"The sharing dialog, {language}")
        browser.find_element(By.ID, "note-sharing-cancel").click()
    assert violations == [], "\n".join(violations)

"""A caregiver's note shared with a senior's circle, in a real headless
Chromium on a tablet (1280×800) and a phone (390×844): Ania, who looks
after Babcia Zosia and Dziadek Janek, chooses Babcia's circle by name and
makes the note read-only; Ela, Babcia's other caregiver, finds it in her
list and reads it, told it is read-only and never that her typing is saved;
Jan, Dziadek's caregiver, never sees it. The choice and its dialog are axe
clean in English and Polish. HEARTH_SHOTS=<dir> keeps screenshots of the
dialog at both sizes."""

from __future__ import annotations

import os

import pytest
import requests
from selenium.webdriver.common.by import By

from conftest import Hub
from test_note_sharing_ui import bearer, sit_down_as
from test_notes_ui import editor_status, note_on_hub, textarea_value, type_at_end
from test_web_ui import axe_violations, choose_language, wait_for

SHOTS = os.environ.get("HEARTH_SHOTS")
SCREENS = {"tablet": (1280, 800), "phone": (390, 844)}


def shot(driver, name: str) -> None:
    """A screenshot for a person looking at the layout (HEARTH_SHOTS=dir), never asserted on."""
    if SHOTS:
        driver.save_screenshot(os.path.join(SHOTS, f"{name}.png"))


def household(hub: Hub) -> dict:
    """Babcia Zosia looked after by Ania and Ela; Dziadek Janek by Ania and Jan."""
    people = {name: hub.pair_device("--new-person", name, "--role", role, device_name=f"{name}'s device")
              for name, role in (("Babcia Zosia", "senior"), ("Dziadek Janek", "senior"),
                                 ("Ania", "caregiver"), ("Ela", "caregiver"), ("Jan", "caregiver"))}
    for carer, senior in (("Ania", "Babcia Zosia"), ("Ania", "Dziadek Janek"), ("Ela", "Babcia Zosia"), ("Jan", "Dziadek Janek")):
        assert hub.hearth("people", "link", "--caregiver", carer, "--senior", senior).returncode == 0
    return people


def open_sharing_dialog(browser, note_id: str) -> None:
    button = f"li[data-note-id='{note_id}'] [data-action='visibility']"
    wait_for(browser, "the note's sharing button", lambda d: d.find_elements(By.CSS_SELECTOR, button))
    browser.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", button)
    browser.find_element(By.CSS_SELECTOR, button).click()
    wait_for(browser, "the sharing dialog", lambda d: d.find_element(By.ID, "note-sharing-dialog").is_displayed())


@pytest.mark.parametrize("screen", SCREENS)
def test_a_note_shared_with_babcias_circle_reaches_her_other_caregiver_read_only_and_no_one_else(browser, hub, screen):
    width, height = SCREENS[screen]
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    try:
        people = household(hub)
        babcia, dziadek = people["Babcia Zosia"]["person"]["id"], people["Dziadek Janek"]["person"]["id"]
        violations: list[str] = []

        # Ania looks after two: she picks Babcia's circle by name, for reading only.
        sit_down_as(browser, hub, people["Ania"]["token"])
        wait_for(browser, "the New note button", lambda d: d.find_elements(By.ID, "new-note-open"))
        browser.find_element(By.ID, "new-note-open").click()
        babcias = f"new-note-visibility-circle-{babcia}"
        wait_for(browser, "a choice for each senior she looks after",
                 lambda d: d.find_elements(By.ID, babcias) and d.find_elements(By.ID, f"new-note-visibility-circle-{dziadek}"))
        choice = browser.find_element(By.CSS_SELECTOR, f"label[for='{babcias}']").text
        assert "Babcia Zosia and the people who look after them" in choice and "Ela" in choice, choice
        assert not browser.find_elements(By.ID, "new-note-visibility-circle"), "no unnamed circle to guess at"
        violations += axe_violations(browser, f"Notes with the circle choices, {screen}, en")
        browser.find_element(By.ID, "new-note-title").send_keys("Okulista")
        browser.find_element(By.ID, babcias).click()
        browser.find_element(By.ID, "new-note-read-only").click()
        browser.find_element(By.ID, "new-note-button").click()
        wait_for(browser, "the editor of her note", lambda d: "#/notes/" in d.current_url and editor_status(d) == "saved")
        note_id = browser.current_url.rsplit("/", 1)[1]
        type_at_end(browser, "Okulista w piątek o 10")
        wait_for(browser, "her words saved", lambda d: editor_status(d) == "saved"
                 and note_on_hub(hub, note_id, bearer(people["Ania"]))["text"] == "Okulista w piątek o 10")
        stored = note_on_hub(hub, note_id, bearer(people["Ania"]))
        assert (stored["visibility"], stored["circleOf"], stored["readOnly"]) == ("circle", babcia, True), stored
        sharing = browser.find_element(By.ID, "note-visibility").text
        assert sharing.startswith("Shared with Babcia Zosia and the people who look after them: Babcia Zosia, Ela"), sharing

        # The dialog opens on her choice; looked at and checked in English.
        browser.get(f"http://localhost:{hub.port}/#/notes")
        open_sharing_dialog(browser, note_id)
        assert browser.find_element(By.ID, f"note-visibility-circle-{babcia}").is_selected()
        assert browser.find_element(By.ID, "note-read-only").is_selected()
        violations += axe_violations(browser, f"The sharing dialog, {screen}, en")
        shot(browser, f"note-sharing-dialog-{screen}-en")
        browser.find_element(By.ID, "note-sharing-cancel").click()

        # Ela, Babcia's other caregiver, finds it and reads it: read-only, and never "saved as you type".
        base = sit_down_as(browser, hub, people["Ela"]["token"])
        item = f"li[data-note-id='{note_id}']"
        wait_for(browser, "the note in Ela's list", lambda d: d.find_elements(By.CSS_SELECTOR, f"{item}[data-can-edit='false']"))
        words = browser.find_element(By.CSS_SELECTOR, f"{item} .note-sharing").text
        assert "Shared with Babcia Zosia and the people who look after them: Babcia Zosia, you. Only Ania can change it" in words, words
        browser.get(f"{base}/#/notes/{note_id}")
        wait_for(browser, "the note, to read", lambda d: textarea_value(d) == "Okulista w piątek o 10"
                 and d.find_element(By.ID, "note-read-only-notice").is_displayed())
        assert "Only Ania can change this note" in browser.find_element(By.ID, "note-read-only-notice").text
        assert browser.find_element(By.ID, "note-text").get_attribute("aria-readonly") == "true"
        main = browser.find_element(By.TAG_NAME, "main").text
        assert "saved as you type" not in main, main
        assert not browser.find_element(By.ID, "note-text-hint").is_displayed()
        violations += axe_violations(browser, f"Ela reading the note, {screen}, en")
        shot(browser, f"note-read-only-{screen}")

        # Jan, who looks after Dziadek, neither lists it nor opens it.
        jan = bearer(people["Jan"])
        assert note_id not in [n["id"] for n in requests.get(f"{hub.url}/api/v1/notes", headers=jan, timeout=5).json()]
        assert requests.get(f"{hub.url}/api/v1/notes/{note_id}", headers=jan, timeout=5).status_code == 404

        # The same choice and dialog in Polish.
        base = sit_down_as(browser, hub, people["Ania"]["token"], page="settings")
        wait_for(browser, "the settings", lambda d: d.find_elements(By.ID, "language-select"))
        choose_language(browser, "pl")
        browser.get(f"{base}/#/notes")
        wait_for(browser, "the New note button", lambda d: d.find_elements(By.ID, "new-note-open"))
        browser.find_element(By.ID, "new-note-open").click()
        wait_for(browser, "the Polish choices", lambda d: "Babcia Zosia wraz z opiekunami" in
                 d.find_element(By.CSS_SELECTOR, f"label[for='{babcias}']").text)
        violations += axe_violations(browser, f"New note with the circle choices, {screen}, pl")
        browser.find_element(By.ID, "new-note-cancel").click()
        wait_for(browser, "the New note dialog closed", lambda d: not d.find_elements(By.ID, "new-note-dialog"))
        open_sharing_dialog(browser, note_id)
        violations += axe_violations(browser, f"The sharing dialog, {screen}, pl")
        shot(browser, f"note-sharing-dialog-{screen}-pl")
        browser.find_element(By.ID, "note-sharing-cancel").click()
        assert violations == [], "\n".join(violations)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

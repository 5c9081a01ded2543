"""Notes in a real headless Chromium: two windows typing into one shared note
see each other's words within a second, and where each other's cursor is;
typing while the hub is away is kept on the device and saved when it is
back; words relayed before a hub killed with SIGKILL stored them are given
back by the editor who heard them; a device removed while editing shows the note no more at once,
says it is not paired and forgets its saved copies of notes; a private note stays
invisible to another person's browser; the list, search, pin, Trash and
restore work from the page; axe finds no WCAG 2.1 A/AA violations on the
Notes list, search results, Trash or the editor.

The second person's browser window uses http://localhost:<port> while the
first uses http://127.0.0.1:<port>: cookies and localStorage belong to a
host, so one Chromium holds two paired devices at once."""

from __future__ import annotations

import sqlite3
import time

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ADMIN_NAME, Hub, browser_console_errors
from test_web_ui import axe_violations, click, pair_browser, use_dark_colour_scheme, wait_for

SEEN_WITHIN_S = 1.0


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


@pytest.fixture
def browser(browser):
    """The shared browser; windows a test opened are closed after it, so
    they do not keep knocking at a hub that is gone."""
    first = browser.current_window_handle
    yield browser
    for handle in browser.window_handles:
        if handle != first:
            browser.switch_to.window(handle)
            browser.close()
    browser.switch_to.window(first)


def create_note(hub: Hub, headers: dict, **fields) -> dict:
    response = requests.post(f"{hub.url}/api/v1/notes", json=fields, headers=headers, timeout=5)
    assert response.status_code == 201, response.text
    return response.json()


def note_on_hub(hub: Hub, note_id: str, headers: dict | None = None) -> dict:
    response = requests.get(f"{hub.url}/api/v1/notes/{note_id}", headers=headers or hub.headers, timeout=5)
    assert response.status_code == 200, response.text
    return response.json()


def person_browser_window(driver, hub: Hub, token: str) -> str:
    """Opens a new window as another paired device: its cookie on
    http://localhost:<port>. Returns the window handle."""
    driver.switch_to.new_window("window")
    driver.execute_cdp_cmd("Network.setCookie", {
        "name": "hearth_device", "value": token, "url": f"http://localhost:{hub.port}",
        "httpOnly": True, "sameSite": "Strict", "path": "/",
    })
    return driver.current_window_handle


def open_editor(driver, base_url: str, note_id: str):
    driver.get(f"{base_url}/#/notes/{note_id}")
    wait_for(driver, "the note to load and be editable", lambda d: d.execute_script(
        "const t = document.getElementById('note-text');"
        "return t && !t.readOnly && document.getElementById('note-status')?.dataset.state === 'saved'"))


def textarea_value(driver) -> str:
    return driver.execute_script("return document.getElementById('note-text')?.value ?? null")


def saved_notes(driver) -> list[str]:
    """The ids of the notes this browser keeps a copy of (hearth.note.<id>.state)."""
    keys = driver.execute_script("return Object.keys(localStorage)")
    return sorted(key.split(".")[2] for key in keys if key.startswith("hearth.note.") and key.endswith(".state"))


def editor_status(driver) -> str | None:
    return driver.execute_script("return document.getElementById('note-status')?.dataset.state ?? null")


def type_at_end(driver, text: str):
    area = driver.find_element(By.ID, "note-text")
    area.click()
    area.send_keys(Keys.CONTROL, Keys.END)
    area.send_keys(text)


def seen_within(driver, window: str, what: str, condition, limit: float = SEEN_WITHIN_S) -> float:
    """Switches to `window` and waits for condition; returns how long it took
    from the call (the other window has just typed)."""
    started = time.monotonic()
    driver.switch_to.window(window)
    wait_for(driver, what, condition, timeout=5)
    took = time.monotonic() - started
    assert took < limit, f"{what} took {took:.2f} s (at most {limit} s)"
    return took


def presence_texts(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#note-presence .presence-item')].map(e => e.textContent)")


# --------------------------------------------------------------------------
# Editing together
# --------------------------------------------------------------------------


def test_two_people_typing_in_one_shared_note_see_each_other_within_a_second(browser, hub):
    ania = hub.pair_device("--new-person", "Ania", "--role", "caregiver", device_name="Ania's phone")
    note = create_note(hub, hub.headers, title="Zakupy", text="Lista:\n", visibility="shared")

    pair_browser(browser, hub)  # the admin's tablet, on 127.0.0.1
    admin_window = browser.current_window_handle
    open_editor(browser, hub.url, note["id"])
    ania_window = person_browser_window(browser, hub, ania["token"])
    open_editor(browser, f"http://localhost:{hub.port}", note["id"])
    assert textarea_value(browser) == "Lista:\n"
    assert browser.find_element(By.ID, "note-status").text == "Saved"
    assert not browser.find_element(By.ID, "stop-reading").is_displayed(), "nothing is being read yet"

    # The admin types; Ania sees it, and which line the admin is on.
    browser.switch_to.window(admin_window)
    type_at_end(browser, "mleko 🥛")
    seen_within(browser, ania_window, "Ania to see the admin's words",
                lambda d: "mleko 🥛" in (textarea_value(d) or ""))
    wait_for(browser, "Ania to see where the admin is",
             lambda d: f"{ADMIN_NAME} is editing line 2" in presence_texts(d))

    # Ania types on a new line, with her cursor in the middle of the admin's
    # word meanwhile kept in place by the admin's page.
    type_at_end(browser, "\nchleb żytni")
    seen_within(browser, admin_window, "the admin to see Ania's words",
                lambda d: "chleb żytni" in (textarea_value(d) or ""))
    wait_for(browser, "the admin to see Ania on line 3", lambda d: "Ania is editing line 3" in presence_texts(d))

    # Both type at once: the admin at the start, Ania at the end.
    area = browser.find_element(By.ID, "note-text")
    area.send_keys(Keys.CONTROL, Keys.HOME)
    area.send_keys("Sobota: ")
    browser.switch_to.window(ania_window)
    type_at_end(browser, ", masło")
    expected = "Sobota: Lista:\nmleko 🥛\nchleb żytni, masło"
    wait_for(browser, "Ania's copy to converge", lambda d: textarea_value(d) == expected)
    browser.switch_to.window(admin_window)
    wait_for(browser, "the admin's copy to converge", lambda d: textarea_value(d) == expected)
    # The admin's caret stayed after what they typed, not pushed by Ania's words.
    assert browser.execute_script("return document.getElementById('note-text').selectionStart") == len("Sobota: ")
    wait_for(browser, "everything to be saved", lambda d: editor_status(d) == "saved")
    assert note_on_hub(hub, note["id"])["text"] == expected
    assert browser_console_errors(browser) == []


def test_typing_while_the_hub_is_away_is_kept_and_saved_when_it_is_back(browser, hub_launcher, data_dir):
    first = hub_launcher.start(data_dir=data_dir).pair_admin(wait=False)
    note = create_note(first, first.headers, text="Wizyta u lekarza\n", visibility="shared")
    pair_browser(browser, first)
    open_editor(browser, first.url, note["id"])
    spare_window = browser.current_window_handle

    browser.switch_to.new_window("window")
    open_editor(browser, first.url, note["id"])
    code, _ = first.stop()
    assert code == 0
    wait_for(browser, "the editor to say it is offline", lambda d: editor_status(d) == "offline")
    assert "your changes are kept" in browser.find_element(By.ID, "note-status").text
    type_at_end(browser, "zapytać o ciśnienie")
    assert textarea_value(browser) == "Wizyta u lekarza\nzapytać o ciśnienie"
    drafts = browser.execute_script(
        "return Object.keys(localStorage).filter(k => k.includes('.draft.')).map(k => localStorage.getItem(k))")
    assert any("ciśnienie" in d for d in drafts), drafts

    # The window is closed before the hub is back: only localStorage has the words.
    browser.close()
    browser.switch_to.window(spare_window)
    second = hub_launcher.start(data_dir=data_dir, port=first.port)
    browser.refresh()
    wait_for(browser, "the kept words to reach the hub",
             lambda d: note_on_hub(second, note["id"], first.headers)["text"] == "Wizyta u lekarza\nzapytać o ciśnienie",
             timeout=15)
    wait_for(browser, "the page to show them", lambda d: textarea_value(d) == "Wizyta u lekarza\nzapytać o ciśnienie")
    wait_for(browser, "the drafts to be cleared once stored", lambda d: d.execute_script(
        "return Object.keys(localStorage).filter(k => k.includes('.draft.'))"
        ".every(k => JSON.parse(localStorage.getItem(k)).ops.length === 0)"))


def test_words_heard_before_a_killed_hub_stored_them_are_saved_by_the_listener(browser, hub_launcher, data_dir):
    """The hub relays typing before its disk has it. Killed in between, it
    loses the words; the editor who heard them gives them back after the
    restart, though the typist's window is gone."""
    first = hub_launcher.start(data_dir=data_dir).pair_admin(wait=False)
    ania = first.pair_device("--new-person", "Ania", "--role", "caregiver", device_name="Ania's phone")
    note = create_note(first, first.headers, title="Zakupy", text="Lista:\n", visibility="shared")
    pair_browser(browser, first)
    admin_window = browser.current_window_handle
    open_editor(browser, first.url, note["id"])
    ania_window = person_browser_window(browser, first, ania["token"])
    open_editor(browser, f"http://localhost:{first.port}", note["id"])

    # Another program holds the database's write lock: a disk that stalls.
    stall = sqlite3.connect(data_dir / "hearth.sqlite", timeout=1, isolation_level=None)
    stall.execute("BEGIN IMMEDIATE")
    try:
        type_at_end(browser, "mleko")
        seen_within(browser, admin_window, "the admin to see Ania's words while the disk stalls",
                    lambda d: textarea_value(d) == "Lista:\nmleko")
        browser.switch_to.window(ania_window)
        assert editor_status(browser) == "saving", "not acknowledged: not stored"
        first.kill()  # kill -9, before the words are stored
    finally:
        stall.execute("ROLLBACK")
        stall.close()
    browser.close()  # Ania's window is gone; only the admin's copy holds the words
    browser.switch_to.window(admin_window)

    second = hub_launcher.start(data_dir=data_dir, port=first.port)
    wait_for(browser, "the admin's copy to give the words back to the restarted hub",
             lambda d: note_on_hub(second, note["id"], first.headers)["text"] == "Lista:\nmleko", timeout=20)
    wait_for(browser, "the admin's page to say it is saved", lambda d: editor_status(d) == "saved")
    assert textarea_value(browser) == "Lista:\nmleko"
    # Ania opens the note again and holds the same text as the hub.
    person_browser_window(browser, second, ania["token"])
    open_editor(browser, f"http://localhost:{second.port}", note["id"])
    assert textarea_value(browser) == "Lista:\nmleko"
    assert note_on_hub(second, note["id"], first.headers)["text"] == "Lista:\nmleko"


# --------------------------------------------------------------------------
# Privacy
# --------------------------------------------------------------------------


def test_a_device_removed_while_editing_shows_the_note_no_more_and_forgets_it(browser, hub):
    note = create_note(hub, hub.headers, title="Leki", text="Rano:\n", visibility="shared")
    pair_browser(browser, hub)
    open_editor(browser, hub.url, note["id"])
    wait_for(browser, "the note to be saved on the tablet for a quick start",
             lambda d: saved_notes(d) == [note["id"]], timeout=10)

    # The admin removes the tablet from the household while the note is open:
    # at once the screen shows nothing of the household's, this note included
    # (pages/… are drawn again remembering nothing; app.js forgetTheHousehold).
    tablet = next(d for d in hub.devices() if d["name"] == "Kitchen tablet")
    revoke = hub.hearth("devices", "revoke", tablet["id"][:8])
    assert revoke.returncode == 0, revoke.stderr
    wait_for(browser, "the not-paired notice", lambda d: d.find_elements(By.ID, "unpaired"), timeout=10)
    shown = "return document.documentElement.outerHTML + [...document.querySelectorAll('input, textarea')].map(f => f.value)"
    wait_for(browser, "the note's words gone from the screen",
             lambda d: not any(word in d.execute_script(shown) for word in ("Leki", "Rano")), timeout=1)
    assert note_on_hub(hub, note["id"])["text"] == "Rano:\n"

    # The household's words are not kept on a removed tablet either (its own
    # unsent typing would be, to be saved if it is paired again: the Node
    # tests of notes/drafts.js).
    time.sleep(1.5)
    assert saved_notes(browser) == []


def test_a_private_note_is_not_listed_or_opened_in_another_persons_browser(browser, hub):
    senior = hub.pair_device("--new-person", "Babcia Zosia", "--role", "senior", device_name="Tablet")
    senior_headers = {"Authorization": f"Bearer {senior['token']}"}
    diary = create_note(hub, senior_headers, title="Pamiętnik", text="tylko dla mnie")
    shared = create_note(hub, senior_headers, title="Leki na wyjazd", visibility="shared")

    pair_browser(browser, hub)  # the admin's browser
    browser.get(f"{hub.url}/#/notes")
    wait_for(browser, "the shared note in the list",
             lambda d: d.find_elements(By.CSS_SELECTOR, f"li[data-note-id='{shared['id']}']"))
    assert not browser.find_elements(By.CSS_SELECTOR, f"li[data-note-id='{diary['id']}']")
    assert "Pamiętnik" not in browser.find_element(By.ID, "note-list").text
    item = browser.find_element(By.CSS_SELECTOR, f"li[data-note-id='{shared['id']}']")
    assert "By Babcia Zosia" in item.text and "Shared with the household" in item.text
    assert not item.find_elements(By.CSS_SELECTOR, "[data-action='visibility']"), "only the owner shares or hides"

    browser.get(f"{hub.url}/#/notes/{diary['id']}")
    wait_for(browser, "the editor to say the note is not there",
             lambda d: "does not exist" in d.find_element(By.ID, "problem").text)
    time.sleep(0.5)
    assert textarea_value(browser) == ""
    assert "tylko dla mnie" not in browser.find_element(By.TAG_NAME, "main").text

    # Her own browser lists it, privately.
    person_browser_window(browser, hub, senior["token"])
    browser.get(f"http://localhost:{hub.port}/#/notes")
    wait_for(browser, "her private note in her list",
             lambda d: d.find_elements(By.CSS_SELECTOR, f"li[data-note-id='{diary['id']}'][data-visibility='private']"))


# --------------------------------------------------------------------------
# The list: create, search, pin, Trash, restore
# --------------------------------------------------------------------------


def list_ids(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#note-list > li')].map(li => li.dataset.noteId)")


def test_notes_are_created_searched_pinned_trashed_and_restored_from_the_page(browser, hub):
    older = create_note(hub, hub.headers, text="Pączki na czwartek\nz różą", visibility="shared")
    pair_browser(browser, hub)
    browser.get(f"{hub.url}/#/notes")
    wait_for(browser, "the list", lambda d: list_ids(d) == [older["id"]])

    # Create: "New note" asks in a dialog; the editor opens; a title given there shows in the list.
    browser.find_element(By.ID, "new-note-open").click()
    wait_for(browser, "the new-note dialog", lambda d: d.find_elements(By.ID, "new-note-title"))
    browser.find_element(By.ID, "new-note-title").send_keys("Telefony")
    browser.find_element(By.ID, "new-note-button").click()
    wait_for(browser, "the editor of the new note", lambda d: "#/notes/" in d.current_url
             and d.find_elements(By.ID, "note-text") and d.find_element(By.ID, "note-title").get_attribute("value") == "Telefony")
    new_id = browser.current_url.rsplit("/", 1)[1]
    open_editor(browser, hub.url, new_id)
    type_at_end(browser, "Przychodnia 22 123 45 67")
    wait_for(browser, "saved", lambda d: editor_status(d) == "saved")
    browser.find_element(By.ID, "notes-back").click()
    wait_for(browser, "the newest first", lambda d: list_ids(d) == [new_id, older["id"]])

    # Pin the older one: it moves to the top, and focus stays on its button.
    pin = browser.find_element(By.CSS_SELECTOR, f"li[data-note-id='{older['id']}'] [data-action='pin']")
    assert pin.get_attribute("aria-pressed") == "false"
    pin.click()
    wait_for(browser, "the pinned note on top", lambda d: list_ids(d) == [older["id"], new_id])
    # Read through wait_for: the live change of the pin redraws the list,
    # and an element found just before that redraw reads as stale.
    pinned = f"li[data-note-id='{older['id']}'] [data-action='pin']"
    wait_for(browser, "the pin pressed, with the keyboard still on it", lambda d: (
        d.find_element(By.CSS_SELECTOR, pinned).get_attribute("aria-pressed") == "true"
        and d.find_element(By.CSS_SELECTOR, pinned).text == "Unpin"
        and d.execute_script("return document.activeElement.matches(arguments[0])", pinned)))

    # Search without Polish letters: the match is marked.
    browser.find_element(By.ID, "notes-search").send_keys("paczki")
    wait_for(browser, "the search result", lambda d: list_ids(d) == [older["id"]]
             and d.find_elements(By.CSS_SELECTOR, "#note-list mark"))
    assert browser.find_element(By.CSS_SELECTOR, "#note-list mark").text == "Pączki"
    assert browser.find_element(By.ID, "notes-list-heading").text == "Notes found: 1"
    browser.find_element(By.ID, "notes-search").send_keys(Keys.CONTROL, "a", Keys.DELETE)
    wait_for(browser, "the whole list again", lambda d: len(list_ids(d)) == 2)

    # Trash, then restore from the Trash.
    click(browser, f"li[data-note-id='{new_id}'] [data-action='trash']")
    wait_for(browser, "it to leave the list", lambda d: list_ids(d) == [older["id"]])
    # Said once the hub has answered (the live list may redraw first), and
    # a moment later so a screen reader hears the same sentence twice.
    wait_for(browser, "the move to be announced", lambda d: "was moved to Trash"
             in d.find_element(By.ID, "notes-announcer").get_attribute("textContent"))
    browser.find_element(By.ID, "trash-link").click()
    wait_for(browser, "the Trash", lambda d: list_ids(d) == [new_id])
    assert "Deleted for good on" in browser.find_element(By.CSS_SELECTOR, "#note-list .purge-at").text
    click(browser, f"li[data-note-id='{new_id}'] [data-action='restore']")
    wait_for(browser, "an empty Trash", lambda d: d.find_elements(By.ID, "notes-empty"))
    browser.find_element(By.ID, "notes-back").click()
    wait_for(browser, "it back in the list", lambda d: set(list_ids(d)) == {older["id"], new_id})


def test_ticking_a_checklist_line_edits_the_note_for_everyone(browser, hub):
    note = create_note(hub, hub.headers, text="[ ] mleko\n[x] chleb\nuwaga", visibility="shared")
    pair_browser(browser, hub)
    open_editor(browser, hub.url, note["id"])
    browser.find_element(By.ID, "checklist-view").click()
    boxes = browser.find_elements(By.CSS_SELECTOR, "#note-checklist input[type=checkbox]")
    assert [b.is_selected() for b in boxes] == [False, True]
    boxes[0].send_keys(Keys.SPACE)  # by keyboard
    wait_for(browser, "the tick saved on the hub",
             lambda d: note_on_hub(hub, note["id"])["text"] == "[x] mleko\n[x] chleb\nuwaga")
    assert browser.switch_to.active_element.get_attribute("data-line") == "0", "focus stays on the box"


# --------------------------------------------------------------------------
# Accessibility
# --------------------------------------------------------------------------


def test_notes_pages_have_no_wcag_21_aa_violations(browser, hub):
    ania = hub.pair_device("--new-person", "Ania", "--role", "caregiver", device_name="Ania's phone")
    ania_headers = {"Authorization": f"Bearer {ania['token']}"}
    note = create_note(hub, hub.headers, title="Zakupy", text="[ ] mleko\n[x] pączki", visibility="shared", pinned=True)
    create_note(hub, ania_headers, text="Dyżury w tym tygodniu", visibility="shared")
    trashed = create_note(hub, hub.headers, text="Stara lista")
    requests.delete(f"{hub.url}/api/v1/notes/{trashed['id']}", headers=hub.headers, timeout=5)

    pair_browser(browser, hub)
    admin_window = browser.current_window_handle
    violations = []
    for scheme in ("light", "dark"):
        if scheme == "dark":
            use_dark_colour_scheme(browser)
        browser.get(f"{hub.url}/#/notes")
        wait_for(browser, "the list", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#note-list > li")) == 2)
        violations += axe_violations(browser, f"Notes list, {scheme}")

        browser.find_element(By.ID, "notes-search").send_keys("paczki")
        wait_for(browser, "a marked search result", lambda d: d.find_elements(By.CSS_SELECTOR, "#note-list mark"))
        violations += axe_violations(browser, f"Notes search, {scheme}")
        browser.find_element(By.ID, "notes-search").send_keys(Keys.CONTROL, "a", Keys.DELETE)

        browser.get(f"{hub.url}/#/notes/trash")
        wait_for(browser, "the Trash", lambda d: d.find_elements(By.CSS_SELECTOR, "#note-list .purge-at"))
        violations += axe_violations(browser, f"Trash, {scheme}")

    # The editor, with someone else in it, in both views.
    person_browser_window(browser, hub, ania["token"])
    open_editor(browser, f"http://localhost:{hub.port}", note["id"])
    browser.switch_to.window(admin_window)
    open_editor(browser, hub.url, note["id"])
    wait_for(browser, "Ania in the presence list", lambda d: any("Ania" in p for p in presence_texts(d)))
    violations += axe_violations(browser, "Editor, dark")
    browser.find_element(By.ID, "checklist-view").click()
    violations += axe_violations(browser, "Editor checklist view, dark")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})
    violations += axe_violations(browser, "Editor checklist view, light")
    browser.find_element(By.ID, "checklist-view").click()
    violations += axe_violations(browser, "Editor, light")

    assert not violations, f"{len(violations)} WCAG 2.1 A/AA violation(s):\n\n" + "\n\n".join(violations)

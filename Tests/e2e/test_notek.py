"""Notek conformance on a live hub: the hub started with HEARTH_NOTEK_ENABLED
speaks the Notek protocol on its own WebSocket port, checked with an
independent client (notek_client.py) against what Hearth's API, live stream
and web editor show.

* A legacy Greet gets a site of its own and the shared note as typed so far;
  that note is "Notek shared note" in Hearth.
* Two legacy clients and the web editor typing at once (at the end and in
  the middle, inserting and deleting) end with the same text everywhere,
  every word intact.
* A sync connection lists shared notes changed since a time (never a private
  one), pulls a note's text, uploads offline edits merged with the web's
  meanwhile, creates a note by upsert, renames and moves a note to Trash, as
  the live stream and the API show.
* Notek's own minimal client (session_start, then "hello world" one insert
  at a time) leaves "hello world" in Hearth.
* An editing session relays inserts, deletes and renames between Notek
  clients (with the typist's site) and the web editor, never back to the
  typist.
* Bad input closes that connection with 1002 "protocol error…" and nothing
  else: another connection carries on and the note is untouched.
"""

from __future__ import annotations

import functools
import threading
import time
import uuid
from datetime import datetime

import pytest
import requests
import websocket
from selenium.webdriver.common.by import By

from conftest import Hub, Live, free_loopback_ports
from notek_client import (
    CLOSE_NOT_FOUND,
    CLOSE_PROTOCOL_ERROR,
    Delete,
    Insert,
    NewSession,
    NotekClient,
    NotekDocument,
    connect,
    encode_pid,
    session_insert,
    session_start,
    sync_doc_pull,
    u32,
    u8,
)
from test_notes_ui import create_note, note_on_hub, open_editor, textarea_value, type_at_end
from test_web_ui import wait_for

LEGACY_NOTE_TITLE = "Notek shared note"
QUIET_S = 0.3


# --------------------------------------------------------------------------
# Fixtures and helpers
# --------------------------------------------------------------------------


@pytest.fixture
def notek_hub(hub_launcher) -> Hub:
    """A hub with Notek on a free loopback port (`hub.notek_url`) and a
    paired admin device."""
    http_port, port = free_loopback_ports(2)
    hub = hub_launcher.start(port=http_port, env={
        "HEARTH_NOTEK_ENABLED": "true",
        "HEARTH_NOTEK_HOST": "127.0.0.1",
        "HEARTH_NOTEK_PORT": str(port),
    }).pair_admin(wait=False)
    hub.notek_url = f"ws://127.0.0.1:{port}/"
    return hub


class Connections:
    """Opens Notek connections to one hub and closes them after the test."""

    def __init__(self, url: str):
        self.url = url
        self.opened: list[NotekClient] = []

    def _keep(self, client: NotekClient) -> NotekClient:
        self.opened.append(client)
        return client

    def legacy(self) -> NotekClient:
        return self._keep(NotekClient.legacy(self.url))

    def session(self, doc_id: uuid.UUID, site: int, name: str = "", last_sync_time: int = 0) -> NotekClient:
        return self._keep(NotekClient.session(self.url, doc_id, site, name, last_sync_time))

    def sync(self) -> NotekClient:
        return self._keep(NotekClient.sync(self.url))

    def raw(self) -> NotekClient:
        """A connection whose kind its first message will decide."""
        return self._keep(NotekClient(self.url))

    def close_all(self) -> None:
        for client in self.opened:
            client.close()


@pytest.fixture
def notek(notek_hub):
    connections = Connections(notek_hub.notek_url)
    yield connections
    connections.close_all()


def eventually(what: str, probe, check, timeout: float = 5.0):
    """Polls probe() until check(value) holds; returns the value."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if check(value):
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"Timed out after {timeout} s waiting for {what}; last seen: {value!r}", pytrace=False)
        time.sleep(0.05)


def get_note(hub: Hub, note_id) -> requests.Response:
    return requests.get(f"{hub.url}/api/v1/notes/{note_id}", headers=hub.headers, timeout=5)


def listed_notes(hub: Hub, trash: bool = False) -> list[dict]:
    response = requests.get(f"{hub.url}/api/v1/notes", params={"trash": "1"} if trash else None,
                            headers=hub.headers, timeout=5)
    assert response.status_code == 200, response.text
    return response.json()


def note_text_becomes(hub: Hub, note_id, text: str, timeout: float = 5.0) -> dict:
    return eventually(f"the note's text on the hub to be {text!r}",
                      lambda: note_on_hub(hub, str(note_id)), lambda note: note["text"] == text, timeout)


def legacy_note(hub: Hub, text: str) -> dict:
    """The note legacy clients edit, once it reads `text` in Hearth."""
    def probe():
        notes = [n for n in listed_notes(hub) if n["title"] == LEGACY_NOTE_TITLE]
        return note_on_hub(hub, notes[0]["id"]) if len(notes) == 1 else notes
    return eventually(f"one {LEGACY_NOTE_TITLE!r} reading {text!r} in GET /api/v1/notes",
                      probe, lambda note: isinstance(note, dict) and note["text"] == text)


def milliseconds(iso_time: str) -> int:
    return round(datetime.fromisoformat(iso_time.replace("Z", "+00:00")).timestamp() * 1000)


def sign_in(driver, hub: Hub) -> None:
    """The browser as the admin's device: its cookie on http://127.0.0.1:<port>."""
    driver.execute_cdp_cmd("Network.setCookie", {
        "name": "hearth_device", "value": hub.token, "url": hub.url,
        "httpOnly": True, "sameSite": "Strict", "path": "/",
    })


def type_before(driver, anchor: str, text: str) -> None:
    """Puts the caret before the first `anchor` in the note and types."""
    area = driver.find_element(By.ID, "note-text")
    driver.execute_script(
        "const t = arguments[0]; t.focus(); const i = t.value.indexOf(arguments[1]);"
        "if (i < 0) throw new Error('no ' + arguments[1]); t.setSelectionRange(i, i);", area, anchor)
    area.send_keys(text)


def converge(hub: Hub, note_id: str, driver, clients: list[NotekClient], what: str,
             condition=lambda text: True, timeout: float = 10.0) -> str:
    """Reads what the clients are sent until every Notek client, the web
    editor and the hub read one text that satisfies `condition`."""
    deadline = time.monotonic() + timeout
    while True:
        for client in clients:
            client.drain(quiet_seconds=0.05, limit=0.5)
        texts = {f"Notek site {c.site}": c.text for c in clients}
        texts["browser"] = textarea_value(driver)
        texts["hub"] = note_on_hub(hub, note_id)["text"]
        if len(set(texts.values())) == 1 and condition(texts["hub"]):
            return texts["hub"]
        if time.monotonic() > deadline:
            shown = "\n".join(f"  {who}: {text!r}" for who, text in texts.items())
            pytest.fail(f"Timed out after {timeout} s waiting for {what}:\n{shown}", pytrace=False)
        time.sleep(0.05)


def interleaves(text: str, words: list[str]) -> bool:
    """Whether `text` is the `words`' characters, each once, each word's in
    its own order: what typists at one place at one moment are promised.
    Whole words are not: a Notek client places characters by Logoot
    positions, and one word it types while a web editor types another at
    the same place may fall inside it (seen once under load: '  alfacharlie
    bravo', the web's space, then a Notek client's ' alfa', then the web's
    'charlie')."""
    @functools.cache
    def fits(at: int, read: tuple[int, ...]) -> bool:
        if at == len(text):
            return all(count == len(word) for count, word in zip(read, words))
        return any(count < len(word) and word[count] == text[at]
                   and fits(at + 1, read[:index] + (count + 1,) + read[index + 1:])
                   for index, (count, word) in enumerate(zip(read, words)))
    return len(text) == sum(map(len, words)) and fits(0, (0,) * len(words))


def run_concurrently(*jobs) -> list[threading.Thread]:
    """Starts each job on a thread; errors are kept on thread.error."""
    threads = []
    for job in jobs:
        def target(job=job):
            try:
                job()
            except BaseException as error:  # reported by join_all
                threading.current_thread().error = error
        thread = threading.Thread(target=target, daemon=True)
        thread.error = None
        thread.start()
        threads.append(thread)
    return threads


def join_all(threads: list[threading.Thread]) -> None:
    for thread in threads:
        thread.join(timeout=10)
        assert not thread.is_alive(), "a Notek client was still typing after 10 s"
        if thread.error:
            raise thread.error


def next_note_change(live: Live, note_id: str, what: str, matches, timeout: float = 5.0) -> dict:
    """The next live change frame for note `note_id` that `matches`."""
    seen = []
    deadline = time.monotonic() + timeout
    while (remaining := deadline - time.monotonic()) > 0:
        try:
            frame = live.frame(timeout=remaining)
        except websocket.WebSocketTimeoutException:
            break
        seen.append(frame)
        if frame.get("entity") == "note" and frame.get("entityId") == note_id and matches(frame):
            return frame
    pytest.fail(f"No live change {what} for note {note_id} within {timeout} s; saw {seen}", pytrace=False)


# --------------------------------------------------------------------------
# 1. Legacy Greet
# --------------------------------------------------------------------------


def test_a_legacy_greet_gets_a_site_and_the_shared_note_typed_so_far(notek_hub, notek):
    first = notek.legacy()
    assert 1 <= first.site <= 255, f"assigned site {first.site}"
    assert first.text == "", "a new hub's shared Notek note starts empty"

    typed = "Zakupy: mleko, jajka 🥚\nżółty ser"
    first.append(typed)
    note = legacy_note(notek_hub, typed)
    assert note["visibility"] == "shared", note

    second = notek.legacy()
    assert 1 <= second.site <= 255 and second.site != first.site, (first.site, second.site)
    new_session = second.received[0]
    assert isinstance(new_session, NewSession)
    assert [a.pid for a in new_session.atoms] == sorted(a.pid for a in new_session.atoms), "atoms in document order"
    assert new_session.atoms == first.doc.atoms(), "the second client sees the first's characters at their PIDs"
    assert second.text == typed
    assert first.drain(QUIET_S) == [], "the hub does not send a client its own inserts back"


# --------------------------------------------------------------------------
# 2. Two legacy clients and the web editor at once
# --------------------------------------------------------------------------


def test_two_legacy_clients_and_the_web_editor_typing_at_once_converge(notek_hub, notek, browser):
    hub = notek_hub
    one = notek.legacy()
    base = "one two three four"
    one.append(base)
    note_id = legacy_note(hub, base)["id"]
    two = notek.legacy()
    assert two.site != one.site, "two legacy clients connected at once have different sites"
    assert two.text == base

    sign_in(browser, hub)
    open_editor(browser, hub.url, note_id)
    assert textarea_value(browser) == base

    # The web types a word at the end. Without reading anything the hub
    # sent, each legacy client then types a word at the end and one in the
    # middle, a character every 10 ms, while the web types in the middle.
    type_at_end(browser, " charlie")
    threads = run_concurrently(
        lambda: (one.append(" alfa", delay=0.01), one.insert_at(one.text.index("two"), "delta ", delay=0.01)),
        lambda: (two.append(" bravo", delay=0.01), two.insert_at(two.text.index("three"), "echo ", delay=0.01)),
    )
    type_before(browser, "four", "foxtrot ")
    join_all(threads)

    middle = "one delta two echo three foxtrot four"
    text = converge(hub, note_id, browser, [one, two], "everyone to read every character once, in its typist's order",
                    lambda t: t.startswith(middle) and interleaves(t[len(middle):], [" alfa", " bravo", " charlie"]))

    # Deletes: each legacy client removes a word someone else typed, while
    # the web types at the end.
    threads = run_concurrently(lambda: one.delete_text("foxtrot "), lambda: two.delete_text("one "))
    type_at_end(browser, "!")
    join_all(threads)
    expected = text.replace("foxtrot ", "").removeprefix("one ") + "!"
    converge(hub, note_id, browser, [one, two], f"everyone to read {expected!r}", lambda t: t == expected)


# --------------------------------------------------------------------------
# 3. synclist and sync_doc_pull
# --------------------------------------------------------------------------


def test_synclist_lists_shared_notes_changed_since_and_pull_reads_one(notek_hub, notek):
    hub = notek_hub
    text = "witamina D\nplastry 🩹\nżel na stłuczenia"
    shared = create_note(hub, hub.headers, title="Apteczka", text=text, visibility="shared")
    private = create_note(hub, hub.headers, title="Pamiętnik", text="tylko dla mnie")
    assert private["visibility"] == "private"
    shared_id, private_id = uuid.UUID(shared["id"]), uuid.UUID(private["id"])

    sync = notek.sync()
    times = sync.synclist(0).times()
    assert shared_id in times, f"synclist(0) lists {times}, not the shared note {shared_id}"
    assert private_id not in times, "a private note is not Notek's to see"
    modified = times[shared_id]
    updated_at = milliseconds(note_on_hub(hub, shared["id"])["updatedAt"])
    assert abs(modified - updated_at) <= 1000, f"last_modified {modified} is not the note's updatedAt {updated_at}"
    assert shared_id not in sync.synclist(modified + 1).times(), "not changed after its last change"
    assert shared_id in sync.synclist(modified - 1).times()

    pulled = sync.pull(shared_id, 0)
    assert pulled.name == "Apteczka"
    assert "".join(a.char for a in sorted(pulled.inserts, key=lambda a: a.pid)) == text
    assert len({a.pid for a in pulled.inserts}) == len(pulled.inserts), "every character has its own PID"
    assert pulled.text == text

    # A private note or an unknown id is not there for Notek: 4404.
    for doc_id in (private_id, uuid.uuid4()):
        probe = notek.raw()
        probe.send(sync_doc_pull(doc_id, 0))
        code, reason = probe.close_frame(timeout=3)
        assert code == CLOSE_NOT_FOUND, f"pull of {doc_id}: closed with {code} {reason!r}"
    assert shared_id in sync.synclist(0).times(), "the first connection carries on"


# --------------------------------------------------------------------------
# 4. Offline edits: sync_doc_upsert
# --------------------------------------------------------------------------


def test_an_upsert_merges_offline_edits_with_the_webs_and_creates_new_notes(notek_hub, notek, browser):
    hub = notek_hub
    note = create_note(hub, hub.headers, title="Zakupy", text="mleko\nchleb\njajka\n", visibility="shared")
    doc_id = uuid.UUID(note["id"])
    sync = notek.sync()
    last_sync = sync.synclist(0).times()[doc_id]
    offline = sync.pull(doc_id, 0).document()
    assert offline.text == "mleko\nchleb\njajka\n"

    # Meanwhile someone adds a line on the web.
    sign_in(browser, hub)
    open_editor(browser, hub.url, note["id"])
    type_at_end(browser, "masło")
    note_text_becomes(hub, doc_id, "mleko\nchleb\njajka\nmasło")

    # The phone's offline edits, between the characters it pulled.
    inserts = offline.insert_at(len("mleko"), " 2%", site=42)
    deletes = offline.delete_at(offline.text.index("chleb\n"), len("chleb\n"))
    inserts += offline.insert_at(offline.text.index("jajka"), "świeże ", site=42)
    assert offline.text == "mleko 2%\nświeże jajka\n"
    sync.upsert(doc_id, "Zakupy", last_sync, inserts, deletes)

    expected = "mleko 2%\nświeże jajka\nmasło"
    note_text_becomes(hub, doc_id, expected)
    wait_for(browser, "the web editor to show the phone's edits", lambda d: textarea_value(d) == expected, timeout=5)
    again = sync.pull(doc_id, 0)
    assert again.text == expected
    assert set(inserts) <= set(again.inserts), "the hub keeps the phone's characters at the phone's PIDs"
    web_atoms = again.document().atoms()[-len("masło"):]
    assert "".join(a.char for a in web_atoms) == "masło"
    assert all(a.pid[-1][1] == 0 for a in web_atoms), f"characters typed in Hearth end in site 0: {web_atoms}"

    # An upsert for an id the hub does not know creates a shared note.
    new_id = uuid.uuid4()
    atoms = NotekDocument().insert_at(0, "grabie\nnasiona 🌱", site=42)
    sync.upsert(new_id, "Działka", 0, atoms, [])
    # Created at once, its text stored right after.
    created = eventually("the upserted note to exist with its text", lambda: get_note(hub, new_id),
                         lambda response: response.status_code == 200 and response.json()["text"]).json()
    assert (created["title"], created["text"], created["visibility"]) == ("Działka", "grabie\nnasiona 🌱", "shared")
    pulled = sync.pull(new_id, 0)
    assert pulled.name == "Działka" and set(pulled.inserts) == set(atoms)


# --------------------------------------------------------------------------
# 5. rename and delete_doc
# --------------------------------------------------------------------------


def test_rename_and_delete_doc_show_live_and_in_the_api(notek_hub, notek):
    hub = notek_hub
    note = create_note(hub, hub.headers, title="Stara nazwa", text="numery telefonów", visibility="shared")
    doc_id = uuid.UUID(note["id"])
    with Live(hub.ws_url, token=hub.token) as live:
        live.frame()  # hello
        sync = notek.sync()

        sync.rename(doc_id, "Telefony ☎")
        next_note_change(live, note["id"], "with the new title",
                         lambda change: (change.get("payload") or {}).get("title") == "Telefony ☎")
        assert note_on_hub(hub, note["id"])["title"] == "Telefony ☎"

        sync.delete_doc(doc_id)
        next_note_change(live, note["id"], "moving it to Trash",
                         lambda change: change["op"] == "delete" or (change.get("payload") or {}).get("deletedAt"))
    assert note["id"] not in [n["id"] for n in listed_notes(hub)]
    trash = listed_notes(hub, trash=True)
    assert [n["id"] for n in trash] == [note["id"]] and trash[0]["title"] == "Telefony ☎"


# --------------------------------------------------------------------------
# 6. Notek's own minimal client
# --------------------------------------------------------------------------


def test_notek_minimal_client_writes_hello_world(notek_hub):
    doc_id = uuid.uuid4()
    ws = connect(notek_hub.notek_url)
    try:
        ws.send_binary(session_start(0, doc_id, "Notek demo"))
        for i, char in enumerate("hello world"):
            ws.send_binary(session_insert(1, char, ((i * 100 + 100, 1),)))
        note = eventually("the note to read 'hello world' in Hearth", lambda: get_note(notek_hub, doc_id),
                          lambda r: r.status_code == 200 and r.json()["text"] == "hello world").json()
        assert (note["title"], note["visibility"]) == ("Notek demo", "shared")
    finally:
        ws.close()


# --------------------------------------------------------------------------
# 7. Editing sessions relay
# --------------------------------------------------------------------------


def test_an_editing_session_relays_between_notek_clients_and_the_web(notek_hub, notek, browser):
    hub = notek_hub
    note = create_note(hub, hub.headers, title="Plan", text="Plan dnia:\n", visibility="shared")
    doc_id = uuid.UUID(note["id"])
    sign_in(browser, hub)
    open_editor(browser, hub.url, note["id"])

    first = notek.session(doc_id, site=11, name="Plan")
    first.receive_until(lambda c: c.text == "Plan dnia:\n", "the note's text at session start")
    catch_up = [m for m in first.received if isinstance(m, Insert)]
    assert all(m.tag == 65 and m.site == 0 for m in catch_up), catch_up
    second = notek.session(doc_id, site=12, name="Plan")
    second.receive_until(lambda c: c.text == "Plan dnia:\n", "the note's text at session start")

    # A Notek client types: the web and the other Notek client see it, from site 11.
    mark = len(second.received)
    typed = first.append("spacer 🚶")
    expected = "Plan dnia:\nspacer 🚶"
    wait_for(browser, "the web editor to show the Notek client's words",
             lambda d: textarea_value(d) == expected, timeout=5)
    second.receive_until(lambda c: c.text == expected, "the first Notek client's words")
    relayed = [m for m in second.received[mark:] if isinstance(m, Insert)]
    assert sorted(m.atom for m in relayed) == sorted(typed) and all(m.site == 11 for m in relayed), relayed

    # The web types: both Notek clients see it, as Hearth's (site 0).
    mark = len(first.received)
    type_at_end(browser, "\nobiad 🍲")
    expected += "\nobiad 🍲"
    for client in (first, second):
        client.receive_until(lambda c: c.text == expected, "the web editor's words")
    web = [m for m in first.received[mark:] if isinstance(m, Insert)]
    assert "".join(m.atom.char for m in sorted(web, key=lambda m: m.atom.pid)) == "\nobiad 🍲", web
    assert all(m.site == 0 and m.atom.pid[-1][1] == 0 for m in web), f"characters typed in Hearth come from site 0: {web}"

    # The second deletes: the web and the first see it, from site 12.
    mark = len(first.received)
    removed = second.delete_text(" dnia")
    expected = expected.replace(" dnia", "")
    wait_for(browser, "the web editor to lose the deleted word", lambda d: textarea_value(d) == expected, timeout=5)
    first.receive_until(lambda c: c.text == expected, "the second Notek client's deletes")
    deletes = [m for m in first.received[mark:] if isinstance(m, Delete)]
    assert sorted(m.pid for m in deletes) == sorted(removed) and all(m.site == 12 for m in deletes), deletes
    assert note_on_hub(hub, note["id"])["text"] == expected

    # A name change reaches the other client, Hearth and the web editor.
    first.rename_session("Plan na sobotę")
    second.receive_until(lambda c: c.name == "Plan na sobotę", "the new name")
    eventually("the title in Hearth", lambda: note_on_hub(hub, note["id"])["title"], lambda t: t == "Plan na sobotę")
    wait_for(browser, "the web editor's title", timeout=5, condition=lambda d: d.execute_script(
        "return document.getElementById('note-title').value") == "Plan na sobotę")

    # Nobody is sent their own edits back.
    first.drain(QUIET_S), second.drain(QUIET_S)
    assert not [m for m in first.received if isinstance(m, Insert) and m.site == 11], "site 11 got its inserts back"
    assert not [m for m in second.received if isinstance(m, Delete) and m.site == 12], "site 12 got its deletes back"


# --------------------------------------------------------------------------
# 8. Bad input
# --------------------------------------------------------------------------


def a_pid(depth: int = 1) -> bytes:
    """A PID's bytes with any depth, even one the protocol forbids."""
    return u8(depth) + (u32(100) + u8(5)) * depth


def session_then(*frames: bytes):
    """Joins the note's session, then sends `frames`."""
    return lambda doc_id, title: [session_start(0, doc_id, title), *frames]


def sync_then(*frames: bytes):
    """Opens a sync connection with synclist(0), then sends `frames`."""
    return lambda doc_id, title: [u8(0) + bytes(8), *frames]


BAD_INPUT = {
    "truncated insert": session_then(bytes([65, 5, 1]) + b"a" + u8(1) + u32(100)[:2]),
    "truncated pull": lambda doc_id, title: [u8(1) + doc_id.bytes[:9]],
    "PID depth 0": session_then(bytes([65, 5, 1]) + b"a" + a_pid(0)),
    "PID depth 33": session_then(bytes([65, 5, 1]) + b"a" + a_pid(33)),
    "character of 5 bytes": session_then(bytes([65, 5, 5]) + b"abcde" + a_pid()),
    "invalid UTF-8": session_then(bytes([65, 5, 2, 0xC3, 0x28]) + a_pid()),
    "unknown first tag": lambda doc_id, title: [bytes([200]) + bytes(8)],
    "unknown tag on a sync connection": sync_then(bytes([31]) + bytes(8)),
    "session insert on a sync connection": sync_then(session_insert(5, "a", ((100, 5),))),
    "name of 256 bytes": lambda doc_id, title: [u8(3) + doc_id.bytes + ("ż" * 128).encode() + b"\n"],
}


def test_bad_input_closes_only_that_connection_and_leaves_the_note_alone(notek_hub, notek, subtests):
    hub = notek_hub
    title, text = "Stałe", "nie ruszać ✋\nnigdy"
    note = create_note(hub, hub.headers, title=title, text=text, visibility="shared")
    doc_id = uuid.UUID(note["id"])
    bystander = notek.sync()
    assert bystander.pull(doc_id).text == text
    assert encode_pid(((100, 5),)) == a_pid(), "a_pid() builds PIDs as the client does"

    for case, frames in BAD_INPUT.items():
        with subtests.test(case):
            bad = notek.raw()
            for frame in frames(doc_id, title):
                bad.send(frame)
            code, reason = bad.close_frame(timeout=3)
            assert code == CLOSE_PROTOCOL_ERROR and reason.startswith("protocol error"), (code, reason)
            pulled = bystander.pull(doc_id)
            assert (pulled.name, pulled.text) == (title, text), "the other connection still works, the note unchanged"
            on_hub = note_on_hub(hub, note["id"])
            assert (on_hub["title"], on_hub["text"]) == (title, text)

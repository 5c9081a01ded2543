"""Everything acknowledged survives kill -9: a typist at the end of a note of
100 KB, the hub killed (SIGKILL) in the middle of the typing, and after the
restart every keystroke the hub acknowledged is in the note, in order,
after the 100 KB, and nothing that was never typed.

The editing protocol is spoken as Benchmarks/disk-writes.py speaks it (as
the web editor does: one insertion frame a keystroke at the note's end,
20 a second, each acknowledged once it is stored), so what this test holds
the hub to is what the disk-writes benchmark measures: when the writing of
typing changes (issue 41's batching), this is the test it must pass.
"""
from __future__ import annotations

import importlib.util
import random
import threading
import time
from pathlib import Path

import requests

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTE_BYTES = 100 * 1024


def editing_protocol():
    """Benchmarks/disk-writes.py as a module (its name has a dash)."""
    spec = importlib.util.spec_from_file_location("disk_writes", REPO_ROOT / "Benchmarks" / "disk-writes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_acknowledged_keystroke_in_a_100_kb_note_survives_a_kill_mid_typing(hub_launcher, data_dir):
    protocol = editing_protocol()
    first = hub_launcher.start(data_dir=data_dir).pair_admin()
    filler = protocol.filler(NOTE_BYTES)
    made = requests.post(f"{first.url}/api/v1/notes", json={"title": "Diary", "text": filler, "visibility": "shared"},
                         headers=first.headers, timeout=10)
    assert made.status_code == 201, made.text
    note_id = made.json()["id"]

    ws = protocol.WebSocket(first.port, f"/api/v1/notes/{note_id}/edit", first.headers)
    ws.send(bytes([1, protocol.HELLO]) + protocol.varint(0))
    left = None
    while True:
        frame = ws.receive()
        if frame[1] == protocol.STATE:
            left = protocol.last_character(frame[2:])
        elif frame[1] == protocol.SYNCED:
            break
    replica = random.randrange(1, 1 << 53)
    acknowledged = {"through": 0}
    lock = threading.Lock()

    def heard(frame: bytes) -> None:
        if frame[1] == protocol.ACKNOWLEDGED:
            through = protocol.version_vector(frame[2:]).get(replica, 0)
            with lock:
                acknowledged["through"] = max(acknowledged["through"], through)

    ws.listen(heard)
    typed = protocol.typed_text(400)
    sent = 0
    started = time.monotonic()
    # Typing at 20 keys a second; the hub dies once 60 keystrokes are
    # acknowledged, with more on the wire and in its memory.
    for counter, character in enumerate(typed):
        wait = started + counter / 20 - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        assert ws.ended is None, f"the connection ended before the kill: {ws.ended}"
        ws.send(protocol.insertion_frame(replica, counter, left, character))
        left = (replica, counter)
        sent = counter + 1
        with lock:
            if acknowledged["through"] >= 60:
                break
    first.kill()
    with lock:
        kept = acknowledged["through"]
    ws.close()
    assert 60 <= kept <= sent < len(typed), (kept, sent)

    second = hub_launcher.start(data_dir=data_dir, port=first.port)
    answer = requests.get(f"{second.url}/api/v1/notes/{note_id}", headers=first.headers, timeout=10)
    assert answer.status_code == 200, answer.text
    text = answer.json()["text"]
    assert text.startswith(filler), "the 100 KB the note held before are there, unchanged"
    after = text[len(filler):]
    assert after.startswith(typed[:kept]), (
        f"{kept} keystrokes were acknowledged; after the restart the note ends {after[-80:]!r}")
    assert typed[:sent].startswith(after), "nothing but what was typed, in the order it was typed"

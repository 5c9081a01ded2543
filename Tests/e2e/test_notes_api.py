"""Notes through the built hub's HTTP API and live stream: what a household
app would do. (Editing the text together is over /api/v1/notes/{id}/edit.)"""

from __future__ import annotations

import requests

from conftest import Hub, Live, assert_problem


def notes_url(hub: Hub, suffix: str = "") -> str:
    return f"{hub.url}/api/v1/notes{suffix}"


def test_a_note_is_created_found_trashed_and_restored(hub):
    created = requests.post(notes_url(hub), headers=hub.headers, timeout=5,
                            json={"text": "Zakupy na sobotę\nmleko, pączki 🍩", "visibility": "shared"})
    assert created.status_code == 201, created.text
    note = created.json()
    assert created.headers["Location"] == f"/api/v1/notes/{note['id']}"
    assert note["displayTitle"] == "Zakupy na sobotę" and note["title"] == ""
    assert note["text"] == "Zakupy na sobotę\nmleko, pączki 🍩"

    listed = requests.get(notes_url(hub), headers=hub.headers, timeout=5).json()
    assert [n["id"] for n in listed] == [note["id"]]
    assert "text" not in listed[0] and listed[0]["excerpt"].startswith("Zakupy")

    found = requests.get(notes_url(hub), params={"q": "paczki"}, headers=hub.headers, timeout=5).json()
    assert [n["id"] for n in found] == [note["id"]], "found without the Polish letter"
    assert {"text": "pączki", "matched": True} in found[0]["snippet"]

    trashed = requests.delete(notes_url(hub, f"/{note['id']}"), headers=hub.headers, timeout=5)
    assert trashed.status_code == 200 and trashed.json()["deletedAt"]
    assert requests.get(notes_url(hub), headers=hub.headers, timeout=5).json() == []
    trash = requests.get(notes_url(hub), params={"trash": "1"}, headers=hub.headers, timeout=5).json()
    assert [n["id"] for n in trash] == [note["id"]] and trash[0]["purgeAt"]
    restored = requests.post(notes_url(hub, f"/{note['id']}/restore"), headers=hub.headers, timeout=5)
    assert restored.status_code == 200 and "deletedAt" not in restored.json()


def test_a_private_note_is_invisible_to_everyone_else_even_live(hub):
    senior = hub.pair_device("--new-person", "Babcia Zosia", "--role", "senior", device_name="Tablet")
    senior_headers = {"Authorization": f"Bearer {senior['token']}"}
    with Live(hub.ws_url, token=senior["token"]) as tablet, Live(hub.ws_url, token=hub.token) as laptop:
        tablet.frame(), laptop.frame()  # hello
        diary = requests.post(notes_url(hub), headers=senior_headers, json={"title": "Pamiętnik"}, timeout=5).json()
        assert diary["visibility"] == "private", "notes are private unless shared"
        change = tablet.frame()
        assert (change["entity"], change["entityId"], change["op"]) == ("note", diary["id"], "create")
        assert "text" not in change["payload"]
        laptop.assert_quiet()

    # The admin can neither list, read, find nor change it.
    assert requests.get(notes_url(hub), headers=hub.headers, timeout=5).json() == []
    assert requests.get(notes_url(hub), params={"q": "pamietnik"}, headers=hub.headers, timeout=5).json() == []
    for method in ("GET", "PATCH", "DELETE"):
        response = requests.request(method, notes_url(hub, f"/{diary['id']}"), headers=hub.headers,
                                    json={"pinned": True} if method == "PATCH" else None, timeout=5)
        assert_problem(response, 404, "not-found")
    assert requests.get(notes_url(hub, f"/{diary['id']}"), headers=senior_headers, timeout=5).status_code == 200


def test_bad_note_requests_are_explained(hub):
    assert_problem(requests.post(notes_url(hub), headers=hub.headers, json={"visibility": "everyone"}, timeout=5),
                   422, "invalid")
    assert_problem(requests.post(notes_url(hub), headers=hub.headers, json={"title": " " + "x" * 300}, timeout=5),
                   422, "invalid")
    too_long = requests.post(notes_url(hub), headers=hub.headers, json={"text": "ż" * 700_000}, timeout=10)
    assert too_long.status_code == 413, too_long.text
    assert requests.get(notes_url(hub), headers=hub.headers, timeout=5).json() == []

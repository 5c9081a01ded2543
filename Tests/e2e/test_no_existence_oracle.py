"""What a device may not see is answered exactly as what does not exist,
on every route of the API document that names a thing by id (issue 38 #5
found approve-device answering 403 for a device that exists and 404 for
one that does not). A caregiver who looks after nobody here asks, with
every method the document lists, for the senior's own things — her
device, her private note, her medicine and its schedule, her dose, her
SOS, her screen, the admin's pairing code, another caregiver's alert
app — and for random ids: each pair of answers must be the same status."""

from __future__ import annotations

import uuid

import requests
import yaml

from test_care_ui import every_day


# Everyone in the household sees who is in it: changing a person one may
# not change is 403 ("you see her, you may not"), as the document says.
SEEN_BY_EVERYONE = {"/api/v1/people/{id}", "/api/v1/people/{id}/archive", "/api/v1/people/{id}/restore"}


def test_a_thing_one_may_not_see_is_answered_as_a_thing_that_does_not_exist(hub):
    senior = hub.pair_device("--new-person", "Babcia", "--role", "senior", device_name="Tablet", wait=False)
    ania = hub.pair_device("--new-person", "Ania", "--role", "caregiver", device_name="Telefon Ani", wait=False)
    stranger = hub.pair_device("--new-person", "Obcy", "--role", "caregiver", device_name="Obcy", wait=False)
    assert hub.hearth("people", "link", "--caregiver", "Ania", "--senior", "Babcia").returncode == 0
    as_senior = {"Authorization": f"Bearer {senior['token']}"}
    as_ania = {"Authorization": f"Bearer {ania['token']}"}
    as_stranger = {"Authorization": f"Bearer {stranger['token']}"}
    senior_id = senior["person"]["id"]

    medication = requests.post(f"{hub.url}/api/v1/medications", headers=as_ania, timeout=5,
                               json={"personId": senior_id, "name": "Bisoprolol", "schedules": [every_day("08:00")]}).json()
    schedule_id = medication["schedules"][0]["id"]
    dose_key = requests.get(f"{hub.url}/api/v1/today", headers=as_ania, timeout=5).json()["people"][0]["doses"][0]["key"]
    taken = requests.post(f"{hub.url}/api/v1/doses", headers=as_ania, timeout=5, json={"key": dose_key, "status": "taken"})
    assert taken.status_code == 201, taken.text
    note = requests.post(f"{hub.url}/api/v1/notes", headers=as_senior, timeout=5,
                         json={"title": "Moje", "text": "tajne", "visibility": "private"}).json()
    sos = requests.post(f"{hub.url}/api/v1/sos", headers=as_senior, timeout=5, json={}).json()
    app = requests.post(f"{hub.url}/api/v1/alert-apps", headers=as_ania, timeout=5, json={"name": "Ania's phone"}).json()
    invitation = requests.post(f"{hub.url}/api/v1/pairing/invitations", headers=hub.headers, timeout=5,
                               json={"newPerson": {"name": "Gość", "role": "caregiver"}}).json()
    existing = {
        "devices": senior["device"]["id"], "alert-apps": app["id"], "notes": note["id"], "medications": medication["id"],
        "doses": taken.json()["id"], "alerts": sos["id"], "invitations": invitation["id"], "people": senior_id,
    }

    document = yaml.safe_load(requests.get(f"{hub.url}/api/v1/openapi.yaml", timeout=5).text)
    compared = []
    for path, item in document["paths"].items():
        if "{id}" not in path or not path.startswith("/api/v1/"):
            continue
        resource = path.split("/")[3] if path.split("/")[3] != "pairing" else "invitations"
        if path in SEEN_BY_EVERYONE:
            continue
        for method in ("get", "post", "put", "patch", "delete"):
            if method not in item:
                continue
            answers = []
            for thing in (existing[resource], str(uuid.uuid4())):
                url = hub.url + path.replace("{id}", thing).replace("{scheduleId}", schedule_id).replace(
                    "{caregiverId}", stranger["person"]["id"])
                body = None if method in ("get", "delete") else {}
                answers.append(requests.request(method.upper(), url, headers=as_stranger, json=body, timeout=5).status_code)
            compared.append((method.upper(), path, answers))
    assert len(compared) > 25, compared
    differing = [f"{method} {path}: {answers[0]} for hers, {answers[1]} for none" for method, path, answers in compared
                 if answers[0] != answers[1]]
    assert not differing, "\n".join(differing)
    # And the stranger's requests changed nothing of hers.
    assert requests.get(f"{hub.url}/api/v1/notes/{note['id']}", headers=as_senior, timeout=5).json()["text"] == "tajne"
    assert requests.get(f"{hub.url}/api/v1/devices", headers=as_senior, timeout=5).status_code == 200

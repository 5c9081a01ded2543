"""Alerts on phones with no Internet: the hub speaks ntfy's subscribe
protocol, and `ntfy_client.NtfyClient` speaks to it exactly as the ntfy
Android app does. An SOS slid in a real Chromium reaches a caregiver's
phone at top priority within a second; her lock-screen buttons answer it
("I'm on my way" reaches the senior's Today page) and close it (the
notification is cleared); a phone that was away for a missed dose gets it
once when it reconnects with its last id; the alert's history says where
it went and from where it was answered; a revoked credential's streams
end; a caregiver who does not look after the senior gets nothing of hers,
and no phone ever gets a note's words. The hub's voice: with ALSA's `file`
plugin as the speaker, a due dose is spoken, in English and in Polish, and
`sox` hears a non-silent recording of a plausible length."""

from __future__ import annotations

import json
import subprocess
import time
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import requests
import websocket
from selenium.webdriver.common.by import By

from conftest import Hub, assert_problem
from ntfy_client import NtfyClient
from test_care_ui import (CARER, SENIOR, CareHome, banner_texts, browser, drag_thumb, home,  # noqa: F401 (fixtures)
                          senior_window, wait_for)
from test_reminders_live import set_hub_clock

SOS_WITHIN_S = 1.0


def make_alert_app(hub: Hub, token: str, name: str) -> tuple[dict, NtfyClient]:
    """A credential for the phone of the device holding `token`, and the app signed in with it."""
    response = requests.post(f"{hub.url}/api/v1/alert-apps", json={"name": name},
                             headers={"Authorization": f"Bearer {token}"}, timeout=5)
    assert response.status_code == 201, response.text
    app = response.json()
    assert app["server"] == f"http://127.0.0.1:{hub.port}/ntfy", app["server"]
    assert response.headers["Cache-Control"] == "no-store"
    return app, NtfyClient(app["server"], app["username"], app["password"])


def stranger(hub: Hub) -> dict:
    """A caregiver who looks after nobody in this household."""
    return hub.pair_device("--new-person", "Obcy", "--role", "caregiver", device_name="Telefon obcego", wait=False)


def test_an_sos_slid_on_the_tablet_rings_the_caregivers_phone_and_her_buttons_answer_it(browser, home):  # noqa: F811
    app, phone = make_alert_app(home.hub, home.carer["token"], "Telefon Ani")
    # The senior's own phone hears her SOS too, and who answered it.
    _, seniors_phone = make_alert_app(home.hub, home.senior["token"], "Telefon babci")
    assert phone.auth("sos").json() == {"success": True}
    stream = phone.subscribe("sos,doses")
    assert stream.status == 200
    stream.wait_for("the open event", lambda e: e["event"] == "open" and e["topic"] == "sos,doses")
    over_ws = phone.subscribe_ws("alerts")
    assert json.loads(over_ws.recv())["event"] == "open"
    # The app names a server's topics in the order its notifications last came.
    seniors = seniors_phone.subscribe("alerts,sos")
    seniors.wait_for("the open event", lambda e: e["event"] == "open")

    senior = senior_window(browser, home)
    wait_for(browser, "the SOS slider", lambda d: d.find_elements(By.ID, "sos-slider"))
    # The hub's clock is set to its evening (see `home`): how far it is from this machine's.
    # Read between two of this machine's readings, so the offset is known
    # only to within that round trip and the hub's whole milliseconds: a hub
    # that delivers in under a millisecond (the release build) must not
    # seem to deliver before it wrote.
    asked = time.time()
    hub_ahead = home.local_now().timestamp() - time.time()
    uncertain_by = (time.time() - asked) + 0.002
    before_slide = time.time()
    drag_thumb(browser, 1.0)
    arrived, sos = stream.wait_for("the SOS", lambda e: e["event"] == "message")
    # From the hub's writing the slide's SOS (on this machine's clock) to the phone's line.
    [raised] = home.alerts(kind="sos")
    written = datetime.fromisoformat(raised["raisedAt"].replace("Z", "+00:00")).timestamp() - hub_ahead
    assert before_slide - 0.5 < written < arrived + uncertain_by, (before_slide, written, arrived, uncertain_by)
    assert arrived - written < SOS_WITHIN_S, f"the SOS reached the phone {arrived - written:.3f} s after the hub wrote it"
    assert sos["priority"] == 5 and sos["topic"] == "sos" and sos["title"] == "SOS"
    assert sos["message"].startswith(f"{SENIOR} needs help!")
    assert sos["click"] == f"http://127.0.0.1:{home.hub.port}/#/alerts"
    ws_sos = json.loads(over_ws.recv())
    assert ws_sos["sequence_id"] == sos["sequence_id"] and ws_sos["priority"] == 5
    _, seniors_sos = seniors.wait_for("the SOS on the senior's phone", lambda e: e["event"] == "message")
    assert seniors_sos["topic"] == "sos" and seniors_sos["sequence_id"] == sos["sequence_id"]
    actions = {a["id"]: a for a in sos["actions"]}
    assert set(actions) == {"respond", "acknowledge"}
    assert all(a["clear"] is True for a in actions.values()), actions
    assert "Authorization" not in str(actions) and app["password"] not in str(actions)

    # "I'm on my way" from the lock screen: the senior's tablet says who is coming,
    # the other phones' notification is replaced with it, without an alarm, and
    # the phone that answered takes its own away.
    assert phone.press(actions["respond"]).status_code == 200
    browser.switch_to.window(senior)
    wait_for(browser, "who is coming, on the senior's tablet", lambda d: f"Help is on the way: {CARER}" in " ".join(banner_texts(d, "sos")), 3)
    _, answered = seniors.wait_for("the replaced notification",
                                   lambda e: e["event"] == "message" and e["id"] != seniors_sos["id"])
    assert answered["sequence_id"] == sos["sequence_id"] and answered["priority"] == 3 and answered["topic"] == "sos"
    assert answered["message"].endswith(f"{CARER} is on the way.")
    _, taken_away = stream.wait_for("her own notification taken away", lambda e: e["event"] == "message_clear")
    assert taken_away["sequence_id"] == sos["sequence_id"] and taken_away["topic"] == "sos"
    assert [e for _, e in stream.events if e["event"] == "message"] == [sos], "the phone that answered was rung again"

    # Acknowledge: the alert closes everywhere and every phone takes the notification away.
    assert phone.press(actions["acknowledge"]).status_code == 200
    _, cleared = seniors.wait_for("the cleared notification", lambda e: e["event"] == "message_clear")
    assert cleared["sequence_id"] == sos["sequence_id"] and cleared["topic"] == "sos"
    wait_for(browser, "the banner gone on the tablet", lambda d: banner_texts(d) == [], 3)
    assert not home.alerts(kind="sos", open="1")
    # The alert's history says where it went and from where it was answered.
    def history() -> dict:
        return requests.get(f"{home.hub.url}/api/v1/alerts/{sos['sequence_id']}/deliveries", headers=home.carer_headers,
                            timeout=5).json()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not {"alert-app", "page"} <= {d["channel"] for d in history()["deliveries"]}:
        time.sleep(0.2)
    went = history()
    assert {(d["channel"], d["recipient"]) for d in went["deliveries"]} >= {("alert-app", "Telefon Ani"), ("page", "Tablet babci")}, went
    assert went["acknowledgedFrom"] == "Telefon Ani" and went["respondedFrom"] == "Telefon Ani", went
    # Health names each channel and when it last delivered.
    channels = requests.get(f"{home.hub.url}/api/v1/health", headers=home.hub.headers, timeout=5).json()["alerts"]
    assert channels["alertApps"].get("lastDelivery") and channels["pages"].get("lastDelivery"), channels
    assert channels["voice"]["enabled"] is False, channels
    # A button is for its one alert: bent to another, it does nothing.
    second = requests.post(f"{home.hub.url}/api/v1/sos", headers=home.senior_headers, timeout=5).json()
    bent = dict(actions["acknowledge"], url=actions["acknowledge"]["url"].replace(sos["sequence_id"], second["id"]))
    assert_problem(phone.press(bent), 404, "not-found")
    stream.close()
    seniors.close()
    over_ws.close()


def test_a_phone_that_was_away_gets_the_missed_dose_once_when_it_reconnects(home):  # noqa: F811
    hub = home.hub
    _, phone = make_alert_app(hub, home.carer["token"], "Telefon Ani")
    grace = requests.put(f"{hub.url}/api/v1/household/reminders", headers=hub.headers, timeout=5,
                         json={"graceMinutes": 1, "repeatMinutes": 10})
    assert grace.status_code == 200, grace.text
    zone = ZoneInfo(requests.get(f"{hub.url}/api/v1/household", headers=hub.headers, timeout=5).json()["timeZone"])
    due = (datetime.now(zone) + timedelta(days=1)).replace(second=0, microsecond=0)
    home.add_medication("Metformina", [{"kind": "weekly", "times": [due.strftime("%H:%M")], "amount": 1,
                                        "startDate": due.date().isoformat()}])

    stream = phone.subscribe("doses")
    stream.wait_for("the open event", lambda e: e["event"] == "open")
    set_hub_clock(hub, hub.token, due)
    _, reminded = stream.wait_for("the due dose", lambda e: e["event"] == "message" and e["priority"] == 3)
    assert reminded["click"] == f"{hub.url}/#/today", reminded["click"]
    # The app reconnects with the id of the last message it has.
    last_id = reminded["id"]
    stream.close()  # the phone goes out of range

    set_hub_clock(hub, hub.token, due + timedelta(minutes=2))
    back = phone.subscribe("doses", since=last_id)
    _, missed = back.wait_for("the missed dose", lambda e: e["event"] == "message" and e["priority"] == 4)
    assert missed["message"] == f"{SENIOR} has not taken Metformina (1 tablet, {due.strftime('%H:%M')})"
    time.sleep(1)
    assert [m["id"] for m in back.messages() if m["priority"] == 4] == [missed["id"]], "the missed dose came more than once"
    back.close()
    # Polling from the last message it has gets nothing again.
    newest = back.messages()[-1]["id"]
    assert phone.poll("doses", since=newest) == []
    assert [m["sequence_id"] for m in phone.poll("doses", since=last_id) if m["event"] == "message" and m["priority"] == 4] \
        == [missed["sequence_id"]]


def test_a_revoked_credential_is_refused_and_its_streams_end_at_once(home):  # noqa: F811
    hub = home.hub
    app, phone = make_alert_app(hub, home.carer["token"], "Stary telefon")
    stream = phone.subscribe("alerts")
    stream.wait_for("the open event", lambda e: e["event"] == "open")
    over_ws = phone.subscribe_ws("sos")
    over_ws.recv()
    listed = requests.get(f"{hub.url}/api/v1/alert-apps", headers=home.carer_headers, timeout=5).json()
    assert [a["username"] for a in listed] == [app["username"]] and "password" not in listed[0]

    revoked = requests.delete(f"{hub.url}/api/v1/alert-apps/{app['id']}", headers=home.carer_headers, timeout=5)
    assert revoked.status_code == 204
    assert stream.ended.wait(2), "the JSON stream stayed open after the credential was revoked"
    # Dropped, not closed with a close frame: the ntfy app reconnects at once
    # only after a dropped WebSocket, and is then told it is not let in.
    over_ws.settimeout(2)
    with pytest.raises(websocket.WebSocketConnectionClosedException):
        over_ws.recv_data(control_frame=True)
    refused = requests.get(f"{app['server']}/alerts/json", headers=phone.headers, timeout=5)
    assert_problem(refused, 401, "alert-app-unauthorized")
    assert refused.headers["WWW-Authenticate"] == 'Basic realm="Hearth"'


def test_wrong_topics_since_credentials_and_too_many_streams_are_problems(home):  # noqa: F811
    hub = home.hub
    app, phone = make_alert_app(hub, home.carer["token"], "Telefon Ani")
    assert_problem(requests.get(f"{app['server']}/notes/json", headers=phone.headers, timeout=5), 404, "unknown-topic")
    assert_problem(requests.get(f"{app['server']}/sos/json", params={"since": "wczoraj"}, headers=phone.headers, timeout=5),
                   400, "invalid-since")
    wrong = NtfyClient(app["server"], app["username"], "not-the-password")
    assert_problem(wrong.auth("sos"), 401, "alert-app-unauthorized")
    assert_problem(requests.get(f"{app['server']}/sos/json", timeout=5), 401, "alert-app-unauthorized")
    assert_problem(requests.post(f"{hub.url}/api/v1/alert-apps", json={"name": ""}, headers=home.carer_headers, timeout=5),
                   422, "invalid")
    # Eight topic lists at once (the same list again replaces the older connection, as a phone back on the Wi-Fi).
    lists = ["alerts", "sos", "doses", "stock", "sos,doses", "sos,stock", "doses,stock", "sos,doses,stock"]
    streams = [phone.subscribe(topics) for topics in lists]
    assert all(s.status == 200 for s in streams)
    ninth = requests.get(f"{app['server']}/alerts,sos/json", headers=phone.headers, timeout=5)
    assert_problem(ninth, 429, "too-many-streams")
    upgrade = requests.get(f"{app['server']}/alerts,sos/ws", headers=phone.headers, timeout=5)
    assert_problem(upgrade, 429, "too-many-streams")
    again = phone.subscribe("sos")
    again.wait_for("the open event", lambda e: e["event"] == "open")
    assert streams[1].ended.wait(5), "the older sos connection was kept beside the new one"
    for stream in [*streams, again]:
        stream.close()


def test_a_caregiver_who_does_not_look_after_the_senior_gets_nothing_of_hers_and_no_phone_gets_a_note(home):  # noqa: F811
    hub = home.hub
    other = stranger(hub)
    _, strangers_phone = make_alert_app(hub, other["token"], "Telefon obcego")
    _, carers_phone = make_alert_app(hub, home.carer["token"], "Telefon Ani")
    watching = {topic: strangers_phone.subscribe(topic, since="all") for topic in ("alerts", "sos", "doses", "stock")}
    carer = carers_phone.subscribe("alerts", since="all")
    for stream in [*watching.values(), carer]:
        stream.wait_for("the open event", lambda e: e["event"] == "open")

    secret = "tajemnica-babci-7f3a"
    note = requests.post(f"{hub.url}/api/v1/notes", headers=home.senior_headers, timeout=5,
                         json={"title": f"Prywatne {secret}", "text": f"{secret} w szufladzie", "visibility": "private"})
    assert note.status_code == 201, note.text
    requests.post(f"{hub.url}/api/v1/notes", headers=home.senior_headers, timeout=5,
                  json={"title": f"Wspólne {secret}", "text": secret, "visibility": "shared"})
    sos = requests.post(f"{hub.url}/api/v1/sos", headers=home.senior_headers, timeout=5)
    assert sos.status_code == 201, sos.text
    carer.wait_for("the SOS on her own caregiver's phone", lambda e: e["event"] == "message")
    # Every topic has something of hers: a medicine running low, a dose due, then missed.
    zone = ZoneInfo(requests.get(f"{hub.url}/api/v1/household", headers=hub.headers, timeout=5).json()["timeZone"])
    due = (datetime.now(zone) + timedelta(days=1)).replace(second=0, microsecond=0)
    home.add_medication("Metformina", [{"kind": "weekly", "times": [due.strftime("%H:%M")], "amount": 1,
                                        "startDate": due.date().isoformat()}], stock=2, packageSize=30, lowStockDays=7)
    carer.wait_for("low stock on her caregiver's phone", lambda e: e["event"] == "message" and e["priority"] == 2)
    set_hub_clock(hub, hub.token, due)
    carer.wait_for("the due dose on her caregiver's phone", lambda e: e["event"] == "message" and e["priority"] == 3)
    requests.put(f"{hub.url}/api/v1/household/reminders", headers=hub.headers, timeout=5,
                 json={"graceMinutes": 1, "repeatMinutes": 10}).raise_for_status()
    set_hub_clock(hub, hub.token, due + timedelta(minutes=2))
    carer.wait_for("the missed dose on her caregiver's phone", lambda e: e["event"] == "message" and e["priority"] == 4)
    time.sleep(1)
    for topic, stream in watching.items():
        assert [e for _, e in stream.events if e["event"] not in ("open", "keepalive")] == [], topic
        assert SENIOR not in str(stream.events) and "Metformina" not in str(stream.events)
    # Nor does asking for the whole day afterwards, on any topic.
    for topic in watching:
        assert strangers_phone.poll(topic, since="all") == [], topic
    # Notes never travel to phones, whoever may read them.
    assert all(secret not in str(s.events) for s in [*watching.values(), carer])
    for stream in [*watching.values(), carer]:
        stream.close()


# --------------------------------------------------------------------------
# The hub's voice
# --------------------------------------------------------------------------


def sound_file_home(tmp_path: Path) -> tuple[Path, Path]:
    """A HOME whose ALSA default device is the `file` plugin: what the hub
    plays is written to a WAV file instead of a sound card."""
    home_dir = tmp_path / "speaker-home"
    home_dir.mkdir()
    recording = tmp_path / "spoken.wav"
    (home_dir / ".asoundrc").write_text(
        'pcm.!default {\n  type file\n  slave.pcm "null"\n'
        f'  file "{recording}"\n  format "wav"\n}}\n')
    return home_dir, recording


def recording_stats(recording: Path) -> dict[str, float]:
    """sox's measurements of a recording: its length and loudness."""
    result = subprocess.run(["sox", str(recording), "-n", "stat"], capture_output=True, text=True, timeout=30)
    stats = {}
    for line in result.stderr.splitlines():
        name, _, value = line.partition(":")
        try:
            stats[name.strip()] = float(value.strip())
        except ValueError:
            pass
    return stats


def last_spoken(hub: Hub) -> str | None:
    health = requests.get(f"{hub.url}/api/v1/health", headers=hub.headers, timeout=5).json()
    return health["alerts"]["voice"].get("lastDelivery")


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_due_dose_is_spoken_through_the_speaker_in_the_households_language(hub_launcher, data_dir, tmp_path, language):
    home_dir, recording = sound_file_home(tmp_path)
    hub = hub_launcher.start(data_dir=data_dir, env={"HEARTH_SPEECH_ENABLED": "true", "HOME": str(home_dir)}).pair_admin()
    senior = hub.pair_device("--new-person", SENIOR, "--role", "senior", device_name="Tablet")
    carer = hub.pair_device("--new-person", CARER, "--role", "caregiver", device_name="Telefon")
    assert hub.hearth("people", "link", "--caregiver", CARER, "--senior", SENIOR).returncode == 0
    assert requests.patch(f"{hub.url}/api/v1/household", json={"language": language}, headers=hub.headers,
                          timeout=5).json()["language"] == language
    health = requests.get(f"{hub.url}/api/v1/health", headers=hub.headers, timeout=5).json()
    assert health["alerts"]["voice"]["enabled"] and health["alerts"]["voice"].get("problem") is None, health
    zone = ZoneInfo(requests.get(f"{hub.url}/api/v1/household", headers=hub.headers, timeout=5).json()["timeZone"])
    due = (datetime.now(zone) + timedelta(days=1)).replace(second=0, microsecond=0)
    created = requests.post(f"{hub.url}/api/v1/medications", headers={"Authorization": f"Bearer {carer['token']}"}, timeout=5,
                            json={"personId": senior["person"]["id"], "name": "Metformina",
                                  "schedules": [{"kind": "weekly", "times": [due.strftime("%H:%M")], "amount": 1,
                                                 "startDate": due.date().isoformat()}]})
    assert created.status_code == 201, created.text

    set_hub_clock(hub, hub.token, due - timedelta(seconds=1))
    deadline = time.monotonic() + 20
    while last_spoken(hub) is None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert last_spoken(hub), f"nothing was spoken; health: {requests.get(f'{hub.url}/api/v1/health', headers=hub.headers).json()}"
    stats = recording_stats(recording)
    # "Babcia Zosia, it is time for Metformina, one tablet." is about three seconds of speech.
    assert 1.5 <= stats.get("Length (seconds)", 0) <= 15, stats
    assert stats.get("Maximum amplitude", 0) > 0.1 and stats.get("RMS     amplitude", 0) > 0.01, stats
    # The words themselves are checked in Swift (AlertWordsTests); here, that the speaker said something.
    [alert] = requests.get(f"{hub.url}/api/v1/alerts", params={"kind": "dose-due"},
                           headers={"Authorization": f"Bearer {carer['token']}"}, timeout=5).json()
    assert alert["details"]["medicationName"] == "Metformina"


def test_a_caregiver_unlinked_at_the_terminal_stops_getting_the_seniors_alerts_at_once(home):  # noqa: F811
    hub = home.hub
    _, phone = make_alert_app(hub, home.carer["token"], "Telefon Ani")
    stream = phone.subscribe("alerts")
    stream.wait_for("the open event", lambda e: e["event"] == "open")
    again = hub.hearth("people", "link", "--caregiver", CARER, "--senior", SENIOR)
    assert again.returncode == 1 and again.stderr.strip().count("\n") == 0 and "already looks after" in again.stderr, again

    unlinked = hub.hearth("people", "unlink", "--caregiver", CARER, "--senior", SENIOR)
    assert unlinked.returncode == 0 and unlinked.stdout.startswith("Unlinked:"), unlinked
    # The phone stays connected (the ntfy app is slow to come back to a
    # closed WebSocket); from the unlink on, the stream is hers as she is now.
    assert requests.post(f"{hub.url}/api/v1/sos", headers=home.senior_headers, timeout=5).status_code == 201
    time.sleep(2)
    assert stream.messages() == [], "an unlinked caregiver's phone still rang"
    assert not stream.ended.is_set()
    assert requests.get(f"{hub.url}/api/v1/alerts", params={"personId": home.senior_id}, headers=home.carer_headers,
                        timeout=5).status_code == 404
    # Linked again, the same connection rings for her next SOS.
    assert hub.hearth("people", "link", "--caregiver", CARER, "--senior", SENIOR).returncode == 0
    time.sleep(2)
    assert requests.post(f"{hub.url}/api/v1/sos", headers=home.senior_headers, timeout=5).status_code == 201
    stream.wait_for("her SOS once linked again", lambda e: e["event"] == "message" and e["priority"] == 5)
    stream.close()


def test_the_hub_reads_to_the_senior_at_her_own_speaking_rate(hub_launcher, data_dir, tmp_path):
    home_dir, recording = sound_file_home(tmp_path)
    hub = hub_launcher.start(data_dir=data_dir, env={"HEARTH_SPEECH_ENABLED": "true", "HOME": str(home_dir)}).pair_admin()
    senior = hub.pair_device("--new-person", SENIOR, "--role", "senior", device_name="Tablet")
    seniors = {"Authorization": f"Bearer {senior['token']}"}

    def spoken_at(rate: str) -> float:
        chosen = requests.put(f"{hub.url}/api/v1/people/{senior['person']['id']}/display", headers=hub.headers, timeout=5,
                              json={"textSize": "large", "theme": "system", "language": "en", "speechRate": rate})
        assert chosen.status_code == 200, chosen.text
        tested = requests.post(f"{hub.url}/api/v1/alert-apps/test", headers=seniors, timeout=20).json()
        assert "speaker" in [d["recipient"] for d in tested["delivered"]], tested
        return recording_stats(recording)["Length (seconds)"]

    slower, fast = spoken_at("slower"), spoken_at("fast")
    # 0.6 and 1.25 of espeak-ng's own speed, as her tablet's voice: about twice as long.
    assert slower > 1.6 * fast, (slower, fast)

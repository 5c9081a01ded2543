"""Reminders on the built hub: a due dose reaches the senior's live socket on
time, an unanswered one reaches the caregiver's after its grace, and a
`kill -9` between the two still escalates it exactly once.

Waiting for real minutes would make this slow, so the test moves the hub's
clock the way an admin would ("use this phone's time", POST
/api/v1/clock/correct): the hub schedules by its corrected time, and the
correction outlives a restart."""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import requests

from conftest import Hub, Live


def iso(instant: datetime) -> str:
    return instant.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def set_hub_clock(hub: Hub, token: str, to: datetime, confirm: bool = False) -> float:
    """Sets the hub's time as its admin (a caregiver may only once after the
    hub starts); returns the offset (hub minus this machine) in seconds. A
    jump of more than a day must be confirmed, as the page asks a person to."""
    sent = time.time()
    response = requests.post(f"{hub.url}/api/v1/clock/correct", json={"deviceTime": iso(to), **({"confirm": True} if confirm else {})},
                             headers={"Authorization": f"Bearer {token}"}, timeout=5)
    assert response.status_code == 200, response.text
    return to.timestamp() - sent


def next_alert(socket: Live, kind: str, timeout: float = 10) -> tuple[dict, float]:
    """The next alert of `kind` created on this socket, and when it arrived (this machine's time)."""
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no {kind} alert within {timeout} s"
        frame = socket.frame(timeout=remaining)
        if frame.get("entity") == "alert" and frame.get("op") == "create" and frame["payload"]["kind"] == kind:
            return frame["payload"], time.time()


def test_due_and_missed_alerts_arrive_on_time_and_a_kill_between_them_escalates_once(hub_launcher, data_dir):
    hub = hub_launcher.start(data_dir=data_dir).pair_admin()
    senior = hub.pair_device("--new-person", "Babcia", "--role", "senior", device_name="Tablet")
    carer = hub.pair_device("--new-person", "Ola", "--role", "caregiver", device_name="Phone")
    assert hub.hearth("people", "link", "--caregiver", "Ola", "--senior", "Babcia").returncode == 0
    # A minute of grace (the shortest a household can set).
    grace = requests.put(f"{hub.url}/api/v1/household/reminders", headers=hub.headers, timeout=5,
                         json={"graceMinutes": 1, "repeatMinutes": 10})
    assert grace.status_code == 200, grace.text
    zone = ZoneInfo(requests.get(f"{hub.url}/api/v1/household", headers=hub.headers, timeout=5).json()["timeZone"])

    # Two doses tomorrow, five minutes apart.
    first = (datetime.now(zone) + timedelta(days=1)).replace(second=0, microsecond=0)
    second = first + timedelta(minutes=5)
    created = requests.post(f"{hub.url}/api/v1/medications", headers={"Authorization": f"Bearer {carer['token']}"}, timeout=5, json={
        "personId": senior["person"]["id"], "name": "Metformina", "strength": "500 mg",
        "schedules": [{"kind": "weekly", "times": [first.strftime("%H:%M"), second.strftime("%H:%M")], "amount": 1,
                       # From tomorrow: the clock jumps there, and today's doses would fall due on the way.
                       "startDate": first.date().isoformat()}],
    })
    assert created.status_code == 201, created.text

    with Live(hub.ws_url, token=senior["token"]) as senior_socket, Live(hub.ws_url, token=carer["token"]) as carer_socket:
        # The first dose is due two seconds from now, by the hub's clock.
        offset = set_hub_clock(hub, hub.token, first - timedelta(seconds=2))
        due, arrived = next_alert(senior_socket, "dose-due")
        assert due["details"]["medicationName"] == "Metformina"
        assert abs(parse(due["raisedAt"]).timestamp() - first.timestamp()) <= 1
        assert abs(arrived + offset - first.timestamp()) <= 1, "the senior heard of the dose more than a second off its time"

        # Nobody answers: two seconds before its grace ends, then escalated to the caregiver.
        offset = set_hub_clock(hub, hub.token, first + timedelta(seconds=58))
        missed, arrived = next_alert(carer_socket, "dose-missed")
        assert missed["doseId"] == due["doseId"]
        assert abs(arrived + offset - (first.timestamp() + 60)) <= 1

        # The second dose falls due; the hub is killed before its grace ends.
        set_hub_clock(hub, hub.token, second - timedelta(seconds=2))
        second_due, _ = next_alert(senior_socket, "dose-due")
    hub.kill()

    again = hub_launcher.start(data_dir=data_dir, name=None)
    with Live(again.ws_url, token=carer["token"]) as carer_socket:
        # The corrected clock survived the restart: still inside the grace.
        health_time = parse(requests.post(f"{again.url}/api/v1/clock", json={"deviceTime": iso(second)},
                                          headers={"Authorization": f"Bearer {carer['token']}"}, timeout=5).json()["hubTime"])
        assert second < health_time < second + timedelta(seconds=60)
        set_hub_clock(again, hub.token, second + timedelta(seconds=58))
        missed_again, _ = next_alert(carer_socket, "dose-missed")
        assert missed_again["doseId"] == second_due["doseId"]
        time.sleep(3)  # more passes, to catch a duplicate

    alerts = requests.get(f"{again.url}/api/v1/alerts", params={"kind": "dose-missed"},
                          headers={"Authorization": f"Bearer {carer['token']}"}, timeout=5).json()
    assert sorted(a["doseId"] for a in alerts) == sorted([due["doseId"], second_due["doseId"]]), "each dose escalated exactly once"
    dues = requests.get(f"{again.url}/api/v1/alerts", params={"kind": "dose-due"},
                        headers={"Authorization": f"Bearer {carer['token']}"}, timeout=5).json()
    assert len(dues) == 2

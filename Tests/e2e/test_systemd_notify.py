"""`hearth serve` under systemd's notify protocol (Type=notify), with a
datagram socket standing in for systemd: READY=1 once the port answers,
WATCHDOG=1 at half of WatchdogSec, STOPPING=1 on SIGTERM."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest
import requests

WATCHDOG_USEC = 400_000  # pings every 0.2 s


@pytest.fixture
def notify_socket(tmp_path: Path):
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        # Abstract, as systemd's own notify socket is.
        name = f"hearth-e2e-notify-{os.getpid()}-{time.monotonic_ns()}"
        listener.bind("\0" + name)
        listener.settimeout(10)
        yield listener, "@" + name


def receive(listener: socket.socket) -> str:
    return listener.recv(4096).decode()


def test_ready_watchdog_and_stopping_reach_systemd(hub_launcher, notify_socket):
    listener, name = notify_socket
    hub = hub_launcher.start(env={"NOTIFY_SOCKET": name, "WATCHDOG_USEC": str(WATCHDOG_USEC)}, wait=False)

    messages = [receive(listener)]
    while not any(m.startswith("READY=1") for m in messages):
        messages.append(receive(listener))
    # READY=1 means the port answers now, not soon.
    assert requests.get(f"{hub.url}/api/v1/health", timeout=2).status_code == 200
    ready = next(m for m in messages if m.startswith("READY=1"))
    assert f"STATUS=Serving on port {hub.port}" in ready.splitlines()

    started = time.monotonic()
    pings = 0
    while pings < 3:
        if receive(listener) == "WATCHDOG=1":
            pings += 1
    assert time.monotonic() - started < 2, "three pings at 0.2 s intervals"

    code, _ = hub.stop()
    assert code == 0
    rest = []
    listener.settimeout(2)
    try:
        while True:
            rest.append(receive(listener))
    except TimeoutError:
        pass
    assert "STOPPING=1" in rest, rest


def test_no_watchdog_pings_for_another_process(hub_launcher, notify_socket):
    listener, name = notify_socket
    hub_launcher.start(env={"NOTIFY_SOCKET": name, "WATCHDOG_USEC": str(WATCHDOG_USEC),
                            "WATCHDOG_PID": "1"}, wait=True)
    listener.settimeout(1)
    messages = []
    try:
        while True:
            messages.append(receive(listener))
    except TimeoutError:
        pass
    assert any(m.startswith("READY=1") for m in messages)
    assert "WATCHDOG=1" not in messages

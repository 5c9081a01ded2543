#!/usr/bin/env python3
"""SOS to a caregiver away from home: a release hub on a fresh data directory
(a real SQLite file), the real gammu-smsd on gammu's dummy phone, and an
ntfy stand-in on loopback for the Internet push server (the one stand-in:
nothing here reaches the Internet). The caregiver chose texts and push; SOS
after SOS is raised through the API. Prints, as a table, p50/p99/max of:

- SOS → handed to gammu-smsd: from sending `POST /api/v1/sos` to the text
  being in gammu-smsd's outbox (gammu-smsd-inject wrote it; the daemon sends
  it when the modem can), target p99 < 1 s;
- SOS → published: to the push reaching the ntfy server, target p99 < 1 s.

Not a test; run with `make bench-away` (builds the release hub first).
Usage: away-from-home.py HEARTH_BINARY [ROUNDS]"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
from dummy_modem import DummyModem  # noqa: E402
from ntfy_server import NtfyStandIn  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/release/hearth"
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 100


def load_alert_streams():
    """The hub and pairing of Benchmarks/alert-streams.py, one copy for both benchmarks."""
    spec = importlib.util.spec_from_file_location("alert_streams", Path(__file__).with_name("alert-streams.py"))
    module = importlib.util.module_from_spec(spec)
    sys.argv, saved = [sys.argv[0], BINARY], sys.argv
    spec.loader.exec_module(module)
    sys.argv = saved
    return module


class Outbox:
    """Notes when each text first shows in gammu-smsd's outbox or sent folder (polled every millisecond)."""

    def __init__(self, modem: DummyModem):
        self.folders = [modem.root / "outbox", modem.root / "sent", modem.root / "error"]
        self.seen: dict[str, float] = {}
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while self.running:
            now = time.monotonic()
            for folder in self.folders:
                for name in os.listdir(folder):
                    # The daemon moves what it sent to sent/ under the same name.
                    self.seen.setdefault(name, now)
            time.sleep(0.001)

    def count(self) -> int:
        return len(self.seen)

    def stop(self):
        self.running = False
        self.thread.join()


def percentiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return statistics.median(ordered), p99, ordered[-1]


def main():
    streams = load_alert_streams()
    work = Path(tempfile.mkdtemp(prefix="hearth-away-bench-"))
    modem = DummyModem(work / "modem")
    ntfy = NtfyStandIn()
    hub = streams.Hub({"HEARTH_SMS_ENABLED": "true", "HEARTH_SMS_SMSD_CONFIG": str(modem.config),
                       "HEARTH_SMS_MONTHLY_LIMIT": "10000", "HEARTH_PUSH_ENABLED": "true", "HEARTH_PUSH_SERVER": ntfy.url})
    outbox = Outbox(modem)
    try:
        me = next(p for p in hub.api("GET", "/api/v1/people") if p["name"] == "Ola")
        hub.api("PATCH", f"/api/v1/people/{me['id']}", {"phone": "+48 600 100 200"})
        hub.api("PUT", f"/api/v1/people/{me['id']}/away", {"sms": True, "push": True})
        texts, pushes = [], []
        for _ in range(ROUNDS):
            before_texts, before_pushes = outbox.count(), len(ntfy.messages())
            started, wall = time.monotonic(), time.time()
            alert = hub.api("POST", "/api/v1/sos", {"personId": hub.senior})
            deadline = started + 10
            while (outbox.count() == before_texts or len(ntfy.messages()) == before_pushes) and time.monotonic() < deadline:
                time.sleep(0.001)
            if outbox.count() == before_texts or len(ntfy.messages()) == before_pushes:
                raise SystemExit(f"no text or push within 10 s (texts {outbox.count()} was {before_texts}, pushes {len(ntfy.messages())} was {before_pushes}); gammu-smsd log:\n{modem.log()[-1500:]}")
            texts.append(max(outbox.seen.values()) - started)
            with ntfy.lock:
                pushes.append(ntfy.published[-1]["at"] - wall)
            hub.api("POST", f"/api/v1/alerts/{alert['id']}/ack")
        print(f"SOS to a caregiver away from home: {ROUNDS} rounds, hub {BINARY}, real gammu-smsd (dummy phone), ntfy on loopback")
        print(f"{'':32} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  target")
        for label, values in [("SOS → handed to gammu-smsd", texts), ("SOS → published to ntfy", pushes)]:
            p50, p99, worst = percentiles(values)
            print(f"{label:32} {p50 * 1000:8.1f} {p99 * 1000:8.1f} {worst * 1000:8.1f}  p99 < 1000 ms {'met' if p99 < 1 else 'MISSED'}")
    finally:
        outbox.stop()
        hub.stop()
        modem.stop()
        ntfy.stop()


if __name__ == "__main__":
    main()

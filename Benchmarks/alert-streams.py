#!/usr/bin/env python3
"""SOS to alert-app streams: a release hub on a fresh data directory (a real
SQLite file, synchronous=FULL), N ntfy-protocol subscribers on loopback
(`GET /ntfy/sos/json`, Basic auth, one credential each), and SOS after SOS
raised through the API. Prints, as a table:

- the time from sending `POST /api/v1/sos` to the line reaching the LAST of
  the N subscribers, p50 and p99 over the rounds (target p99 < 50 ms);
- the same with a few subscribers that stop reading (tiny receive buffers,
  never read): they must not raise the others' p99;
- the hub's resident memory per open stream, from its VmRSS before and after
  opening many streams (target < 64 KB).

Not a test; run with `make bench-alerts` (builds the release hub first).
Each line is printed as soon as its phase has it; every wait has a
deadline and says what it waited for when it gives up.
Usage: alert-streams.py HEARTH_BINARY [SUBSCRIBERS] [ROUNDS] [MEMORY_STREAMS]"""

from __future__ import annotations

import base64
import json
import os
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/release/hearth"
SUBSCRIBERS = int(sys.argv[2]) if len(sys.argv) > 2 else 50
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 200
STALLED = int(os.environ.get("BENCH_STALLED", "5"))
# How long a stalled phone waits to be dropped (`make bench-smoke` waits less).
STALL_WAIT = float(os.environ.get("BENCH_STALL_WAIT", "10"))
MEMORY_STREAMS = int(sys.argv[4]) if len(sys.argv) > 4 else 400


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))


class Hub:
    def __init__(self, extra_env: dict[str, str] | None = None):
        self.data = tempfile.mkdtemp(prefix="hearth-alert-bench-")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTH_")}
        env.update(HEARTH_DISCOVERY_ENABLED="false", HEARTH_LOG_LEVEL="warning", **(extra_env or {}))
        self.process = subprocess.Popen([BINARY, "serve", "--data", self.data, "--port", str(self.port), "--host", "127.0.0.1"],
                                        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{self.base}/api/v1/health", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        self.token = self.pair("Ola", "caregiver")
        subprocess.run([BINARY, "people", "add", "Babcia", "--role", "senior", "--data", self.data], check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run([BINARY, "people", "link", "--caregiver", "Ola", "--senior", "Babcia", "--data", self.data], check=True,
                       stdout=subprocess.DEVNULL)
        self.senior = next(p["id"] for p in self.api("GET", "/api/v1/people") if p["name"] == "Babcia")

    def pair(self, name: str, role: str) -> str:
        out = tempfile.NamedTemporaryFile("w+", delete=False)
        pairing = subprocess.Popen([BINARY, "pair", "--data", self.data, "--new-person", name, "--role", role,
                                    "--url-host", "127.0.0.1", "--ascii"], stdout=out, stderr=subprocess.STDOUT)
        secret = None
        for _ in range(100):
            match = re.search(r"pair#([A-Za-z0-9_-]+)", open(out.name).read())
            if match:
                secret = match.group(1)
                break
            time.sleep(0.1)
        request = urllib.request.Request(f"{self.base}/api/v1/pairing", method="POST",
                                         data=json.dumps({"code": secret, "deviceName": "bench"}).encode(),
                                         headers={"Content-Type": "application/json"})
        token = json.load(urllib.request.urlopen(request, timeout=5))["token"]
        pairing.wait(timeout=10)
        return token

    def api(self, method: str, path: str, body: dict | None = None):
        request = urllib.request.Request(f"{self.base}{path}", method=method,
                                         data=json.dumps(body).encode() if body is not None else None,
                                         headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read()
            return json.loads(text) if text else None

    def credential(self, name: str) -> str:
        app = self.api("POST", "/api/v1/alert-apps", {"name": name})
        return base64.b64encode(f"{app['username']}:{app['password']}".encode()).decode()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def open_stream(hub: Hub, auth: str, source: str = "127.0.0.1", receive_buffer: int | None = None) -> socket.socket:
    connection = socket.socket()
    if receive_buffer:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    connection.bind((source, 0))
    connection.connect(("127.0.0.1", hub.port))
    connection.sendall(f"GET /ntfy/sos/json HTTP/1.1\r\nHost: 127.0.0.1:{hub.port}\r\nAuthorization: Basic {auth}\r\n\r\n".encode())
    return connection


class Listeners:
    """Reads every subscriber's socket in one thread; notes when each saw each SOS."""

    def __init__(self, sockets: list[socket.socket]):
        self.selector = selectors.DefaultSelector()
        self.buffers: dict[int, bytes] = {}
        self.arrivals: dict[str, list[float]] = {}
        self.opened = 0
        self.lock = threading.Lock()
        for connection in sockets:
            connection.setblocking(False)
            self.selector.register(connection, selectors.EVENT_READ)
            self.buffers[connection.fileno()] = b""
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while self.running:
            for key, _ in self.selector.select(timeout=0.05):
                connection = key.fileobj
                try:
                    data = connection.recv(65536)
                except BlockingIOError:
                    continue
                now = time.perf_counter()
                if not data:
                    self.selector.unregister(connection)
                    continue
                buffer = self.buffers[connection.fileno()] + data
                *lines, rest = buffer.split(b"\n")
                self.buffers[connection.fileno()] = rest
                for line in lines:
                    line = line.strip()
                    if not line.startswith(b"{"):
                        continue  # chunk sizes and the response head
                    event = json.loads(line)
                    with self.lock:
                        if event["event"] == "open":
                            self.opened += 1
                        elif event["event"] == "message":
                            self.arrivals.setdefault(event["sequence_id"], []).append(now)

    def stop(self):
        self.running = False
        self.thread.join()


def sos_rounds(hub: Hub, listeners: Listeners, count: int, rounds: int) -> list[float]:
    latencies = []
    for _ in range(rounds):
        sent = time.perf_counter()
        alert = hub.api("POST", "/api/v1/sos", {"personId": hub.senior})
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            with listeners.lock:
                seen = listeners.arrivals.get(alert["id"], [])
                if len(seen) >= count:
                    latencies.append((max(seen[:count]) - sent) * 1000)
                    break
            time.sleep(0.0005)
        else:
            raise SystemExit(f"an SOS reached only {len(listeners.arrivals.get(alert['id'], []))} of {count} subscribers in 5 s")
        time.sleep(0.02)
    return latencies


def dropped_by_hub(connection: socket.socket, seconds: float) -> bool:
    """Reads what the hub had sent a stalled phone; whether the hub then ended the connection."""
    connection.settimeout(seconds)
    try:
        while True:
            if not connection.recv(65536):
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def wait_until(what: str, condition, seconds: float = 30, progress=lambda: "") -> None:
    """Waits for `condition`, or stops the run saying what it waited for."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up after {seconds:.0f} s waiting for {what} {progress()}".rstrip())
        time.sleep(0.01)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def row(name: str, values: list[float]) -> None:
    print(f"{name:<40} {statistics.median(values):8.2f} {percentile(values, 99):8.2f} {max(values):8.2f}  p99 < 50 ms", flush=True)


def main():
    hub = Hub()
    print(f"Alert-app streams (release hub, loopback, {ROUNDS} SOS each, from POST /api/v1/sos to the last subscriber's line)")
    print(f"{'case':<40} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  target", flush=True)
    try:
        # Latency: SUBSCRIBERS phones, each with its own credential.
        sockets = [open_stream(hub, hub.credential(f"phone {i}")) for i in range(SUBSCRIBERS)]
        listeners = Listeners(sockets)
        wait_until(f"{SUBSCRIBERS} streams to open", lambda: listeners.opened >= SUBSCRIBERS,
                   progress=lambda: f"({listeners.opened} opened)")
        sos_rounds(hub, listeners, SUBSCRIBERS, 10)  # warm-up
        row(f"SOS to {SUBSCRIBERS} streams", sos_rounds(hub, listeners, SUBSCRIBERS, ROUNDS))

        # The same with phones that stop reading: a 4 KB receive buffer, never
        # read. Four times as many SOS, so that what the sockets hold and the
        # hub's outbox of each (256 events) overflow and the hub drops them.
        stalled = [open_stream(hub, hub.credential(f"stalled {i}"), receive_buffer=4096) for i in range(STALLED)]
        row(f"... and {STALLED} that stopped reading", sos_rounds(hub, listeners, SUBSCRIBERS, 4 * ROUNDS))
        closed = sum(1 for connection in stalled if dropped_by_hub(connection, seconds=STALL_WAIT))
        print(f"stalled subscribers dropped by the hub after {4 * ROUNDS} SOS: {closed} of {STALLED}", flush=True)
        listeners.stop()
        for connection in sockets + stalled:
            connection.close()
        time.sleep(0.5)

        # Memory per open stream: many streams from many loopback addresses
        # (64 each at most), one credential each: the hub keeps one stream
        # per credential and topics, a newer one ending the older, so eight
        # streams of one credential left one open and the wait never ended.
        before = rss_kb(hub.process.pid)
        credentials = [hub.credential(f"memory {i}") for i in range(MEMORY_STREAMS)]
        many = [open_stream(hub, credentials[i], source=f"127.0.1.{1 + i // 60}") for i in range(MEMORY_STREAMS)]
        counting = Listeners(many)
        wait_until(f"{MEMORY_STREAMS} streams to open", lambda: counting.opened >= MEMORY_STREAMS, seconds=60,
                   progress=lambda: f"({counting.opened} opened)")
        time.sleep(1)
        after = rss_kb(hub.process.pid)
        counting.stop()
        for connection in many:
            connection.close()
        per_stream = (after - before) / MEMORY_STREAMS
        print(f"resident memory: {before} KB idle, {after} KB with {MEMORY_STREAMS} open streams: "
              f"{per_stream:.1f} KB per stream (target < 64 KB)", flush=True)
    finally:
        hub.stop()


if __name__ == "__main__":
    main()

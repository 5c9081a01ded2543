#!/usr/bin/env python3
"""Bytes the hub writes to disk (issue 41): a hub on a fresh data directory
(a real SQLite file, synchronous=FULL), a paired caregiver's device and a
senior with an as-needed medication, as Benchmarks/care-api.sh has them.
The hub's `write_bytes` in /proc/<pid>/io is read before and after each
piece of work, once the hub has stopped writing, and the difference printed:

- the hub idle for BENCH_IDLE seconds (default 20);
- BENCH_KEYS keystrokes (default 1000) typed at 20 a second over
  WS /api/v1/notes/{id}/edit, one inserted character a keystroke, sent and
  acknowledged as the web editor sends and reads them: into a new note, and
  into notes already holding 20 KB and 100 KB of text (goal: 2 KB a
  keystroke or less, whatever the note's length); then the seconds the
  typing took, and the rounds (transactions) the hub stored it in;
- BENCH_DOSES doses (default 100) recorded by POST /api/v1/doses one after
  another (goal: 24 KB a dose or less, counting the copy of their log into
  the database file: each dose row on a hub started afresh and stopped
  after it, as the typing rows);
- the same doses spread over a few seconds (BENCH_LIVE_SECONDS, default 3)
  without and then with a page's live connection (WS /api/v1/live) open,
  the difference being what one connection costs, and the connection
  alone, open as long with nothing to hear;
- a household's day (goal: 10 MB or less), one thing after another as the
  day has them: BENCH_DAY_KEYS keystrokes (default 3000) typed into 4 notes
  in sittings of 150, each sitting a note opened, typed into and closed;
  between sittings, BENCH_DAY_DOSES doses (default 20), BENCH_DAY_PAGES
  page loads (default 200: the page, then Today, the notes and the people
  as a page asks for them, with its live connection opened and closed) and
  BENCH_DAY_ALERTS SOS alerts (default 50), each answered "on my way" and
  acknowledged by the caregiver; on a hub of its own, stopped at the end,
  so that the day counts the copy of its log into the database file.

The log is copied into the file once it holds 1000 pages, and when the hub
stops: the idle and live-page rows leave theirs to the stop, printed after
them.

`write_bytes` counts the page-cache pages the process dirties, 4 KB each
whatever was written into them, and a page again only once it was written
back (a commit's fsync writes the log's back at once); the pages of
SQLite's -shm index dirtied through its mapping count too. A data
directory on tmpfs counts nothing: it must be on a disk (TMPDIR). Not a
test; run with `make bench-writes` (the hub as the .deb ships it). Exits
with one line if the hub does not start or a step fails.
Usage: disk-writes.py HEARTH_BINARY"""

from __future__ import annotations

import base64
import collections
import json
import os
import random
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from contextlib import contextmanager

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/release/hearth"
KEYS = int(os.environ.get("BENCH_KEYS", "1000"))
DOSES = int(os.environ.get("BENCH_DOSES", "100"))
IDLE = float(os.environ.get("BENCH_IDLE", "20"))
LIVE_SECONDS = float(os.environ.get("BENCH_LIVE_SECONDS", "3"))
# How long the hub must write nothing before a reading counts as settled
# (the smoke run's shorter wait lets a checkpoint fall into the next row).
QUIET = float(os.environ.get("BENCH_QUIET", "2"))
DAY_KEYS = int(os.environ.get("BENCH_DAY_KEYS", "3000"))
DAY_DOSES = int(os.environ.get("BENCH_DAY_DOSES", "20"))
DAY_PAGES = int(os.environ.get("BENCH_DAY_PAGES", "200"))
DAY_ALERTS = int(os.environ.get("BENCH_DAY_ALERTS", "50"))
KEYS_PER_SECOND = 20
SITTING_KEYS = 150
KB = 1024


class StepFailed(Exception):
    pass


@contextmanager
def step(what: str):
    """Turns any failure inside into one line naming the step."""
    try:
        yield
    except StepFailed:
        raise
    except Exception as error:  # noqa: BLE001 - the line says what it was
        raise StepFailed(f"{what}: {error}") from error


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def filesystem_of(path: str) -> str:
    """The type of the filesystem holding `path` (the longest mount point above it)."""
    path = os.path.realpath(path)
    best, kind = "", "?"
    with open("/proc/self/mountinfo") as mounts:
        for line in mounts:
            fields = line.split()
            point = fields[4].replace("\\040", " ")
            fstype = fields[fields.index("-") + 1]
            inside = path == point or path.startswith(point.rstrip("/") + "/")
            if inside and len(point) >= len(best):
                best, kind = point, fstype
    return kind


# --------------------------------------------------------------------------
# A WebSocket client (RFC 6455), enough for the two sockets used here: the
# benchmarks run on the system's python3, and websocket-client is only in
# the end-to-end tests' virtualenv.
# --------------------------------------------------------------------------

class Closed(Exception):
    def __init__(self, code: int, reason: str):
        super().__init__(f"the hub closed the socket: {code} {reason}".strip())
        self.code = code


class WebSocket:
    def __init__(self, port: int, path: str, headers: dict[str, str]):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.read_some()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status = head.split(b"\r\n", 1)[0].decode(errors="replace")
        if " 101 " not in status + " ":
            raise OSError(f"{path} was not upgraded: {status}")
        self.closed = False
        self.sending = threading.Lock()  # pongs and the close go out from the listening thread too
        self.listener: threading.Thread | None = None
        self.ended: Exception | None = None  # why the listening thread stopped

    def read_some(self) -> bytes:
        data = self.sock.recv(65536)
        if not data:
            raise OSError("the hub ended the connection")
        return data

    def read_exactly(self, count: int) -> bytes:
        while len(self.buffer) < count:
            self.buffer += self.read_some()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def send(self, payload: bytes, opcode: int = 0x2) -> None:
        # A client masks every frame it sends.
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        with self.sending:
            self.sock.sendall(head + mask + masked)

    def receive(self, timeout: float = 10) -> bytes:
        """The next whole message (text or binary); answers pings; raises Closed on a close frame."""
        self.sock.settimeout(timeout)
        message = b""
        while True:
            first, second = self.read_exactly(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self.read_exactly(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self.read_exactly(8))[0]
            payload = self.read_exactly(length)
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                if not self.closed:
                    self.closed = True
                    self.send(payload[:2], opcode=0x8)
                raise Closed(code, payload[2:].decode(errors="replace"))
            if opcode == 0x9:
                self.send(payload, opcode=0xA)
                continue
            if opcode == 0xA:
                continue
            message += payload
            if first & 0x80:
                return message

    def listen(self, handle) -> None:
        """Reads on a thread of its own from now on, handing each message to
        `handle`, as a page's socket is read while the page sends."""
        def run():
            try:
                while True:
                    handle(self.receive(timeout=120))
            except Exception as error:  # noqa: BLE001 - kept for the sender to report
                self.ended = error
        self.listener = threading.Thread(target=run, daemon=True)
        self.listener.start()

    def close(self) -> None:
        """Sends a close and waits (a little) for the hub's answer, as a browser does."""
        if not self.closed:
            self.closed = True
            try:
                self.send(struct.pack("!H", 1000) + b"bye", opcode=0x8)
                if self.listener is None:
                    while True:
                        self.receive(timeout=2)
            except (Closed, OSError):
                pass
        if self.listener is not None:
            self.listener.join(timeout=5)
        self.sock.close()


# --------------------------------------------------------------------------
# The note-editing frames (Web/notes/protocol.js, Docs/note-crdt.md)
# --------------------------------------------------------------------------

HELLO, OPERATIONS, STATE, SYNCED, ACKNOWLEDGED = 0x01, 0x02, 0x11, 0x12, 0x13


def varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


class Reader:
    def __init__(self, data: bytes):
        self.data, self.at = data, 0

    def byte(self) -> int:
        self.at += 1
        return self.data[self.at - 1]

    def varint(self) -> int:
        value, shift = 0, 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            if b < 0x80:
                return value
            shift += 7


def version_vector(body: bytes) -> dict[int, int]:
    r = Reader(body)
    return {r.varint(): r.varint() for _ in range(r.varint())}


def last_character(state: bytes) -> tuple[int, int] | None:
    """The id of the note's last character (a tombstone or not) in a format 2
    state, where typing at the end takes its origin left; None when empty."""
    r = Reader(state)
    if r.byte() != 2:
        raise ValueError("the state is not format 2")
    replicas = [r.varint() for _ in range(r.varint())]
    for _ in replicas:
        r.varint()  # each replica's next counter
    expected = [0] * len(replicas)
    last = None
    for _ in range(r.varint()):
        header = r.varint()
        flags, index = header & 31, header >> 5
        delta = r.varint()
        counter = expected[index] + (delta // 2 if delta % 2 == 0 else -(delta + 1) // 2)
        length = r.varint()
        expected[index] = counter + length
        if flags & 2 and not flags & 8:
            r.varint(), r.varint()  # origin left written out
        if flags & 4 and not flags & 16:
            r.varint(), r.varint()  # origin right written out
        last = (replicas[index], counter + length - 1)
    return last


def insertion_frame(replica: int, counter: int, left: tuple[int, int] | None, text: str) -> bytes:
    """One operation frame holding one insertion at the end of the note (no origin right)."""
    body = bytearray([1]) + varint(1) + bytes([0]) + varint(replica) + varint(counter)
    body.append(1 if left else 0)
    if left:
        body += varint(left[0]) + varint(left[1])
    data = text.encode()
    body += varint(len(data)) + data
    return bytes([1, OPERATIONS]) + bytes(body)


# --------------------------------------------------------------------------
# The hub
# --------------------------------------------------------------------------

class Hub:
    def __init__(self):
        self.data = tempfile.mkdtemp(prefix="hearth-writes-")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.token = ""  # the caregiver's device
        self.medication = ""  # her senior's as-needed medication
        # Its output goes to a pipe, not a file: a log on the disk would count
        # as the hub's writes. The last lines are kept to say why it stopped.
        self.output = collections.deque(maxlen=20)

    def start(self) -> None:
        fstype = filesystem_of(self.data)
        if fstype in ("tmpfs", "ramfs"):
            raise StepFailed(f"the data directory {self.data} is on {fstype}, where no write reaches a disk "
                             "(set TMPDIR to a directory on a disk)")
        env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTH_")}
        env.update(HEARTH_DISCOVERY_ENABLED="false", HEARTH_LOG_LEVEL="warning")
        try:
            self.process = subprocess.Popen([BINARY, "serve", "--data", self.data, "--port", str(self.port),
                                             "--host", "127.0.0.1"], env=env, stdout=subprocess.PIPE,
                                            stderr=subprocess.STDOUT)
        except OSError as error:
            raise StepFailed(f"the hub could not be started: {error}") from error
        reading = threading.Thread(target=self.keep_output, daemon=True)
        reading.start()
        # Up to 30 s, as care-api.sh waits.
        for _ in range(300):
            if self.process.poll() is not None:
                reading.join(timeout=2)  # its last words
                last = self.output[-1] if self.output else "no output"
                raise StepFailed(f"the hub exited with status {self.process.returncode} at start: {last}")
            try:
                urllib.request.urlopen(f"{self.base}/api/v1/health", timeout=1)
                return
            except OSError:
                time.sleep(0.1)
        raise StepFailed("the hub did not answer within 30 s")

    def keep_output(self) -> None:
        for line in self.process.stdout:
            self.output.append(line.decode(errors="replace").strip())

    def cli(self, *args: str) -> None:
        done = subprocess.run([BINARY, *args, "--data", self.data], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=30)
        if done.returncode != 0:
            raise OSError(f"hearth {' '.join(args)}: {done.stderr.decode(errors='replace').strip()}")

    def pair(self, name: str, role: str) -> str:
        """A new person's device, paired the way an admin does it (`hearth pair`)."""
        out = tempfile.NamedTemporaryFile("w+", delete=False)
        try:
            pairing = subprocess.Popen([BINARY, "pair", "--data", self.data, "--new-person", name, "--role", role,
                                        "--url-host", "127.0.0.1", "--ascii"], stdout=out, stderr=subprocess.STDOUT)
            secret = None
            for _ in range(100):
                with open(out.name) as printed:
                    match = re.search(r"pair#([A-Za-z0-9_-]+)", printed.read())
                if match:
                    secret = match.group(1)
                    break
                time.sleep(0.1)
            if secret is None:
                pairing.kill()
                raise OSError("hearth pair printed no code within 10 s")
            token = self.request("POST", "/api/v1/pairing", {"code": secret, "deviceName": "bench"}, paired=False)["token"]
            pairing.wait(timeout=10)
            return token
        finally:
            out.close()
            os.unlink(out.name)

    def request(self, method: str, path: str, body: dict | None = None, paired: bool = True):
        headers = {"Content-Type": "application/json"}
        if paired:
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(f"{self.base}{path}", method=method, headers=headers,
                                         data=json.dumps(body).encode() if body is not None else None)
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read()
            return json.loads(text) if text else None

    def write_bytes(self) -> int:
        with open(f"/proc/{self.process.pid}/io") as io:
            return int(re.search(r"^write_bytes:\s+(\d+)", io.read(), re.M).group(1))

    def settled_write_bytes(self, quiet: float = QUIET, longest: float = 20) -> int:
        """write_bytes once the hub has written nothing for `quiet` seconds,
        or after `longest` seconds. What work leaves behind belongs to it: a
        note's text written 2 s after typing goes quiet, its state when its
        last editor leaves, and a checkpoint the work's log set off
        (LogCheckpointer), which a shorter wait would count in the next
        piece of work."""
        deadline = time.monotonic() + longest
        last, since = self.write_bytes(), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.1)
            now = self.write_bytes()
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet:
                break
        if self.process.poll() is not None:
            raise OSError(f"the hub exited with status {self.process.returncode}")
        return last

    def written_since(self, mark: int) -> tuple[int, int]:
        """What was written since `mark` (a settled write_bytes), once settled
        again, and the new mark."""
        now = self.settled_write_bytes()
        return now - mark, now

    def halt(self) -> int:
        """Stops the hub as systemd does (SIGTERM), letting it copy its log
        into the database file as it closes, and returns its write_bytes
        at exit (read while it waits to be reaped), the data kept."""
        self.process.terminate()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with open(f"/proc/{self.process.pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    break
            time.sleep(0.05)
        else:
            raise OSError("the hub did not stop within 30 s of SIGTERM")
        written = self.write_bytes()
        self.process.wait()
        return written

    def set_up_household(self) -> str:
        """A paired caregiver's device and her senior with an as-needed
        medication; returns the senior's id."""
        self.token = self.pair("Ola", "caregiver")
        self.cli("people", "add", "Babcia", "--role", "senior")
        self.cli("people", "link", "--caregiver", "Ola", "--senior", "Babcia")
        senior = next(p["id"] for p in self.request("GET", "/api/v1/people") if p["name"] == "Babcia")
        # As needed with no limits, so that every recording is allowed and written.
        self.medication = self.request("POST", "/api/v1/medications", {
            "personId": senior, "name": "Paracetamol", "stock": 100000,
            "schedules": [{"kind": "asNeeded", "amount": 1}]})["id"]
        return senior

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.data, ignore_errors=True)


# --------------------------------------------------------------------------
# The work
# --------------------------------------------------------------------------

def typed_text(count: int) -> str:
    """What is typed: words, with a line break every 60 or so characters,
    so a new note's first line (its title in lists) is typed first, then
    lines under it, as a person writes."""
    words = "the kettle is on and the post came early so we can go to the shop later".split()
    out, line = [], 0
    while len(out) < count:
        for ch in random.choice(words) + " ":
            out.append(ch)
            line += 1
        if line >= 60:
            out[-1] = "\n"
            line = 0
    return "".join(out[:count])


def filler(length: int) -> str:
    """Plain text of `length` bytes in lines, for a note that is already long."""
    line = "Monday: blood pressure 128/82 after breakfast, a short walk, soup for lunch.\n"
    return (line * (length // len(line) + 1))[:length]


def type_into(hub: Hub, note_id: str, keys: int) -> tuple[float, int]:
    """Types `keys` characters at the end of the note at 20 a second, as the
    web editor sends them (Web/notes/session.js): each keystroke one frame
    (its 30 ms flush sends keystrokes 50 ms apart one by one), sent when due
    whatever is still unacknowledged, while what the hub acknowledges is
    read as it comes (each of the hub's rounds stores what arrived during
    the last, and says so). Returns the seconds from the first keystroke to
    the acknowledgement of the last, and how many rounds stored them."""
    ws = WebSocket(hub.port, f"/api/v1/notes/{note_id}/edit", {"Authorization": f"Bearer {hub.token}"})
    try:
        ws.send(bytes([1, HELLO]) + varint(0))  # nothing held: the hub sends the whole note
        left = None
        while True:
            try:
                frame = ws.receive()
            except socket.timeout:
                raise OSError("the hub sent neither the note nor synced within 10 s") from None
            if frame[1] == STATE:
                left = last_character(frame[2:])
            elif frame[1] == SYNCED:
                break
        replica = random.randrange(1, 1 << 53)
        stored = threading.Condition()
        acknowledged = {"through": 0, "rounds": 0, "at": 0.0}

        def heard(frame: bytes) -> None:
            if frame[1] != ACKNOWLEDGED:
                return
            through = version_vector(frame[2:]).get(replica, 0)
            with stored:
                if through > acknowledged["through"]:
                    acknowledged.update(through=through, rounds=acknowledged["rounds"] + 1, at=time.monotonic())
                    stored.notify()

        ws.listen(heard)
        text = typed_text(keys)
        started = time.monotonic()
        for counter, ch in enumerate(text):
            wait = started + counter / KEYS_PER_SECOND - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            if ws.ended:
                raise OSError(f"after {counter} keystrokes: {ws.ended}")
            ws.send(insertion_frame(replica, counter, left, ch))
            left = (replica, counter)
        deadline = time.monotonic() + 60
        with stored:
            # Woken by each acknowledgement; the socket ending wakes no one, hence the short waits.
            while acknowledged["through"] < keys:
                if ws.ended:
                    raise OSError(f"after {acknowledged['through']} keystrokes acknowledged: {ws.ended}")
                if time.monotonic() > deadline:
                    raise OSError(f"{acknowledged['through']} of {keys} keystrokes acknowledged 60 s after the last")
                stored.wait(timeout=0.2)
        return acknowledged["at"] - started, acknowledged["rounds"]
    finally:
        ws.close()


def record_doses(hub: Hub, count: int, over: float = 0) -> None:
    """`count` as-needed doses, one after another; spread over `over` seconds if given."""
    started = time.monotonic()
    for i in range(count):
        if over:
            wait = started + i * over / count - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        hub.request("POST", "/api/v1/doses", {"medicationId": hub.medication, "status": "taken"})


class LivePage:
    """A page's live connection, as the browser opens it (its cookie and
    its origin), read as it comes as a page reads it."""

    def __init__(self, hub: Hub):
        self.ws = WebSocket(hub.port, "/api/v1/live",
                            {"Origin": hub.base, "Cookie": f"hearth_device={hub.token}"})
        hello = json.loads(self.ws.receive())
        if hello.get("type") != "hello":
            raise OSError(f"the live stream began with {hello}")
        self.frames = 0
        self.ws.listen(self.heard)

    def heard(self, _frame: bytes) -> None:
        self.frames += 1

    def close(self) -> None:
        self.ws.close()


def load_page(hub: Hub) -> None:
    """A page opened on a phone: the page, what Today, the notes and the
    people ask the hub for, and its live connection, opened and closed."""
    with urllib.request.urlopen(f"{hub.base}/", timeout=30) as response:
        response.read()
    for path in ("/api/v1/today", "/api/v1/notes", "/api/v1/people", "/api/v1/alerts"):
        hub.request("GET", path)
    LivePage(hub).close()


def household_day(hub: Hub, senior: str) -> int:
    """A day's work (see the module's text), one thing after another;
    returns the keystrokes typed."""
    notes = [hub.request("POST", "/api/v1/notes", {"title": title, "text": ""})["id"]
             for title in ("Shopping", "Doctor", "Week", "Diary")]
    sittings = max(1, DAY_KEYS // SITTING_KEYS)
    typed = 0
    for sitting in range(sittings):
        keys = DAY_KEYS // sittings + (1 if sitting < DAY_KEYS % sittings else 0)
        type_into(hub, notes[sitting % len(notes)], keys)
        typed += keys
        # What else happens between two sittings, spread over the day.
        share = lambda total: total * (sitting + 1) // sittings - total * sitting // sittings  # noqa: E731
        record_doses(hub, share(DAY_DOSES))
        for _ in range(share(DAY_PAGES)):
            load_page(hub)
        for _ in range(share(DAY_ALERTS)):
            alert = hub.request("POST", "/api/v1/sos", {"personId": senior})["id"]
            hub.request("POST", f"/api/v1/alerts/{alert}/respond")
            hub.request("POST", f"/api/v1/alerts/{alert}/ack")
    return typed


def size(bytes_: float) -> str:
    if abs(bytes_) >= 10 * KB * KB:
        return f"{bytes_ / KB / KB:.1f} MB"
    if abs(bytes_) >= KB:
        return f"{bytes_ / KB:.1f} KB"
    return f"{bytes_:.0f} B"


def row(work: str, written: float, per: str = "", goal: str = "") -> None:
    print(f"{work:<46} {size(written):>10} {per:>22}  {goal}", flush=True)


def run(hub: Hub) -> None:
    with step("starting the hub"):
        hub.start()
    with step("pairing a caregiver and making a senior"):
        hub.set_up_household()

    print(f"Bytes written to disk by the hub (/proc/{hub.process.pid}/io write_bytes; data on "
          f"{filesystem_of(hub.data)}, {os.path.basename(BINARY)} at {BINARY})")
    print(f"{'work':<46} {'written':>10} {'each':>22}  goal", flush=True)

    with step(f"idling {IDLE:g} s"):
        before = hub.settled_write_bytes()
        time.sleep(IDLE)
        written = hub.write_bytes() - before
        row(f"idle {IDLE:g} s", written, f"{size(written / IDLE * 60)} a minute")

    # Each typing row on a hub started afresh and stopped after it, so that
    # the copy of its log into the database file (at 1000 pages, or at the
    # stop) is its own, counted with it.
    timings, rounds = {}, {}
    for label, text_size in (("a new note", 0), ("a 20 KB note", 20 * KB), ("a 100 KB note", 100 * KB)):
        with step(f"typing into {label}"):
            note = hub.request("POST", "/api/v1/notes", {"title": "", "text": filler(text_size)})
            hub.halt()
            hub.start()
            before = hub.settled_write_bytes()
            timings[label], rounds[label] = type_into(hub, note["id"], KEYS)
            written, settled = hub.written_since(before)
            copied = hub.halt() - settled
            hub.start()
            row(f"{KEYS} keystrokes into {label}", written + copied, f"{size((written + copied) / KEYS)} a keystroke",
                "<= 2 KB a keystroke")
            row("  of which its log copied into the file", copied, f"{size(copied / KEYS)} a keystroke")

    # Each dose row likewise on a hub started afresh and stopped after it:
    # what a dose costs is its pages in the log and its share of their copy
    # into the database file (once the log holds 1000 pages, or at the
    # stop), counted with the row that made them, not with whichever row
    # the log happened to fill up in.
    def dose_row(label: str, over: float, live_page: bool) -> int:
        hub.halt()
        hub.start()
        before = hub.settled_write_bytes()
        page = LivePage(hub) if live_page else None
        record_doses(hub, DOSES, over=over)
        if page:
            time.sleep(0.5)  # the last changes reach the page
            page.close()
            if page.frames < DOSES:
                raise OSError(f"the live page heard {page.frames} changes for {DOSES} doses")
        written, settled = hub.written_since(before)
        copied = hub.halt() - settled
        hub.start()
        row(label, written + copied, f"{size((written + copied) / DOSES)} a dose", "<= 24 KB a dose")
        row("  of which its log copied into the file", copied, f"{size(copied / DOSES)} a dose")
        return written + copied

    with step("recording doses"):
        dose_row(f"{DOSES} doses, POST /api/v1/doses", 0, live_page=False)
    with step("recording doses with no live page"):
        without = dose_row(f"{DOSES} doses over {LIVE_SECONDS:g} s, no live page", LIVE_SECONDS, live_page=False)
    with step("recording doses with a live page open"):
        with_page = dose_row("the same with a live page open", LIVE_SECONDS, live_page=True)
        row("  one live page connection (the difference)", with_page - without, "a connection")
    settled = hub.settled_write_bytes()
    # Two runs of the same doses differ by a few pages anyway, so that
    # difference is rough; the connection alone, with nothing to hear, is not.
    with step("holding a live page open"):
        page = LivePage(hub)
        time.sleep(LIVE_SECONDS)
        page.close()
        written, _ = hub.written_since(settled)
        row(f"a live page open {LIVE_SECONDS:g} s, nothing recorded", written, "a connection")

    # The log is copied into the database file once it holds 1000 pages
    # (LogCheckpointer), and as the hub stops: what the rows above left in
    # it is copied now.
    with step("stopping the hub"):
        row("the hub stopped, its log copied into the file", hub.halt() - settled, "once")

    # A day on a hub of its own, so that its log, copied into the file as
    # the hub stops, holds the day's pages and no others: set up, stopped
    # (its set-up copied in) and started again before the day.
    day_hub = Hub()
    try:
        with step("setting up a household for its day"):
            day_hub.start()
            senior = day_hub.set_up_household()
            day_hub.halt()
            day_hub.start()
        with step("a household's day"):
            settled = day_hub.settled_write_bytes()
            typed = household_day(day_hub, senior)
            written, settled = day_hub.written_since(settled)
            copied = day_hub.halt() - settled
            row(f"a day: {typed} keys, {DAY_DOSES} doses, {DAY_PAGES} pages, {DAY_ALERTS} SOS", written, "a day")
            row("  and its log copied into the file at the stop", copied, "a day")
            row("  the day in all", written + copied, "a day", "<= 10 MB a day")
    finally:
        day_hub.stop()

    pace = (KEYS - 1) / KEYS_PER_SECOND
    print(f"seconds from the first of {KEYS} keystrokes to the last one's acknowledgement ({pace:.1f} s at "
          f"{KEYS_PER_SECOND} a second): new note {timings['a new note']:.1f} s, "
          f"100 KB note {timings['a 100 KB note']:.1f} s")
    # A round is one transaction: a hub slower than the typist stores several keystrokes in one.
    print("rounds that stored them: " + ", ".join(f"{label.removeprefix('a ')} {count}" for label, count in rounds.items()),
          flush=True)


def main() -> None:
    hub = Hub()
    try:
        run(hub)
    except StepFailed as failure:
        hub.stop()
        print(f"disk-writes: {failure}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        hub.stop()
        sys.exit(130)
    hub.stop()


if __name__ == "__main__":
    main()

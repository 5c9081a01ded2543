"""Fixtures for Hearth's end-to-end tests.

Every test drives the real, built `hearth` binary: it starts on a free
loopback port with a temporary data directory, and is stopped with SIGTERM
(which must exit 0) when the test ends. Nothing is left running.

Every /api/ route but health and the pairing exchange needs a paired device,
so the `hub` fixture pairs one the way an admin would: it runs `hearth pair`
and exchanges the code from the URL it prints for a device token (`hub.token`,
`hub.headers`). `hub_process` is a hub with nobody paired.

Environment:
  E2E_HEARTH_BINARY   the hearth executable (default: <repo>/.build/debug/hearth)
  E2E_CHROMIUM        the browser (default: /usr/lib/chromium/chromium-headless-shell,
                      Chromium's headless shell; /usr/bin/chromium, the
                      whole browser in its headless mode, works too)
  E2E_CHROMEDRIVER    its driver (default: /usr/bin/chromedriver)
  E2E_WEB_ROOT        serve the web UI from this directory (`hearth serve
                      --web-root`) instead of the copy built into the binary,
                      e.g. `E2E_WEB_ROOT=Web` to try UI changes without a rebuild
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import re
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests
import websocket

REPO_ROOT = Path(__file__).resolve().parents[2]
HEARTH_BINARY = Path(os.environ.get("E2E_HEARTH_BINARY", REPO_ROOT / ".build" / "debug" / "hearth"))
# Chromium's headless shell: the same Blink and V8 as Debian's chromium, of
# the same version, without the browser around them (its tab strip's own
# page, profile services, extensions). On 30 November the whole e2e suite
# passed on each, and took 669 core-seconds and 432 s on the shell against
# 914 and 545 on the whole browser: a cold page load 0.69-0.73 core-seconds
# against 1.00-1.04, one after the other. The binary itself, not
# /usr/bin/chromium-headless-shell: that script starts it without exec, so
# the driver's ending of a session would end the script and leave the
# browser running.
CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/lib/chromium/chromium-headless-shell")
CHROMEDRIVER = os.environ.get("E2E_CHROMEDRIVER", "/usr/bin/chromedriver")
WEB_ROOT = os.environ.get("E2E_WEB_ROOT")

START_TIMEOUT_S = 20
STOP_TIMEOUT_S = 5
EXIT_CONFIG_ERROR = 78

# A name a user would recognise, with Polish diacritics, so the UI is shown
# to carry non-ASCII text from the database to the screen intact.
HOUSEHOLD_NAME = "Dom Zofii Łęckiej"
# The admin the `hub` fixture pairs a device for.
ADMIN_NAME = "Test Admin"
PAIR_TIMEOUT_S = 10
PROBLEM_JSON = "application/problem+json"


# --------------------------------------------------------------------------
# The hub process
# --------------------------------------------------------------------------


# Set when the tests themselves run under systemd; a hub must not answer
# for the test runner's unit (test_systemd_notify.py sets them on purpose).
SYSTEMD_VARIABLES = ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")


def hub_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This process's environment without any HEARTH_* variable (an unknown
    one stops the hub) or systemd's notify variables, with discovery off,
    plus `extra`."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("HEARTH_") and k not in SYSTEMD_VARIABLES}
    # No test hub announces itself on this machine's real network; the
    # discovery test turns it on inside network namespaces of its own.
    env["HEARTH_DISCOVERY_ENABLED"] = "false"
    env.update(extra or {})
    return env


def require_binary() -> Path:
    if not HEARTH_BINARY.is_file() or not os.access(HEARTH_BINARY, os.X_OK):
        pytest.fail(
            f"The hearth binary is missing at {HEARTH_BINARY}. Build it first "
            "(`swift build`, or `make test` which builds), or point E2E_HEARTH_BINARY at it.",
            pytrace=False,
        )
    return HEARTH_BINARY


def run_hearth(args: list[str], env: dict[str, str] | None = None, timeout: float = 15,
               cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Runs `hearth ARGS` to completion (for --version and start-up failures)."""
    binary = require_binary()
    try:
        return subprocess.run(
            [str(binary), *args],
            env=hub_environment(env),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except OSError as error:  # e.g. "Text file busy" while it is being rebuilt
        pytest.fail(f"Could not run {binary}: {error}", pytrace=False)
    except subprocess.TimeoutExpired as error:
        def text(value):
            return value.decode(errors="replace") if isinstance(value, bytes) else (value or "")
        pytest.fail(
            f"`hearth {' '.join(args)}` was still running after {timeout} s; expected it to exit.\n"
            f"stdout:\n{text(error.stdout)}\nstderr:\n{text(error.stderr)}",
            pytrace=False,
        )


def free_loopback_port() -> int:
    """A TCP port nothing listens on right now (the kernel picks it)."""
    return free_loopback_ports(1)[0]


def free_loopback_ports(count: int) -> list[int]:
    """`count` different TCP ports nothing listens on right now: held open
    together while the kernel picks them, since one picked and let go may
    be picked again at once (a hub's HTTP and Notek ports once were the
    same, and it rightly refused to start)."""
    sockets = [socket.socket(socket.AF_INET, socket.SOCK_STREAM) for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


@dataclass
class Hub:
    """One running `hearth serve`, its output captured to files."""

    process: subprocess.Popen
    port: int
    data_dir: Path
    log_dir: Path
    args: list[str]
    # The paired admin device's token (set by the `hub` fixture / pair_admin()).
    token: str | None = None
    pairings: list["PairingRun"] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def headers(self) -> dict[str, str]:
        """Authorization for the paired admin device."""
        assert self.token, "this hub has no paired device; use the `hub` fixture or pair_admin()"
        return {"Authorization": f"Bearer {self.token}"}

    def start_pairing(self, *args: str, ascii_art: bool = True) -> "PairingRun":
        """Runs `hearth pair ARGS` for this hub (as an admin would over SSH)
        and returns once it has printed its URL and short code."""
        run = PairingRun.start(self.data_dir, self.port, list(args), ascii_art=ascii_art)
        self.pairings.append(run)
        return run

    def pair_device(self, *args: str, device_name: str, wait: bool = True) -> dict:
        """Pairs a device through the API with the secret from `hearth pair
        ARGS`; returns the 201 body (device, person, token). `hearth pair`
        must then say Paired and exit 0: checked now, or (wait=False) by
        check_pairings(), since it notices only at its next poll (0.5 s)."""
        run = self.start_pairing(*args)
        response = requests.post(f"{self.url}/api/v1/pairing",
                                 json={"code": run.secret, "deviceName": device_name}, timeout=5)
        assert response.status_code == 201, f"pairing with {run.url}: {response.status_code} {response.text}"
        body = response.json()
        run.expected = f"{device_name} ({body['person']['name']}, {body['person']['role']})"
        if wait:
            run.expect_paired(run.expected)
        return body

    def pair_admin(self, wait: bool = True) -> "Hub":
        """Pairs a device for a new admin, ADMIN_NAME, and keeps its token."""
        self.token = self.pair_device("--new-person", ADMIN_NAME, "--role", "admin",
                                      device_name="e2e admin", wait=wait)["token"]
        return self

    def check_pairings(self, test: str) -> None:
        """Every `hearth pair` whose code a device used says so and exits 0:
        checked now if it has, else at the end of the run (it notices at its
        next poll, up to 0.5 s later, with or without the hub running), so
        no test waits for it."""
        for run in self.pairings:
            if not run.expected or run.checked:
                continue
            if run.process.poll() is None:
                _UNCHECKED_PAIRINGS.append((test, run))
            else:
                run.expect_paired(run.expected)

    def hearth(self, *args: str) -> subprocess.CompletedProcess:
        """Runs `hearth ARGS --data <this hub's data>` to completion."""
        return run_hearth([*args, "--data", str(self.data_dir)])

    def devices(self) -> list[dict]:
        """Every device of the household, as the admin's GET /api/v1/devices shows them."""
        response = requests.get(f"{self.url}/api/v1/devices", headers=self.headers, timeout=5)
        assert response.status_code == 200, response.text
        return response.json()

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.process.pid

    def output(self) -> str:
        parts = []
        for name in ("stdout", "stderr"):
            path = self.log_dir / f"hub.{name}"
            text = path.read_text(errors="replace") if path.exists() else ""
            parts.append(f"--- hub {name} ---\n{text.rstrip() or '(empty)'}")
        return "\n".join(parts)

    def stdout(self) -> str:
        return (self.log_dir / "hub.stdout").read_text(errors="replace")

    def wait_until_healthy(self, timeout: float = START_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        last_error = "no answer yet"
        while time.monotonic() < deadline:
            code = self.process.poll()
            if code is not None:
                pytest.fail(
                    f"hearth exited with code {code} before it became healthy.\n"
                    f"command: {' '.join(self.args)}\n{self.output()}",
                    pytrace=False,
                )
            try:
                response = requests.get(f"{self.url}/api/v1/health", timeout=1)
                if response.status_code == 200 and response.json().get("status") == "ok":
                    return
                last_error = f"HTTP {response.status_code}: {response.text[:200]}"
            except (requests.RequestException, ValueError) as error:
                last_error = f"{type(error).__name__}: {error}"
            time.sleep(0.05)
        self.kill()
        pytest.fail(
            f"hearth did not answer GET /api/v1/health within {timeout} s "
            f"(last: {last_error}).\ncommand: {' '.join(self.args)}\n{self.output()}",
            pytrace=False,
        )

    def stop(self, sig: int = signal.SIGTERM, timeout: float = STOP_TIMEOUT_S) -> tuple[int, float]:
        """Sends `sig` and waits; returns (exit code, seconds it took).
        Fails the test (after killing the process) if it does not exit in time."""
        if self.process.poll() is not None:
            return self.process.returncode, 0.0
        started = time.monotonic()
        self.process.send_signal(sig)
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(
                f"hearth did not exit within {timeout} s of {signal.Signals(sig).name}.\n{self.output()}",
                pytrace=False,
            )
        return code, time.monotonic() - started

    def kill(self) -> None:
        for run in self.pairings:
            if not run.expected:
                run.kill()
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


# --------------------------------------------------------------------------
# `hearth pair`
# --------------------------------------------------------------------------

URL_LINE = re.compile(r"^Scan it, or open: (?P<url>http://\S+/pair#(?P<secret>[A-Za-z0-9_-]+))$")
CODE_LINE = re.compile(r"^Code to type: (?P<code>[0-9A-Z]{4}-[0-9A-Z]{4}) +For: (?P<who>.+)$")


@dataclass
class PairingRun:
    """One `hearth pair` process (its output read on a thread), until it
    prints `Paired: …` or `Expired` and exits."""

    process: subprocess.Popen
    lines: "queue.Queue[str | None]"
    screen: list[str]
    url: str = ""
    secret: str = ""
    short_code: str = ""
    who: str = ""
    # `Paired: …` as it should be printed, once a device has used the code.
    expected: str = ""
    checked: bool = False
    # When its output ended (monotonic), stamped by the reading thread, so a
    # test that gets to it late still knows when the process finished.
    ended_at: float | None = None

    @classmethod
    def start(cls, data_dir: Path, port: int, args: list[str], ascii_art: bool = True) -> "PairingRun":
        binary = require_binary()
        command = [str(binary), "pair", "--data", str(data_dir), "--url-host", "127.0.0.1",
                   *(["--ascii"] if ascii_art else []), *args]
        process = subprocess.Popen(command, env=hub_environment({"HEARTH_HTTP_PORT": str(port)}),
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, encoding="utf-8")
        lines: queue.Queue[str | None] = queue.Queue()
        run = cls(process=process, lines=lines, screen=[])

        def pump():
            for line in process.stdout:
                lines.put(line.rstrip("\n"))
            run.ended_at = time.monotonic()
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        _ALL_PAIRINGS.append(run)
        deadline = time.monotonic() + PAIR_TIMEOUT_S
        while not run.short_code:
            line = run._next_line(deadline, f"`hearth pair {' '.join(args)}` to print its code")
            if line is None:
                code = process.wait(timeout=5)
                pytest.fail(f"`hearth pair {' '.join(args)}` exited with {code} before printing a code:\n"
                            + "\n".join(run.screen), pytrace=False)
            if match := URL_LINE.match(line):
                run.url, run.secret = match["url"], match["secret"]
            elif match := CODE_LINE.match(line):
                run.short_code, run.who = match["code"], match["who"]
        assert run.url, "no `Scan it, or open: URL` line:\n" + "\n".join(run.screen)
        return run

    def expect_device(self, device_name: str) -> None:
        """A device called `device_name` is using the code: `hearth pair` is
        to print `Paired: <device> (<person>, <role>)` (see check_pairings)."""
        person, role = re.fullmatch(r"(.+) \((\w+)\)", self.who).groups()
        self.expected = f"{device_name} ({person}, {role})"

    def _next_line(self, deadline: float, what: str) -> str | None:
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self.kill()
            pytest.fail(f"Timed out waiting for {what}. It printed:\n" + "\n".join(self.screen), pytrace=False)
        if line is not None:
            self.screen.append(line)
        return line

    def finish(self, timeout: float = PAIR_TIMEOUT_S) -> tuple[int, list[str]]:
        """Waits for the process to end; returns its exit code and the lines
        printed after the short code."""
        deadline = time.monotonic() + timeout
        rest = []
        while (line := self._next_line(deadline, "`hearth pair` to finish")) is not None:
            rest.append(line)
        return self.process.wait(timeout=5), rest

    def expect_paired(self, description: str, timeout: float = PAIR_TIMEOUT_S) -> None:
        """`hearth pair` prints `Paired: DESCRIPTION` and exits 0."""
        code, rest = self.finish(timeout)
        self.checked = True
        assert rest == [f"Paired: {description}"], rest
        assert code == 0, f"`hearth pair` exited with {code}"

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "started_with_the_run(start): call start() when collection is done, before the first "
        "test, so a slow wait (a code expiring) overlaps the other tests",
    )


def pytest_collection_finish(session):
    if session.config.option.collectonly:
        return
    for item in session.items:
        if marker := item.get_closest_marker("started_with_the_run"):
            marker.kwargs["start"]()


# Every hub and `hearth pair` ever started, so even an interrupted run
# (Ctrl-C) leaves none behind.
_ALL_HUBS: list[Hub] = []
_ALL_PAIRINGS: list[PairingRun] = []
# (test, run) for `hearth pair` runs still to say Paired when their test ended.
_UNCHECKED_PAIRINGS: list[tuple[str, PairingRun]] = []


@pytest.fixture(scope="session", autouse=True)
def _every_used_pairing_said_paired():
    """The end of check_pairings(): fails the run, naming the test, if a
    `hearth pair` whose code was used did not print Paired and exit 0."""
    yield
    problems = []
    for test, run in _UNCHECKED_PAIRINGS:
        try:
            run.expect_paired(run.expected, timeout=3)
        except BaseException as error:  # pytest.fail raises an OutcomeException
            problems.append(f"{test}: `hearth pair` for {run.who}: {error}")
    _UNCHECKED_PAIRINGS.clear()
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@atexit.register
def _kill_leftover_processes() -> None:
    for run in _ALL_PAIRINGS:
        run.kill()
    for hub in _ALL_HUBS:
        hub.kill()


class HubLauncher:
    """Starts hubs for one test and guarantees none outlives it."""

    def __init__(self, tmp_path: Path):
        self.tmp_path = tmp_path
        self.hubs: list[Hub] = []

    def start(self, *, data_dir: Path | None = None, env: dict[str, str] | None = None,
              extra_args: list[str] | None = None, name: str | None = HOUSEHOLD_NAME,
              port: int | None = None, wait: bool = True) -> Hub:
        binary = require_binary()
        index = len(self.hubs)
        log_dir = self.tmp_path / f"hub-{index}"
        log_dir.mkdir(parents=True, exist_ok=True)
        data_dir = data_dir or (self.tmp_path / "data")
        port = port or free_loopback_port()
        args = [str(binary), "serve", "--data", str(data_dir), "--port", str(port),
                "--host", "127.0.0.1", *(["--web-root", str(Path(WEB_ROOT).resolve())] if WEB_ROOT else []),
                *(extra_args or [])]
        extra_env = {"HEARTH_LOG_LEVEL": "info"}
        if name is not None:
            extra_env["HEARTH_HOUSEHOLD_NAME"] = name
        extra_env.update(env or {})
        with open(log_dir / "hub.stdout", "wb") as out, open(log_dir / "hub.stderr", "wb") as err:
            try:
                process = subprocess.Popen(
                    args, env=hub_environment(extra_env), cwd=self.tmp_path,
                    stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                )
            except OSError as error:  # e.g. "Text file busy" while it is being rebuilt
                pytest.fail(f"Could not start {binary}: {error}", pytrace=False)
        hub = Hub(process=process, port=port, data_dir=data_dir, log_dir=log_dir, args=args)
        self.hubs.append(hub)
        _ALL_HUBS.append(hub)
        if wait:
            hub.wait_until_healthy()
        return hub

    def stop_all(self) -> list[str]:
        """Stops every hub still running with SIGTERM; returns complaints."""
        problems = []
        for hub in self.hubs:
            for run in hub.pairings:
                if not run.expected:  # nobody used its code: it would wait out its TTL
                    run.kill()
            if hub.process.poll() is not None:
                continue
            hub.process.send_signal(signal.SIGTERM)
            try:
                code = hub.process.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                hub.kill()
                problems.append(f"hub pid {hub.pid} ignored SIGTERM for {STOP_TIMEOUT_S} s and was killed.\n{hub.output()}")
                continue
            if code != 0:
                problems.append(f"hub pid {hub.pid} exited with {code} after SIGTERM (expected 0).\n{hub.output()}")
        return problems


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A fresh data directory (created by the hub on first start)."""
    return tmp_path / "data"


@pytest.fixture
def hub_launcher(tmp_path: Path, request):
    launcher = HubLauncher(tmp_path)
    try:
        yield launcher
        for hub in launcher.hubs:
            hub.check_pairings(request.node.nodeid)
    finally:
        problems = launcher.stop_all()
    if problems:
        pytest.fail("\n\n".join(problems), pytrace=False)


@pytest.fixture
def hub_process(hub_launcher: HubLauncher, data_dir: Path) -> Hub:
    """A healthy hub (household named HOUSEHOLD_NAME) with no device paired;
    SIGTERM'd afterwards, and the test fails unless it then exits 0 within 5 s."""
    return hub_launcher.start(data_dir=data_dir)


@pytest.fixture
def hub(hub_process: Hub) -> Hub:
    """A healthy hub with one paired admin device: `hub.url` is its base URL
    (e.g. http://127.0.0.1:40123), `hub.headers` authorize as that device.
    `hearth pair` must print `Paired: …` and exit 0 (see check_pairings)."""
    return hub_process.pair_admin(wait=False)


@pytest.fixture(scope="module")
def shared_hub(tmp_path_factory, request) -> Hub:
    """One hub with a paired admin device (as `hub`) for all of a module's
    tests that only read, or whose every request is refused: each of those
    checks that nothing changed, and a hub one of them broke fails the next.
    Spares a hub's start, its pairing and its stop a test."""
    launcher = HubLauncher(tmp_path_factory.mktemp("shared-hub"))
    try:
        hub = launcher.start().pair_admin(wait=False)
        yield hub
        hub.check_pairings(request.node.nodeid)
    finally:
        problems = launcher.stop_all()
    if problems:
        pytest.fail("\n\n".join(problems), pytrace=False)


def assert_problem(response: requests.Response, status: int, slug: str) -> dict:
    """An RFC 9457 problem with the documented status and stable type URI."""
    where = f"{response.request.method} {response.request.url}"
    assert response.status_code == status, f"{where}: {response.status_code} {response.text[:300]}"
    content_type = response.headers.get("Content-Type", "")
    assert content_type.split(";")[0].strip() == PROBLEM_JSON, f"{where}: Content-Type {content_type!r}"
    body = response.json()
    assert body.get("type") == f"urn:hearth:problem:{slug}", f"{where}: {body}"
    assert body.get("status") == status, body
    assert isinstance(body.get("title"), str) and body["title"], body
    assert isinstance(body.get("detail"), str) and body["detail"], body
    return body


# --------------------------------------------------------------------------
# The live WebSocket
# --------------------------------------------------------------------------

QUIET_S = 0.7  # how long "no further frame" is waited for


class Live:
    """One WS /api/v1/live connection with helpers. `token` goes as
    `Authorization: Bearer` (a device), `cookie` as the browser's cookie."""

    def __init__(self, base_ws: str, query: str = "", origin: str | None = None,
                 token: str | None = None, cookie: str | None = None):
        # Without `origin`, websocket-client sends no Origin: a device, not a page.
        options: dict = {"origin": origin} if origin else {"suppress_origin": True}
        if token:
            options["header"] = [f"Authorization: Bearer {token}"]
        if cookie:
            options["cookie"] = f"hearth_device={cookie}"
        self.ws = websocket.create_connection(f"{base_ws}/api/v1/live{query}", timeout=5, **options)

    def frame(self, timeout: float = 5) -> dict:
        self.ws.settimeout(timeout)
        opcode, data = self.ws.recv_data(control_frame=True)
        assert opcode == websocket.ABNF.OPCODE_TEXT, (opcode, data)
        return json.loads(data)

    def close_frame(self, timeout: float = 5) -> tuple[int, str]:
        self.ws.settimeout(timeout)
        opcode, data = self.ws.recv_data(control_frame=True)
        assert opcode == websocket.ABNF.OPCODE_CLOSE, (opcode, data)
        return int.from_bytes(data[:2], "big"), data[2:].decode()

    def assert_quiet(self, seconds: float = QUIET_S) -> None:
        self.ws.settimeout(seconds)
        try:
            opcode, data = self.ws.recv_data(control_frame=True)
        except websocket.WebSocketTimeoutException:
            return
        pytest.fail(f"expected no further frame, got opcode {opcode}: {data[:300]!r}")

    def close(self) -> None:
        self.ws.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()



# --------------------------------------------------------------------------
# The browser
# --------------------------------------------------------------------------


def _require_chromium() -> None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not (os.path.isfile(p) and os.access(p, os.X_OK))]
    if missing:
        pytest.fail(
            f"Chromium for the UI tests is missing: {', '.join(missing)}. Install it with "
            "`apt-get install chromium-headless-shell chromium-driver` (`make test` does), or set "
            "E2E_CHROMIUM / E2E_CHROMEDRIVER.",
            pytrace=False,
        )


def _click_in_the_middle_of_the_screen() -> None:
    """Every click first scrolls its element to the middle of the screen, as
    a person brings a button into view before tapping it: on a senior's
    device the SOS bar is fixed over the bottom of every page, and
    chromedriver would otherwise tap an element lying under it."""
    from selenium.webdriver.remote.webelement import WebElement

    tap = WebElement.click
    if getattr(tap, "scrolls_first", False):
        return

    def click(self):
        self.parent.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", self)
        tap(self)

    click.scrolls_first = True
    WebElement.click = click


@pytest.fixture(scope="session")
def _chromium(tmp_path_factory):
    """One headless Chromium for the whole run (starting one takes seconds);
    `browser` resets it between tests. What a page downloads goes to
    `driver.downloads`, a directory of the run's own: the headless shell
    would otherwise save it in the directory the tests were started from,
    the repository."""
    _require_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    _click_in_the_middle_of_the_screen()
    options = chromium_options("--window-size=1280,900")
    options.add_experimental_option("prefs", {"intl.accept_languages": "en-US,en"})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=CHROMEDRIVER)
    try:
        driver = webdriver.Chrome(service=service, options=options)
    except Exception as error:  # the message names what went wrong (versions, sandbox, …)
        pytest.fail(f"Could not start headless Chromium ({CHROMIUM}) with {CHROMEDRIVER}: {error}",
                    pytrace=False)
    driver.set_page_load_timeout(20)
    driver.set_script_timeout(30)
    driver.downloads = tmp_path_factory.mktemp("downloads")
    try:
        yield driver
    finally:
        driver.quit()


def chromium_options(*arguments: str):
    """Debian's Chromium, headless, in English, with nothing of its own
    reaching the network; `arguments` add to that (a window size, sound
    without a tap)."""
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not try to download a browser or driver.
    from selenium import webdriver
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # --disable-gpu: no GPU process drawing through SwiftShader, the CPU's
    # stand-in for one; pages are drawn by the software compositor alone.
    # The same pixels within the reference screens' tolerance, and e2e's
    # busiest files took 8% less of the cores (336 against 365 core-seconds).
    # The shell is headless whatever it is told; the whole browser is told to be.
    headless = () if os.path.basename(CHROMIUM).endswith("headless-shell") else ("--headless=new",)
    for argument in (*headless, "--no-sandbox", "--disable-dev-shm-usage", "--lang=en-US", "--no-first-run",
                     "--disable-extensions", "--disable-background-networking", "--disable-gpu", *arguments):
        options.add_argument(argument)
    return options


@pytest.fixture(scope="session")
def _web_ui_is_current(tmp_path_factory):
    """The web UI the hub serves is the one in Web/: otherwise every browser
    test would time out on a page that is not there yet. A binary built
    before the last change to Web/ fails here at once, saying what to do."""
    if WEB_ROOT:
        return
    web = REPO_ROOT / "Web"
    launcher = HubLauncher(tmp_path_factory.mktemp("web-ui-check"))
    try:
        hub = launcher.start()
        stale = []
        for path in sorted(web.rglob("*")):
            relative = path.relative_to(web).as_posix()
            if not path.is_file() or relative.startswith("tests/") or relative == "package.json":
                continue
            served = requests.get(f"{hub.url}/{relative}", timeout=5)
            if served.status_code != 200 or served.content != path.read_bytes():
                stale.append(relative)
    finally:
        launcher.stop_all()
    if stale:
        pytest.fail(f"{HEARTH_BINARY} serves an older web UI than Web/ ({', '.join(stale[:5])}"
                    f"{' …' if len(stale) > 5 else ''} differ). Rebuild it (`swift build`; `make test` "
                    "does), or set E2E_WEB_ROOT=Web to serve Web/ from disk.", pytrace=False)


@pytest.fixture
def browser(_chromium, _web_ui_is_current):
    """Headless Chromium (Debian's chromium + chromium-driver), on a blank
    page with light colours and an empty console. Each test's hub has its
    own port, so its origin's storage is cleared when the test opens it
    (see `open_hub_page` in test_web_ui.py)."""
    driver = _chromium
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})
    # Every test starts on the same 1280×900 screen, whatever size an
    # earlier one emulated (a phone's, left by a test that stopped early).
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.set_window_size(1280, 900)
    driver.get("about:blank")
    # Cookies belong to a host, not a port: another test's device cookie for
    # 127.0.0.1 must not reach this test's hub.
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    # Said again for every test: Chromium forgets it when the tab whose
    # DevTools session said it is gone, as after a test that closed its window.
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(driver.downloads)})
    driver.get_log("browser")  # drop what earlier tests left
    yield driver
    driver.get("about:blank")


def browser_console_errors(driver) -> list[str]:
    """SEVERE console entries since the last call (uncaught exceptions,
    failed loads)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]



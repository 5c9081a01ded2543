"""Fixtures for Hearth's end-to-end tests.

Every test drives the real, built `hearth` binary: it starts on a free
loopback port with a temporary data directory, and is stopped with SIGTERM
(which must exit 0) when the test ends. Nothing is left running.

Environment:
  E2E_HEARTH_BINARY   the hearth executable (default: <repo>/.build/debug/hearth)
  E2E_CHROMIUM        the browser (default: /usr/bin/chromium)
  E2E_CHROMEDRIVER    its driver (default: /usr/bin/chromedriver)
"""

from __future__ import annotations

import atexit
import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

REPO_ROOT = Path(__file__).resolve().parents[2]
HEARTH_BINARY = Path(os.environ.get("E2E_HEARTH_BINARY", REPO_ROOT / ".build" / "debug" / "hearth"))
CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("E2E_CHROMEDRIVER", "/usr/bin/chromedriver")

START_TIMEOUT_S = 20
STOP_TIMEOUT_S = 5
EXIT_CONFIG_ERROR = 78

# A name a user would recognise, with Polish diacritics, so the UI is shown
# to carry non-ASCII text from the database to the screen intact.
HOUSEHOLD_NAME = "Dom Zofii Łęckiej"


# --------------------------------------------------------------------------
# The hub process
# --------------------------------------------------------------------------


def hub_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This process's environment without any HEARTH_* variable (an unknown
    one stops the hub), plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTH_")}
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
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Hub:
    """One running `hearth serve`, its output captured to files."""

    process: subprocess.Popen
    port: int
    data_dir: Path
    log_dir: Path
    args: list[str]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

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
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


# Every hub ever started, so even an interrupted run (Ctrl-C) leaves none behind.
_ALL_HUBS: list[Hub] = []


@atexit.register
def _kill_leftover_hubs() -> None:
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
                "--host", "127.0.0.1", *(extra_args or [])]
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
def hub_launcher(tmp_path: Path):
    launcher = HubLauncher(tmp_path)
    try:
        yield launcher
    finally:
        problems = launcher.stop_all()
    if problems:
        pytest.fail("\n\n".join(problems), pytrace=False)


@pytest.fixture
def hub_process(hub_launcher: HubLauncher, data_dir: Path) -> Hub:
    """A healthy hub (household named HOUSEHOLD_NAME); SIGTERM'd afterwards,
    and the test fails unless it then exits 0 within 5 s."""
    return hub_launcher.start(data_dir=data_dir)


@pytest.fixture
def hub(hub_process: Hub) -> str:
    """Base URL of a healthy hub, e.g. http://127.0.0.1:40123."""
    return hub_process.url


# --------------------------------------------------------------------------
# The browser
# --------------------------------------------------------------------------


def _require_chromium() -> None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not (os.path.isfile(p) and os.access(p, os.X_OK))]
    if missing:
        pytest.fail(
            f"Chromium for the UI tests is missing: {', '.join(missing)}. Install it with "
            "`apt-get install chromium chromium-driver` (`make test` does), or set "
            "E2E_CHROMIUM / E2E_CHROMEDRIVER.",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def _chromium():
    """One headless Chromium for the whole run (starting one takes seconds);
    `browser` resets it between tests."""
    # Selenium Manager must not try to download a browser or driver.
    os.environ["SE_OFFLINE"] = "true"
    _require_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--lang=en-US", "--no-first-run",
                     "--disable-extensions", "--disable-background-networking"):
        options.add_argument(argument)
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
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def browser(_chromium):
    """Headless Chromium (Debian's chromium + chromium-driver), on a blank
    page with light colours and an empty console. Each test's hub has its
    own port, so its origin's storage is cleared when the test opens it
    (see `open_hub_page` in test_web_ui.py)."""
    driver = _chromium
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})
    driver.get("about:blank")
    driver.get_log("browser")  # drop what earlier tests left
    yield driver
    driver.get("about:blank")


def browser_console_errors(driver) -> list[str]:
    """SEVERE console entries since the last call (uncaught exceptions,
    failed loads)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]



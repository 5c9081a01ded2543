"""Pairing as a household meets it: the admin runs `hearth pair` over SSH,
a phone scans the QR code drawn in the terminal and is in; the code works
once, expires, and is not burned by guessing (the guesser is slowed); revoked devices and archived
people are shut out at once; a browser's cookie is useless to another site.

The QR code is read the hard way: `hearth pair` runs under a pseudo-terminal
(pexpect), its half-block drawing is turned back into modules, scaled up
with Pillow and decoded with zxing-cpp, and the decoded URL is what pairs a
headless Chromium."""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from pathlib import Path

import pexpect
import pytest
import requests
import websocket
import zxingcpp
from PIL import Image
from selenium.webdriver.common.by import By

from conftest import (
    ADMIN_NAME,
    HOUSEHOLD_NAME,
    Hub,
    Live,
    PairingRun,
    assert_problem,
    free_loopback_port,
    hub_environment,
    require_binary,
)
from test_web_ui import (
    forget_hub,
    household_name_shown,
    live_state,
    submit_pairing_form,
    wait_for,
    wait_until_on_today,
    wait_until_today_is_ready,
)

WS_CLOSE_REVOKED = 4401
REVOCATION_S = 3  # the hub notices a change made by the CLI within about a second

# --------------------------------------------------------------------------
# The terminal QR code
# --------------------------------------------------------------------------

QR_LINE_START = "\x1b[38;5;16;48;5;231m"  # black on white, whatever the terminal's theme
QR_LINE_END = "\x1b[0m"
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# One character is two module rows: (top dark, bottom dark).
HALF_BLOCKS = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
QR_ROWS = 19  # a 33-module code (version 4) plus its 2-module quiet zone, two rows a line
PIXELS_PER_MODULE = 8


def modules_from_half_blocks(lines: list[str]) -> list[list[bool]]:
    """The module grid (True = dark) drawn by lines of half blocks."""
    grid: list[list[bool]] = []
    for line in lines:
        text = ANSI_ESCAPE.sub("", line)
        unknown = set(text) - set(HALF_BLOCKS)
        assert not unknown, f"not a half block: {unknown!r} in {text!r}"
        grid.append([HALF_BLOCKS[c][0] for c in text])
        grid.append([HALF_BLOCKS[c][1] for c in text])
    return grid


def qr_image(grid: list[list[bool]], margin_modules: int = 4) -> Image.Image:
    """Black modules on white, scaled up, with extra white around (as a
    phone would see the terminal)."""
    width, height = len(grid[0]), len(grid)
    image = Image.new("L", (width + 2 * margin_modules, height + 2 * margin_modules), 255)
    for y, row in enumerate(grid):
        for x, dark in enumerate(row):
            if dark:
                image.putpixel((x + margin_modules, y + margin_modules), 0)
    return image.resize((image.width * PIXELS_PER_MODULE, image.height * PIXELS_PER_MODULE), Image.NEAREST)


def spawn_pair(hub: Hub, *args: str) -> pexpect.spawn:
    """`hearth pair ARGS` in an 80×24 pseudo-terminal, as over SSH."""
    env = hub_environment({"HEARTH_HTTP_PORT": str(hub.port), "TERM": "xterm-256color"})
    return pexpect.spawn(str(require_binary()),
                         ["pair", "--data", str(hub.data_dir), "--url-host", "127.0.0.1", *args],
                         env=env, encoding="utf-8", dimensions=(24, 80), timeout=10)


def end_terminal(terminal: pexpect.spawn) -> None:
    """Ends a `hearth pair` still waiting for its device as a person does
    (Ctrl-C), and waits until it has exited. pexpect's own close(force=True)
    gives a child 0.1 s after each signal, which a loaded machine overran
    once ("Could not terminate the child"). A second Ctrl-C, as a person
    presses again, when the first has not ended it in 3 s: once, in a loaded
    run on the release build, the first was not acted on for 10 s (alone,
    one Ctrl-C ends it at once; `hearth pair` has no SIGINT handler of its
    own)."""
    try:
        if terminal.isalive():
            terminal.sendintr()
            if terminal.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=3) == 1:
                terminal.sendintr()
                terminal.expect(pexpect.EOF, timeout=10)
            terminal.wait()
    finally:
        terminal.close(force=True)


def test_terminal_qr_code_decodes_to_the_printed_url_and_pairs_a_browser(browser, hub):
    terminal = spawn_pair(hub, "--new-person", "Test Person", "--role", "caregiver")
    try:
        terminal.expect(r"Scan it, or open: (http://\S+)\r\n")
        qr_screen, printed_url = terminal.before, terminal.match.group(1)
        terminal.expect(r"Code to type: [0-9A-Z]{4}-[0-9A-Z]{4} +For: Test Person \(caregiver\)\r\n")
        terminal.expect(r"Waiting for the device… expires in (\d+):(\d\d)")
        minutes, seconds = map(int, terminal.match.groups())
        assert 9 * 60 + 50 <= minutes * 60 + seconds <= 10 * 60, "counting down from the default 10 minutes"

        # The drawing: every line dark-on-light in its own colours, all of it
        # (with the four lines of text under it) inside 80×24.
        lines = [line for line in qr_screen.split("\r\n") if line]
        assert len(lines) == QR_ROWS, qr_screen
        for line in lines:
            assert line.startswith(QR_LINE_START) and line.endswith(QR_LINE_END), repr(line)
        grid = modules_from_half_blocks(lines)
        width = len(grid[0])
        assert all(len(row) == width for row in grid)
        assert width <= 80 and QR_ROWS + 4 <= 24
        quiet = [row[:2] + row[-2:] for row in grid] + grid[:2] + grid[-3:]
        assert not any(any(row) for row in quiet), "a 2-module light quiet zone all round"

        decoded = zxingcpp.read_barcodes(qr_image(grid), formats=zxingcpp.BarcodeFormat.QRCode)
        assert [code.text for code in decoded] == [printed_url]
        assert re.fullmatch(rf"{re.escape(hub.url)}/pair#[A-Za-z0-9_-]{{22}}", printed_url)

        # The phone opens what it scanned.
        forget_hub(browser, hub)
        browser.get(decoded[0].text)
        wait_for(browser, "the pairing form at /pair, the secret gone from the address bar",
                 lambda d: d.current_url == f"{hub.url}/pair" and d.find_elements(By.ID, "pair-button"))
        submit_pairing_form(browser, "Kitchen tablet")
        wait_until_on_today(browser, hub)
        wait_until_today_is_ready(browser)

        terminal.expect(r"Paired: Kitchen tablet \(Test Person, caregiver\)\r\n")
        terminal.expect(pexpect.EOF)
    finally:
        end_terminal(terminal)
    assert terminal.exitstatus == 0, (terminal.exitstatus, terminal.signalstatus)

    devices = hub.devices()
    tablet = next(d for d in devices if d["name"] == "Kitchen tablet")
    assert len(devices) == 2 and not tablet["revoked"]
    cookie = next(c for c in browser.get_cookies() if c["name"] == "hearth_device")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"

    # The admin revokes the tablet: its open page says at once that it is no longer paired.
    revoke = hub.hearth("devices", "revoke", tablet["id"][:8])
    assert revoke.returncode == 0, revoke.stderr
    wait_for(browser, "the not-paired message",
             lambda d: d.execute_script("return document.getElementById('unpaired')?.innerText ?? ''"),
             timeout=REVOCATION_S + 2)
    assert live_state(browser) == "disconnected"
    assert household_name_shown(browser) in (None, ""), "a removed device shows nothing of the household"

    # The same link again, on another phone: refused, said so, nothing added.
    forget_hub(browser, hub)
    browser.get(printed_url)
    wait_for(browser, "the pairing form", lambda d: d.current_url == f"{hub.url}/pair"
             and d.find_elements(By.ID, "pair-button"))
    submit_pairing_form(browser, "Second phone")
    wait_for(browser, "the refusal", lambda d: "does not work" in d.find_element(By.ID, "problem").text)
    assert "expired" in browser.find_element(By.ID, "problem").text
    assert browser.current_url == f"{hub.url}/pair"
    assert "hearth_device" not in {c["name"] for c in browser.get_cookies()}
    assert [d["name"] for d in hub.devices()] == ["e2e admin"], "revoked devices are not listed"
    listed = hub.hearth("devices", "list")
    assert listed.returncode == 0, listed.stderr
    rows = listed.stdout.strip().splitlines()[1:]  # under the header
    assert len(rows) == 2, listed.stdout
    assert any("Kitchen tablet" in row and "revoked" in row for row in rows), listed.stdout


# --------------------------------------------------------------------------
# Codes: typed, guessed, rate-limited
# --------------------------------------------------------------------------


def exchange(hub: Hub, **body) -> requests.Response:
    return requests.post(f"{hub.url}/api/v1/pairing", json=body, timeout=5)


def test_the_name_given_to_hearth_pair_is_kept_unless_the_person_types_another(browser, hub):
    """`hearth pair --device-name` names the device; the page's own guess
    ("Computer") gives way to it, and only a name typed on the page wins."""
    run = hub.start_pairing("--new-person", "Babcia Zosia", "--role", "senior", "--device-name", "Kitchen tablet")
    forget_hub(browser, hub)
    browser.get(run.url)
    wait_for(browser, "the pairing form", lambda d: d.current_url == f"{hub.url}/pair" and d.find_elements(By.ID, "pair-button"))
    browser.find_element(By.ID, "pair-button").click()
    wait_until_on_today(browser, hub)
    run.expect_paired("Kitchen tablet (Babcia Zosia, senior)")
    assert "Kitchen tablet" in [d["name"] for d in hub.devices()]


def test_hearth_pair_links_to_the_port_the_running_hub_serves_on(hub):
    """The hub was started with --port (not the configuration's 8080): the
    link `hearth pair` prints still reaches it, and --port says otherwise."""
    def printed_url(*args: str) -> str:
        terminal = pexpect.spawn(str(require_binary()),
                                 ["pair", "--data", str(hub.data_dir), "--url-host", "127.0.0.1",
                                  "--new-person", "Ktoś", "--role", "caregiver", *args],
                                 env=hub_environment({"TERM": "xterm-256color"}), encoding="utf-8",
                                 dimensions=(24, 80), timeout=10)
        try:
            terminal.expect(r"Scan it, or open: (http://\S+)\r\n")
            return terminal.match.group(1)
        finally:
            end_terminal(terminal)

    assert printed_url().startswith(f"{hub.url}/pair#")
    assert printed_url("--port", "8123").startswith("http://127.0.0.1:8123/pair#")
    refused = hub.hearth("pair", "--port", "70000", "--new-person", "Ktoś", "--role", "caregiver")
    assert refused.returncode != 0 and "--port must be from 1 to 65535" in refused.stderr


def test_a_typed_short_code_pairs_in_any_case_with_or_without_the_dash(hub):
    for typed, person in [(str.lower, "Jan"), (lambda code: code.replace("-", " "), "Maria")]:
        run = hub.start_pairing("--new-person", person, "--role", "caregiver")
        response = exchange(hub, shortCode=typed(run.short_code), deviceName=f"Telefon {person}")
        assert response.status_code == 201, response.text
        body = response.json()
        assert body["person"] == {**body["person"], "name": person, "role": "caregiver"}
        assert len(body["token"]) == 43
        assert "hearth_device=" + body["token"] in response.headers["Set-Cookie"]
        run.expect_paired(f"Telefon {person} ({person}, caregiver)")
        household = requests.get(f"{hub.url}/api/v1/household",
                                 headers={"Authorization": f"Bearer {body['token']}"}, timeout=5)
        assert household.status_code == 200 and household.json()["name"] == HOUSEHOLD_NAME


def wrong_codes(right: list[str], count: int) -> list[str]:
    candidates = (f"{c * 4}-{c * 4}" for c in "0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    return [code for code in candidates if code not in right][:count]


def exchange_from(hub, source: str, **body) -> requests.Response:
    """POST /api/v1/pairing from another loopback address (the whole of 127/8 is this machine's)."""
    session = requests.Session()
    adapter = SourceAddressAdapter(source)
    session.mount("http://", adapter)
    return session.post(f"{hub.url}/api/v1/pairing", json=body, timeout=5)


class SourceAddressAdapter(requests.adapters.HTTPAdapter):
    def __init__(self, source: str):
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.source, 0)
        super().init_poolmanager(*args, **kwargs)


def test_a_guesser_of_short_codes_is_slowed_and_ends_nobodys_code(hub):
    scanned = hub.start_pairing("--new-person", "Scan Later", "--role", "caregiver")
    typed = hub.start_pairing("--new-person", "Type Later", "--role", "senior")
    guesses = wrong_codes([scanned.short_code, typed.short_code], 6)
    for guess in guesses[:5]:
        assert_problem(exchange_from(hub, "127.0.0.2", shortCode=guess, deviceName="Guesser"), 404, "not-found")
    # The guesser now waits, and waits longer for each further wrong code.
    slowed = exchange_from(hub, "127.0.0.2", shortCode=guesses[5], deviceName="Guesser")
    body = assert_problem(slowed, 429, "rate-limited")
    assert "try again" in body["detail"] and 1 <= int(slowed.headers["Retry-After"]) <= 30

    # Nobody else's code was burned: the admin's QR invitation and the typed one both pair.
    scanned_answer = exchange_from(hub, "127.0.0.3", code=scanned.secret, deviceName="Telefon")
    assert scanned_answer.status_code == 201, scanned_answer.text
    typed_answer = exchange_from(hub, "127.0.0.4", shortCode=typed.short_code, deviceName="Tablet")
    assert typed_answer.status_code == 201, typed_answer.text
    # Each `hearth pair` is to say so (check_pairings, after the test).
    scanned.expect_device("Telefon")
    typed.expect_device("Tablet")


def test_pairing_attempts_are_rate_limited_per_address(hub_process):
    # Right-looking secrets that are no code: not typed guesses, so only the general limit applies.
    responses = [exchange(hub_process, code="A" * 22, deviceName="Guesser") for _ in range(11)]
    assert [r.status_code for r in responses[:10]] == [404] * 10
    body = assert_problem(responses[10], 429, "rate-limited")
    assert "try again" in body["detail"]
    assert 0 < int(responses[10].headers["Retry-After"]) <= 60


# --------------------------------------------------------------------------
# Revocation, archiving, other sites
# --------------------------------------------------------------------------


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def wait_for_status(url: str, headers: dict, status: int, timeout: float = REVOCATION_S) -> requests.Response:
    deadline = time.monotonic() + timeout
    while True:
        response = requests.get(url, headers=headers, timeout=5)
        if response.status_code == status or time.monotonic() > deadline:
            return response
        time.sleep(0.1)


def test_revocation_shuts_a_device_out_and_closes_its_live_socket(hub):
    phone = hub.pair_device("--new-person", "Kasia", "--role", "caregiver", device_name="Telefon Kasi", wait=False)
    laptop = hub.pair_device("--person", "Kasia", device_name="Laptop Kasi", wait=False)
    household_url = f"{hub.url}/api/v1/household"
    assert requests.get(household_url, headers=bearer(phone["token"]), timeout=5).status_code == 200

    with Live(hub.ws_url, token=phone["token"]) as phone_live, Live(hub.ws_url, token=hub.token) as admin_live:
        assert phone_live.frame()["type"] == "hello"
        assert admin_live.frame()["type"] == "hello"
        started = time.monotonic()
        result = hub.hearth("devices", "revoke", phone["device"]["id"])
        assert result.returncode == 0, result.stderr
        code, reason = phone_live.close_frame(timeout=REVOCATION_S)
        assert time.monotonic() - started < REVOCATION_S
        assert code == WS_CLOSE_REVOKED and reason.startswith("revoked"), (code, reason)
        assert admin_live.frame()["entity"] == "device", "the admin's screen hears of it"

    assert_problem(requests.get(household_url, headers=bearer(phone["token"]), timeout=5), 401, "unpaired")
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        Live(hub.ws_url, token=phone["token"])
    assert refused.value.status_code == 400

    # An admin can also revoke over the API; the rest of the household is unaffected.
    response = requests.delete(f"{hub.url}/api/v1/devices/{laptop['device']['id']}", headers=hub.headers, timeout=5)
    assert response.status_code == 204, response.text
    assert_problem(requests.get(household_url, headers=bearer(laptop["token"]), timeout=5), 401, "unpaired")
    assert requests.get(household_url, headers=hub.headers, timeout=5).status_code == 200
    listed = hub.hearth("devices", "list")
    assert listed.returncode == 0, listed.stderr
    assert sum("revoked" in line for line in listed.stdout.splitlines()) == 2, listed.stdout


def test_an_archived_persons_devices_are_shut_out(hub):
    device = hub.pair_device("--new-person", "Archie", "--role", "caregiver", device_name="Telefon Archiego",
                             wait=False)
    url = f"{hub.url}/api/v1/household"
    assert requests.get(url, headers=bearer(device["token"]), timeout=5).status_code == 200
    result = hub.hearth("people", "archive", "Archie")
    assert result.returncode == 0, result.stderr
    assert_problem(wait_for_status(url, bearer(device["token"]), 401), 401, "unpaired")
    assert requests.get(url, headers=hub.headers, timeout=5).status_code == 200


EVIL = "http://evil.example"


def test_the_cookie_is_useless_to_another_sites_page(hub):
    """A page elsewhere that makes this browser send its cookie: 403, and
    nothing changes. The hub's own page (matching Origin) works."""
    cookie = {"hearth_device": hub.token}
    before = requests.get(f"{hub.url}/api/v1/household", headers=hub.headers, timeout=5).json()
    admin_device = hub.devices()[0]["id"]
    refused = [
        requests.post(f"{hub.url}/api/v1/pairing", json={"shortCode": "0000-0000", "deviceName": "x"},
                      cookies=cookie, headers={"Origin": EVIL}, timeout=5),
        requests.patch(f"{hub.url}/api/v1/household", json={"name": "Hijacked"},
                       cookies=cookie, headers={"Origin": EVIL}, timeout=5),
        requests.delete(f"{hub.url}/api/v1/devices/{admin_device}", cookies=cookie,
                        headers={"Origin": EVIL}, timeout=5),
        # A cookie comes only from a browser, and browsers send Origin: none is suspicious.
        requests.patch(f"{hub.url}/api/v1/household", json={"name": "Hijacked"}, cookies=cookie, timeout=5),
    ]
    for response in refused:
        assert_problem(response, 403, "cross-origin")
    assert requests.get(f"{hub.url}/api/v1/household", headers=hub.headers, timeout=5).json() == before
    assert not hub.devices()[0]["revoked"]

    # Reading with the cookie, and changing from the hub's own page, work.
    assert requests.get(f"{hub.url}/api/v1/household", cookies=cookie, timeout=5).status_code == 200
    renamed = requests.patch(f"{hub.url}/api/v1/household", json={"name": "Dom Łęckich"},
                             cookies=cookie, headers={"Origin": hub.url}, timeout=5)
    assert renamed.status_code == 200, renamed.text


def test_a_websocket_with_the_cookie_needs_the_hubs_origin(hub):
    for origin in (None, EVIL):
        with pytest.raises(websocket.WebSocketBadStatusException) as refused:
            Live(hub.ws_url, cookie=hub.token, origin=origin)
        assert refused.value.status_code == 400, origin
    with Live(hub.ws_url, cookie=hub.token, origin=hub.url) as listener:
        assert listener.frame()["type"] == "hello"


# --------------------------------------------------------------------------
# Expiry (last: its 30 seconds pass while the other tests run)
# --------------------------------------------------------------------------


class ExpiringCode:
    """`hearth pair --ttl 30s` (the shortest allowed) for a household with
    nobody in it and no hub running, started as soon as the run is collected
    so its 30 s overlap the other tests."""

    def __init__(self):
        self.run: PairingRun | None = None
        self.data_dir: Path | None = None
        self.started_at = 0.0

    def start(self) -> None:
        if self.run is None:
            self.data_dir = Path(tempfile.mkdtemp(prefix="hearth-e2e-expiry-")) / "data"
            self.started_at = time.monotonic()
            self.run = PairingRun.start(self.data_dir, free_loopback_port(), ["--ttl", "30s"])


EXPIRING = ExpiringCode()


@pytest.mark.started_with_the_run(start=EXPIRING.start)
def test_an_unused_code_expires_and_then_fails(hub_launcher):
    EXPIRING.start()  # already running unless this test was run on its own
    run = EXPIRING.run
    try:
        assert run.who == "Admin (admin)", "an empty household's first code is for its admin"
        code, rest = run.finish(timeout=45)
        assert (code, rest) == (1, ["Expired"])
        # When it printed `Expired`, not when this test got to read it: the
        # tests before this one may run past the 30 s.
        waited = run.ended_at - EXPIRING.started_at
        assert 29 <= waited < 35, f"expired after {waited:.1f} s"

        hub = hub_launcher.start(data_dir=EXPIRING.data_dir)
        assert_problem(exchange(hub, code=run.secret, deviceName="Late phone"), 404, "not-found")
        assert_problem(exchange(hub, shortCode=run.short_code, deviceName="Late phone"), 404, "not-found")
        people = hub.hearth("people", "list")
        assert people.returncode == 0 and "Nobody yet" in people.stdout, people.stdout
    finally:
        run.kill()
        hub_launcher.stop_all()
        shutil.rmtree(EXPIRING.data_dir.parent, ignore_errors=True)


def test_a_code_made_on_a_page_links_to_the_hub_not_to_the_host_the_page_named(hub):
    """A page can send any Host header; the code's link (and its secret) must
    still go to the hub's own address, as `hearth pair` prints it."""
    response = requests.post(f"{hub.url}/api/v1/pairing/invitations", timeout=5,
                             headers={**hub.headers, "Host": "evil.example:8080"},
                             json={"newPerson": {"name": "Ciocia Ela", "role": "caregiver"}})
    assert response.status_code == 201, response.text
    url = response.json()["url"]
    assert url.startswith(f"{hub.url}/pair#"), url
    assert "evil" not in url

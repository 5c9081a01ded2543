"""The HTTP and WebSocket API against the real binary: what a device or the
web app gets back, including for bad input, and live change frames."""

from __future__ import annotations

import json
import uuid
from datetime import datetime

import pytest
import requests
import websocket

from conftest import HOUSEHOLD_NAME, run_hearth

PROBLEM_JSON = "application/problem+json"
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
ONE_MIB = 1024 * 1024
WS_CLOSE_INVALID_CURSOR = 4400
WS_CLOSE_CURSOR_AHEAD = 4409
QUIET_S = 0.7  # how long "no further frame" is waited for


def household(hub: str) -> dict:
    response = requests.get(f"{hub}/api/v1/household", timeout=5)
    assert response.status_code == 200, response.text
    return response.json()


def rename(hub: str, name: str) -> dict:
    response = requests.patch(f"{hub}/api/v1/household", json={"name": name}, timeout=5)
    assert response.status_code == 200, response.text
    return response.json()


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


def assert_security_headers(response: requests.Response) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert response.headers.get(name) == value, (
            f"{response.request.method} {response.request.url}: {name} is "
            f"{response.headers.get(name)!r}, expected {value!r}"
        )


# --------------------------------------------------------------------------
# Health and household
# --------------------------------------------------------------------------


def test_health_reports_ok_and_the_binary_version(hub):
    response = requests.get(f"{hub}/api/v1/health", timeout=5)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("application/json")
    body = response.json()
    version = run_hearth(["--version"]).stdout.strip()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["version"] == version == "0.1.0"
    assert isinstance(body["uptimeSeconds"], int) and 0 <= body["uptimeSeconds"] < 60


def test_household_has_the_configured_name_and_an_identity(hub):
    body = household(hub)
    assert body["name"] == HOUSEHOLD_NAME  # diacritics intact
    uuid.UUID(body["id"])
    assert body["timeZone"]
    created = datetime.fromisoformat(body["createdAt"].replace("Z", "+00:00"))
    assert created.utcoffset().total_seconds() == 0, "dates are UTC"


def test_rename_is_returned_and_kept(hub):
    before = household(hub)
    answer = rename(hub, "  Kowalscy z Żoliborza  ")
    assert answer["name"] == "Kowalscy z Żoliborza", "surrounding spaces are trimmed"
    assert answer["id"] == before["id"]
    assert household(hub)["name"] == "Kowalscy z Żoliborza"


def test_invalid_rename_gets_per_field_message_and_changes_nothing(hub):
    for name, message in [("", "must not be empty"), ("   ", "must not be empty"),
                          (5, "must be a string"), ("x" * 101, "at most 100"),
                          ("Dom\nKowalskich", "control characters")]:
        response = requests.patch(f"{hub}/api/v1/household", json={"name": name}, timeout=5)
        body = assert_problem(response, 422, "invalid")
        assert message in body["errors"]["name"], body
    assert household(hub)["name"] == HOUSEHOLD_NAME


def test_json_that_is_not_an_object_is_explained_in_plain_words(hub):
    response = requests.patch(f"{hub}/api/v1/household", data="[1]",
                              headers={"Content-Type": "application/json"}, timeout=5)
    assert response.status_code in (400, 422)
    assert response.headers["Content-Type"].startswith(PROBLEM_JSON)
    detail = response.json()["detail"]
    assert "Dictionary" not in detail and "Any>" not in detail, detail
    assert "JSON object" in detail, detail


# --------------------------------------------------------------------------
# Bad input: documented status, problem+json, nothing changed, still up
# --------------------------------------------------------------------------

JSON = {"Content-Type": "application/json"}


class ChunkedBody:
    """A body of unknown length: requests sends it chunked, with no
    Content-Length for the hub to refuse up front."""

    def __init__(self, size: int):
        self.size = size

    def __iter__(self):
        for _ in range(self.size // 65536):
            yield b"x" * 65536

BAD_REQUESTS = [
    pytest.param("PATCH", "/api/v1/household", {"data": '{"name": "Unfinished', "headers": JSON},
                 400, "malformed-json", id="malformed-json"),
    pytest.param("PATCH", "/api/v1/household", {"data": "", "headers": JSON},
                 400, "malformed-json", id="empty-json-body"),
    pytest.param("PATCH", "/api/v1/household",
                 {"data": '{"name": "Plain"}', "headers": {"Content-Type": "text/plain"}},
                 415, "unsupported-media-type", id="wrong-content-type"),
    pytest.param("PATCH", "/api/v1/household",
                 {"data": "name=Form", "headers": {"Content-Type": "application/x-www-form-urlencoded"}},
                 415, "unsupported-media-type", id="form-encoded"),
    pytest.param("PATCH", "/api/v1/household",
                 {"data": json.dumps({"name": "Big", "pad": "x" * (ONE_MIB + 10)}), "headers": JSON},
                 413, "too-large", id="body-over-1-MiB"),
    pytest.param("PATCH", "/api/v1/household",
                 {"data": ChunkedBody(20 * 65536), "headers": JSON},
                 413, "too-large", id="chunked-body-over-1-MiB"),
    pytest.param("PATCH", "/api/v1/household",
                 {"data": '{"name": ' + "[" * 200_000 + "]" * 200_000 + "}", "headers": JSON},
                 400, "malformed-json", id="absurdly-deep-nesting"),
    pytest.param("PATCH", "/api/v1/household",
                 {"data": b'{"name": "\xff\xfe"}', "headers": JSON},
                 400, "malformed-json", id="invalid-utf8"),
    pytest.param("GET", "/api/v1/does-not-exist", {}, 404, "not-found", id="unknown-api-path"),
    pytest.param("GET", "/api/v2/health", {}, 404, "not-found", id="unknown-api-version"),
    pytest.param("POST", "/api/v1/nothing-here", {"json": {"name": "x"}}, 404, "not-found",
                 id="unknown-api-path-post"),
    pytest.param("GET", "/api/v1/live?since=abc", {}, 400, "invalid-cursor", id="since-not-a-number"),
    pytest.param("GET", "/api/v1/live?since=-1", {}, 400, "invalid-cursor", id="since-negative"),
    pytest.param("GET", "/api/v1/live?since=1.5", {}, 400, "invalid-cursor", id="since-fraction"),
    pytest.param("GET", "/api/v1/live?since=", {}, 400, "invalid-cursor", id="since-empty"),
    pytest.param("GET", "/api/v1/live?since=99999999999999999999", {}, 400, "invalid-cursor",
                 id="since-overflows"),
    pytest.param("GET", "/api/v1/live?since=999", {}, 409, "cursor-ahead", id="since-ahead-of-log"),
    pytest.param("GET", "/api/v1/live", {}, 426, "upgrade-required", id="live-without-websocket"),
    pytest.param("PATCH", "/api/v1/household",
                 {"json": {"name": "Hijacked"}, "headers": {"Origin": "http://evil.example"}},
                 403, "cross-origin", id="patch-from-another-site"),
]


@pytest.mark.parametrize("method, path, kwargs, status, slug", BAD_REQUESTS)
def test_bad_request_gets_its_documented_problem(hub, method, path, kwargs, status, slug):
    before = household(hub)
    response = requests.request(method, f"{hub}{path}", timeout=10, **kwargs)
    assert_problem(response, status, slug)
    assert_security_headers(response)
    assert household(hub) == before, "a refused request must leave the household untouched"
    assert requests.get(f"{hub}/api/v1/health", timeout=5).json()["status"] == "ok"


# --------------------------------------------------------------------------
# Web app files and headers
# --------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/v1/health", "/api/v1/household", "/", "/index.html",
                                  "/app.js", "/notes/some-bookmark"])
def test_security_headers_on_every_response(hub, path):
    response = requests.get(f"{hub}{path}", timeout=5)
    assert response.status_code == 200
    assert_security_headers(response)


@pytest.mark.parametrize("path", ["/", "/notes", "/medications/3/history", "/apix"])
def test_paths_outside_the_api_serve_the_app(hub, path):
    response = requests.get(f"{hub}{path}", timeout=5)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/html")
    assert '<main id="main"' in response.text
    assert '<script type="module" src="/app.js">' in response.text


@pytest.mark.parametrize("path, content_type", [
    ("/app.js", "text/javascript"),
    ("/style.css", "text/css"),
    ("/i18n/pl.json", "application/json"),
    ("/favicon.svg", "image/svg+xml"),
])
def test_web_files_have_a_content_type_and_revalidate_by_etag(hub, path, content_type):
    """A wrong type stops a browser from running the app (module scripts are
    checked strictly, and nosniff is on); the ETag spares a slow Pi."""
    first = requests.get(f"{hub}{path}", timeout=5)
    assert first.status_code == 200
    assert first.headers["Content-Type"].split(";")[0] == content_type
    etag = first.headers.get("ETag")
    assert etag, f"{path} has no ETag"
    again = requests.get(f"{hub}{path}", headers={"If-None-Match": etag}, timeout=5)
    assert again.status_code == 304
    assert again.content == b""


def test_polish_dictionary_is_served_as_utf8(hub):
    response = requests.get(f"{hub}/i18n/pl.json", timeout=5)
    response.encoding = "utf-8"
    assert response.json()["pages"]["today"] == "Dzisiaj"


# --------------------------------------------------------------------------
# Live changes over WebSocket
# --------------------------------------------------------------------------


class Live:
    """One WS /api/v1/live connection with helpers."""

    def __init__(self, base_ws: str, query: str = "", origin: str | None = None):
        # Without `origin`, websocket-client sends no Origin: a device, not a page.
        options = {"origin": origin} if origin else {"suppress_origin": True}
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


def test_live_says_hello_with_the_latest_seq(hub_process):
    with Live(hub_process.ws_url) as live:
        hello = live.frame()
        # A fresh hub's log holds one change: the household's creation.
        assert hello == {"type": "hello", "seq": 1}
        live.assert_quiet()


def test_a_rename_reaches_every_live_listener_exactly_once(hub_process):
    hub = hub_process.url
    home = household(hub)
    with Live(hub_process.ws_url) as first, Live(hub_process.ws_url) as second:
        hellos = [first.frame(), second.frame()]
        seq = hellos[0]["seq"]
        assert hellos[1]["seq"] == seq
        rename(hub, "Babcia Jadzia i reszta")
        for live in (first, second):
            change = live.frame()
            assert change["type"] == "change"
            assert change["seq"] == seq + 1
            assert change["entity"] == "household"
            assert change["entityId"] == home["id"]
            assert change["op"] == "update"
            assert change["payload"]["name"] == "Babcia Jadzia i reszta"
            assert change["actor"]
            datetime.fromisoformat(change["time"].replace("Z", "+00:00"))
            live.assert_quiet()


def test_reconnecting_with_a_cursor_replays_exactly_what_was_missed(hub_process):
    hub, ws = hub_process.url, hub_process.ws_url
    with Live(ws) as live:
        hello_seq = live.frame()["seq"]
    assert hello_seq == 1
    rename(hub, "Pierwsza zmiana")  # seq 2, made while nobody listened

    # Resuming from the first hello: only the missed rename comes back.
    with Live(ws, f"?since={hello_seq}") as live:
        assert live.frame() == {"type": "hello", "seq": 2}
        missed = live.frame()
        assert (missed["seq"], missed["op"], missed["payload"]["name"]) == (2, "update", "Pierwsza zmiana")
        live.assert_quiet()

    # Up to date: nothing old is replayed.
    with Live(ws, "?since=2") as live:
        assert live.frame() == {"type": "hello", "seq": 2}
        live.assert_quiet()

    # From the start: the household's creation, then the rename, in order.
    with Live(ws, "?since=0") as live:
        assert live.frame() == {"type": "hello", "seq": 2}
        created, renamed = live.frame(), live.frame()
        assert (created["seq"], created["entity"], created["op"]) == (1, "household", "create")
        assert created["payload"]["name"] == HOUSEHOLD_NAME
        assert (renamed["seq"], renamed["op"]) == (2, "update")
        live.assert_quiet()
        # ...and then live changes follow on the same connection.
        rename(hub, "Druga zmiana")
        live_change = live.frame()
        assert (live_change["seq"], live_change["payload"]["name"]) == (3, "Druga zmiana")


@pytest.mark.parametrize("query, code, reason", [
    ("?since=abc", WS_CLOSE_INVALID_CURSOR, "invalid-cursor"),
    ("?since=-1", WS_CLOSE_INVALID_CURSOR, "invalid-cursor"),
    ("?since=999", WS_CLOSE_CURSOR_AHEAD, "cursor-ahead"),
])
def test_websocket_with_a_bad_cursor_is_closed_with_a_reason(hub_process, query, code, reason):
    """A browser cannot read the HTTP status of a refused upgrade, so the hub
    accepts it and closes at once with a documented code and reason."""
    with Live(hub_process.ws_url, query) as live:
        got_code, got_reason = live.close_frame()
    assert got_code == code
    assert got_reason.startswith(reason), got_reason
    assert requests.get(f"{hub_process.url}/api/v1/health", timeout=5).json()["status"] == "ok"


def test_websocket_from_another_sites_page_is_refused(hub_process):
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        Live(hub_process.ws_url, origin="http://evil.example")
    assert refused.value.status_code in (400, 403)


def test_websocket_from_the_hubs_own_page_is_accepted(hub_process):
    with Live(hub_process.ws_url, origin=hub_process.url) as live:
        assert live.frame()["type"] == "hello"


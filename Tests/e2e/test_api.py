"""The HTTP and WebSocket API against the real binary: what a device or the
web app gets back, including for bad input, and live change frames. A paired
device (the `hub` fixture's admin) is needed for everything but health and
pairing; what an unpaired caller gets is checked here too."""

from __future__ import annotations

import json
import uuid
from datetime import datetime

import pytest
import requests
import websocket

from conftest import HOUSEHOLD_NAME, PROBLEM_JSON, Hub, Live, assert_problem, run_hearth

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
ONE_MIB = 1024 * 1024
WS_CLOSE_INVALID_CURSOR = 4400
WS_CLOSE_CURSOR_AHEAD = 4409


def household(hub: Hub) -> dict:
    response = requests.get(f"{hub.url}/api/v1/household", headers=hub.headers, timeout=5)
    assert response.status_code == 200, response.text
    return response.json()


def rename(hub: Hub, name: str) -> dict:
    response = requests.patch(f"{hub.url}/api/v1/household", json={"name": name},
                              headers=hub.headers, timeout=5)
    assert response.status_code == 200, response.text
    return response.json()


def with_auth(hub: Hub, kwargs: dict) -> dict:
    """kwargs for requests with the admin device's Authorization added."""
    return {**kwargs, "headers": {**kwargs.get("headers", {}), **hub.headers}}


def assert_security_headers(response: requests.Response) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert response.headers.get(name) == value, (
            f"{response.request.method} {response.request.url}: {name} is "
            f"{response.headers.get(name)!r}, expected {value!r}"
        )


# --------------------------------------------------------------------------
# Health and household
# --------------------------------------------------------------------------


def test_health_reports_ok_and_the_binary_version(hub_process):
    """Public: a device checks it found a hub before it is paired. Only an
    admin's device is told more (webhook times would tell when an SOS fired)."""
    response = requests.get(f"{hub_process.url}/api/v1/health", timeout=5)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("application/json")
    version = run_hearth(["--version"]).stdout.strip()
    assert response.json() == {"status": "ok", "version": version}
    assert version == "0.1.0"
    hub_process.pair_admin()
    body = requests.get(f"{hub_process.url}/api/v1/health", headers=hub_process.headers, timeout=5).json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert isinstance(body["uptimeSeconds"], int) and 0 <= body["uptimeSeconds"] < 60
    # Test hubs are started with discovery off (see test_discovery.py for on).
    assert body["discovery"] == {"state": "disabled", "services": []}


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
        response = requests.patch(f"{hub.url}/api/v1/household", json={"name": name},
                                  headers=hub.headers, timeout=5)
        body = assert_problem(response, 422, "invalid")
        assert message in body["errors"]["name"], body
    assert household(hub)["name"] == HOUSEHOLD_NAME


def test_json_that_is_not_an_object_is_explained_in_plain_words(hub):
    response = requests.patch(f"{hub.url}/api/v1/household", data="[1]",
                              headers={"Content-Type": "application/json", **hub.headers}, timeout=5)
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
def test_bad_request_gets_its_documented_problem(shared_hub, method, path, kwargs, status, slug):
    hub = shared_hub
    before = household(hub)
    response = requests.request(method, f"{hub.url}{path}", timeout=10, **with_auth(hub, kwargs))
    assert_problem(response, status, slug)
    assert_security_headers(response)
    assert household(hub) == before, "a refused request must leave the household untouched"
    assert requests.get(f"{hub.url}/api/v1/health", timeout=5).json()["status"] == "ok"


# --------------------------------------------------------------------------
# Unpaired callers: 401 everywhere but health and pairing, nothing changed
# --------------------------------------------------------------------------

PROTECTED_REQUESTS = [
    pytest.param("GET", "/api/v1/household", {}, id="read-household"),
    pytest.param("PATCH", "/api/v1/household", {"json": {"name": "Hijacked"}}, id="rename-household"),
    pytest.param("GET", "/api/v1/people", {}, id="list-people"),
    pytest.param("GET", "/api/v1/devices", {}, id="list-devices"),
    pytest.param("DELETE", "/api/v1/devices/{admin_device}", {}, id="revoke-a-device"),
    pytest.param("GET", "/api/v1/live", {}, id="live-as-plain-get"),
    pytest.param("GET", "/api/v1/live?since=0", {}, id="live-replay"),
    pytest.param("GET", "/api/v1/does-not-exist", {}, id="unknown-api-path"),
    pytest.param("POST", "/api/v1/nothing-here", {"json": {"name": "x"}}, id="unknown-api-path-post"),
    pytest.param("GET", "/api", {}, id="api-root"),
    pytest.param("GET", "/api/v2/health", {}, id="unknown-api-version"),
]

# How an unpaired caller may present itself; none of these is a paired device.
FORGED_CREDENTIALS = [
    pytest.param({}, id="no-credentials"),
    pytest.param({"cookies": {"hearth_device": "A" * 43}}, id="forged-cookie"),
    pytest.param({"headers": {"Authorization": "Bearer " + "A" * 43}}, id="forged-bearer"),
    pytest.param({"headers": {"Authorization": "Bearer "}}, id="empty-bearer"),
    pytest.param({"headers": {"Authorization": "Basic YWRtaW46YWRtaW4="}}, id="basic-auth"),
]


@pytest.mark.parametrize("credentials", FORGED_CREDENTIALS)
def test_unpaired_callers_get_401_and_change_nothing(hub, credentials):
    """Every protected route, without a paired device's token, answers 401
    problem+json `unpaired` (not 404 or 403, which would tell what exists)."""
    admin_device = next(d["id"] for d in hub.devices() if d["current"])
    before = household(hub)
    for param in PROTECTED_REQUESTS:
        method, path, kwargs = param.values
        request_kwargs = {**kwargs, **credentials}
        headers = {**kwargs.get("headers", {}), **credentials.get("headers", {})}
        if method != "GET":
            headers["Origin"] = hub.url  # as a browser on the hub's page would send
        request_kwargs["headers"] = headers
        response = requests.request(method, hub.url + path.format(admin_device=admin_device),
                                    timeout=5, **request_kwargs)
        assert_problem(response, 401, "unpaired")
        assert_security_headers(response)
        assert "Set-Cookie" not in response.headers
    assert household(hub) == before, "an unpaired request must change nothing"
    assert [d["id"] for d in hub.devices() if not d["revoked"]] == [admin_device]


def test_health_and_the_web_app_need_no_pairing(hub_process):
    for method in ("GET", "HEAD"):
        response = requests.request(method, f"{hub_process.url}/api/v1/health", timeout=5)
        assert response.status_code == 200, (method, response.status_code)
    for path in ("/", "/pair", "/app.js", "/i18n/en.json"):
        assert requests.get(f"{hub_process.url}{path}", timeout=5).status_code == 200, path


# --------------------------------------------------------------------------
# Web app files and headers
# --------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/v1/health", "/api/v1/household", "/", "/index.html",
                                  "/app.js", "/notes/some-bookmark", "/pair"])
def test_security_headers_on_every_response(shared_hub, path):
    hub = shared_hub
    response = requests.get(f"{hub.url}{path}", headers=hub.headers, timeout=5)
    assert response.status_code == 200
    assert_security_headers(response)


@pytest.mark.parametrize("path", ["/", "/notes", "/medications/3/history", "/apix", "/pair"])
def test_paths_outside_the_api_serve_the_app(shared_hub, path):
    """Also /pair, the address in the QR code: the app reads the code from
    the fragment, which the browser never sends."""
    response = requests.get(f"{shared_hub.url}{path}", timeout=5)
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
def test_web_files_have_a_content_type_and_revalidate_by_etag(shared_hub, path, content_type):
    """A wrong type stops a browser from running the app (module scripts are
    checked strictly, and nosniff is on); the ETag spares a slow Pi."""
    hub = shared_hub.url
    first = requests.get(f"{hub}{path}", timeout=5)
    assert first.status_code == 200
    assert first.headers["Content-Type"].split(";")[0] == content_type
    etag = first.headers.get("ETag")
    assert etag, f"{path} has no ETag"
    again = requests.get(f"{hub}{path}", headers={"If-None-Match": etag}, timeout=5)
    assert again.status_code == 304
    assert again.content == b""


def test_polish_dictionary_is_served_as_utf8(hub_process):
    response = requests.get(f"{hub_process.url}/i18n/pl.json", timeout=5)
    response.encoding = "utf-8"
    assert response.json()["pages"]["today"] == "Dzisiaj"


# --------------------------------------------------------------------------
# Live changes over WebSocket
# --------------------------------------------------------------------------


def live(hub: Hub, query: str = "", **options) -> Live:
    """A live connection as the hub's paired admin device."""
    return Live(hub.ws_url, query, token=hub.token, **options)


def test_live_says_hello_with_the_latest_seq(hub):
    # The log so far: the household's creation, then the admin's pairing.
    with live(hub, "?since=0") as replay:
        latest = replay.frame()
        assert latest["type"] == "hello" and isinstance(latest["seq"], int), latest
        created = replay.frame()
        assert (created["seq"], created["entity"], created["op"]) == (1, "household", "create")
        seqs = [created["seq"]]
        while seqs[-1] < latest["seq"]:
            seqs.append(replay.frame()["seq"])
        assert seqs == sorted(set(seqs)) and seqs[-1] == latest["seq"], seqs
    with live(hub) as now:
        assert now.frame() == {"type": "hello", "seq": latest["seq"]}
        now.assert_quiet()


def test_a_rename_reaches_every_live_listener_exactly_once(hub):
    home = household(hub)
    with live(hub) as first, live(hub) as second:
        hellos = [first.frame(), second.frame()]
        seq = hellos[0]["seq"]
        assert hellos[1]["seq"] == seq
        rename(hub, "Babcia Jadzia i reszta")
        for listener in (first, second):
            change = listener.frame()
            assert change["type"] == "change"
            assert change["seq"] == seq + 1
            assert change["entity"] == "household"
            assert change["entityId"] == home["id"]
            assert change["op"] == "update"
            assert change["payload"]["name"] == "Babcia Jadzia i reszta"
            assert change["actor"]
            datetime.fromisoformat(change["time"].replace("Z", "+00:00"))
            listener.assert_quiet()


def test_reconnecting_with_a_cursor_replays_exactly_what_was_missed(hub):
    with live(hub) as listener:
        hello_seq = listener.frame()["seq"]
    rename(hub, "Pierwsza zmiana")  # made while nobody listened
    first_rename = hello_seq + 1

    # Resuming from the first hello: only the missed rename comes back.
    with live(hub, f"?since={hello_seq}") as listener:
        assert listener.frame() == {"type": "hello", "seq": first_rename}
        missed = listener.frame()
        assert (missed["seq"], missed["op"], missed["payload"]["name"]) == (first_rename, "update", "Pierwsza zmiana")
        listener.assert_quiet()

    # Up to date: nothing old is replayed.
    with live(hub, f"?since={first_rename}") as listener:
        assert listener.frame() == {"type": "hello", "seq": first_rename}
        listener.assert_quiet()

    # From the start: the household's creation first, the rename last, in order.
    with live(hub, "?since=0") as listener:
        assert listener.frame() == {"type": "hello", "seq": first_rename}
        replayed = [listener.frame() for _ in range(first_rename)]
        assert [c["seq"] for c in replayed] == list(range(1, first_rename + 1))
        created, renamed = replayed[0], replayed[-1]
        assert (created["entity"], created["op"]) == ("household", "create")
        assert created["payload"]["name"] == HOUSEHOLD_NAME
        assert (renamed["entity"], renamed["op"], renamed["payload"]["name"]) == ("household", "update", "Pierwsza zmiana")
        listener.assert_quiet()
        # ...and then live changes follow on the same connection.
        rename(hub, "Druga zmiana")
        live_change = listener.frame()
        assert (live_change["seq"], live_change["payload"]["name"]) == (first_rename + 1, "Druga zmiana")


@pytest.mark.parametrize("query, code, reason", [
    ("?since=abc", WS_CLOSE_INVALID_CURSOR, "invalid-cursor"),
    ("?since=-1", WS_CLOSE_INVALID_CURSOR, "invalid-cursor"),
    ("?since=999", WS_CLOSE_CURSOR_AHEAD, "cursor-ahead"),
])
def test_websocket_with_a_bad_cursor_is_closed_with_a_reason(hub, query, code, reason):
    """A browser cannot read the HTTP status of a refused upgrade, so the hub
    accepts it and closes at once with a documented code and reason."""
    with live(hub, query) as listener:
        got_code, got_reason = listener.close_frame()
    assert got_code == code
    assert got_reason.startswith(reason), got_reason
    assert requests.get(f"{hub.url}/api/v1/health", timeout=5).json()["status"] == "ok"


def test_websocket_from_another_sites_page_is_refused(hub):
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        live(hub, origin="http://evil.example")
    assert refused.value.status_code in (400, 403)


def test_websocket_from_the_hubs_own_page_is_accepted(hub):
    with live(hub, origin=hub.url) as listener:
        assert listener.frame()["type"] == "hello"


@pytest.mark.parametrize("credentials", [
    pytest.param({}, id="no-credentials"),
    pytest.param({"token": "A" * 43}, id="forged-bearer"),
    pytest.param({"cookie": "A" * 43}, id="forged-cookie"),
])
@pytest.mark.parametrize("origin", [None, "hub"], ids=["device", "hub-page"])
def test_websocket_from_an_unpaired_caller_is_refused_before_upgrading(hub, credentials, origin):
    """Not one change (names, people) reaches a device that is not paired."""
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        Live(hub.ws_url, "?since=0", origin=hub.url if origin else None, **credentials)
    assert refused.value.status_code == 400
    with live(hub) as listener:  # the hub is fine, and the paired device still gets in
        assert listener.frame()["type"] == "hello"

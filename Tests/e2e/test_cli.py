"""The `hearth` command as an administrator meets it over SSH: version,
help, configuration mistakes, stopping, and data surviving a restart."""

from __future__ import annotations

import json
import signal
import socket
import threading
import time
from pathlib import Path

import pytest
import requests
import websocket

from conftest import EXIT_CONFIG_ERROR, STOP_TIMEOUT_S, free_loopback_ports, run_hearth


def test_version_prints_the_release_number():
    result = run_hearth(["--version"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0.1.0"


def test_help_lists_serve_and_the_exit_codes():
    result = run_hearth(["--help"])
    assert result.returncode == 0, result.stderr
    assert "serve" in result.stdout
    assert "78" in result.stdout, "the help should document the configuration-error exit code"


def test_unknown_flag_is_a_usage_error():
    result = run_hearth(["serve", "--prot", "8080"])
    assert result.returncode == 64, (result.returncode, result.stderr)
    assert "--prot" in result.stderr


# --------------------------------------------------------------------------
# Configuration mistakes: exit 78, one line naming the key, nothing touched
# --------------------------------------------------------------------------

CONFIG_MISTAKES = [
    pytest.param(
        {"yaml": "http:\n  prot: 8080\n"}, {}, [],
        ["http.prot", "hearth.yaml", "not a setting"],
        id="unknown-yaml-key",
    ),
    pytest.param(
        {}, {"HEARTH_HTTP_PORT": "eighty"}, [],
        ["http.port", "HEARTH_HTTP_PORT", "whole number"],
        id="port-not-a-number-from-env",
    ),
    pytest.param(
        {}, {}, ["--port", "70000"],
        ["http.port", "--port", "70000"],
        id="port-out-of-range-from-flag",
    ),
    pytest.param(
        {}, {"HEARTH_HTTP_PROT": "8080"}, [],
        ["HEARTH_HTTP_PROT", "not a setting"],
        id="unknown-hearth-env-var",
    ),
    pytest.param(
        {"missing_config": True}, {}, [],
        ["--config", "does-not-exist.yaml", "does not exist"],
        id="missing-config-file",
    ),
    pytest.param(
        {}, {"HEARTH_HOUSEHOLD_TIME_ZONE": "Mars/Olympus_Mons"}, [],
        ["household.timeZone", "HEARTH_HOUSEHOLD_TIME_ZONE", "Mars/Olympus_Mons"],
        id="invalid-time-zone-from-env",
    ),
    pytest.param(
        {"yaml": "household:\n  timeZone: Europe/Atlantis\n"}, {}, [],
        ["household.timeZone", "hearth.yaml", "Europe/Atlantis"],
        id="invalid-time-zone-from-yaml",
    ),
    pytest.param(
        {"yaml": "log:\n  level: loud\n"}, {}, [],
        ["log.level", "loud"],
        id="bad-log-level-from-yaml",
    ),
    pytest.param(
        {"yaml": "http: [\n"}, {}, [],
        ["hearth.yaml", "YAML"],
        id="broken-yaml",
    ),
]


@pytest.mark.parametrize("files, env, flags, must_mention", CONFIG_MISTAKES)
def test_configuration_mistake_stops_start_up_naming_the_key(tmp_path: Path, files, env, flags,
                                                            must_mention):
    data = tmp_path / "data"
    args = ["serve", "--data", str(data), "--host", "127.0.0.1"]
    # A flag would outrank HEARTH_HTTP_PORT, so that case goes without one.
    if "--port" not in flags and "HEARTH_HTTP_PORT" not in env:
        args += ["--port", "0"]
    if "yaml" in files:
        config = tmp_path / "hearth.yaml"
        config.write_text(files["yaml"])
        args += ["--config", str(config)]
    if files.get("missing_config"):
        args += ["--config", str(tmp_path / "does-not-exist.yaml")]
    args += flags

    result = run_hearth(args, env=env, cwd=tmp_path)

    assert result.returncode == EXIT_CONFIG_ERROR, (
        f"expected exit {EXIT_CONFIG_ERROR} (configuration error), got {result.returncode}\n"
        f"stdout: {result.stdout}\nstderr: {result.stderr}"
    )
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one clear line on stderr, got:\n{result.stderr}"
    line = lines[0]
    assert line.startswith("hearth: configuration:"), line
    for word in must_mention:
        assert word in line, f"{word!r} not named in: {line}"
    assert "Hearth is running" not in result.stdout
    assert not data.exists(), "a refused configuration must not create the data directory"


def test_configuration_sources_rise_file_then_environment_then_flags(hub_launcher, tmp_path: Path):
    """The YAML file is read; HEARTH_* overrides it; a flag overrides both."""
    file_port, env_port, flag_port = free_loopback_ports(3)
    config = tmp_path / "hearth.yaml"
    config.write_text(
        "http:\n"
        f"  port: {file_port}\n"
        "household:\n"
        "  name: Name from the file\n"
        "  timeZone: Europe/Warsaw\n"
    )
    hub = hub_launcher.start(
        name=None, port=flag_port,
        env={"HEARTH_HTTP_PORT": str(env_port), "HEARTH_HOUSEHOLD_NAME": "Name from the environment"},
        extra_args=["--config", str(config)],
    ).pair_admin()
    # The launcher passes --port; the hub answering there proves the flag won.
    assert f"127.0.0.1:{hub.port}" in hub.stdout()
    household = requests.get(f"{hub.url}/api/v1/household", headers=hub.headers, timeout=5).json()
    assert household["name"] == "Name from the environment"
    assert household["timeZone"] == "Europe/Warsaw"
    for unused in (file_port, env_port):
        with pytest.raises(requests.ConnectionError):
            requests.get(f"http://127.0.0.1:{unused}/api/v1/health", timeout=1)


def test_port_already_in_use_fails_with_a_message(tmp_path: Path):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_hearth(["serve", "--data", str(tmp_path / "data"), "--port", str(port),
                             "--host", "127.0.0.1"], cwd=tmp_path)
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr, result.stderr
    assert "another program is using that port" in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Hearth is running" not in result.stdout


# --------------------------------------------------------------------------
# Running and stopping
# --------------------------------------------------------------------------


def test_start_up_prints_the_address_to_open(hub_process):
    assert f"Hearth is running. Open http://127.0.0.1:{hub_process.port}/ in a browser." in hub_process.stdout()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_stops_the_hub_cleanly(hub_process, sig):
    code, seconds = hub_process.stop(sig)
    assert code == 0, f"exit code {code} after {sig.name}\n{hub_process.output()}"
    assert seconds < STOP_TIMEOUT_S
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{hub_process.url}/api/v1/health", timeout=1)


def test_sigterm_with_a_live_websocket_connected_still_exits_promptly(hub):
    """A listening client (like the web app) is told the hub is going away."""
    ws = websocket.create_connection(f"{hub.ws_url}/api/v1/live", timeout=10,
                                     header=[f"Authorization: Bearer {hub.token}"])
    try:
        assert json.loads(ws.recv())["type"] == "hello"
        frames: list = []

        def listen():  # recv() answers the hub's close frame, as a browser does
            try:
                while True:
                    opcode, data = ws.recv_data(control_frame=True)
                    frames.append((opcode, data))
                    if opcode == websocket.ABNF.OPCODE_CLOSE:
                        return
            except Exception as error:  # the connection ending is expected
                frames.append(("error", repr(error)))

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        code, seconds = hub.stop(signal.SIGTERM)
        listener.join(5)
        assert code == 0, f"exit code {code}\n{hub.output()}"
        assert seconds < STOP_TIMEOUT_S
        assert frames and frames[0][0] == websocket.ABNF.OPCODE_CLOSE, frames
        assert int.from_bytes(frames[0][1][:2], "big") == 1001, f"expected 'going away': {frames}"
    finally:
        ws.close()


def test_sigterm_with_an_unresponsive_websocket_client_still_exits_in_time(hub):
    """A tablet that went to sleep never answers the close; the hub must not wait for it."""
    ws = websocket.create_connection(f"{hub.ws_url}/api/v1/live", timeout=10,
                                     header=[f"Authorization: Bearer {hub.token}"])
    try:
        assert json.loads(ws.recv())["type"] == "hello"
        code, seconds = hub.stop(signal.SIGTERM)
        assert code == 0, f"exit code {code}\n{hub.output()}"
        assert seconds < STOP_TIMEOUT_S
    finally:
        ws.close()


def test_sigterm_with_a_connection_that_sent_no_request_yet_exits_at_once(hub):
    """A browser opens sockets ahead of requests it may never send; the hub
    has nothing to finish on them and must not wait out their 10 s deadline."""
    quiet = socket.create_connection(("127.0.0.1", hub.port), timeout=10)
    try:
        time.sleep(0.2)  # accepted, and waiting for its first request
        code, seconds = hub.stop(signal.SIGTERM)
        assert code == 0, f"exit code {code}\n{hub.output()}"
        assert seconds < STOP_TIMEOUT_S, f"{seconds:.1f} s"
        assert quiet.recv(1) == b"", "the idle connection is closed, with nothing written"
    finally:
        quiet.close()


def test_household_survives_a_restart(hub_launcher, data_dir: Path):
    first = hub_launcher.start(data_dir=data_dir, name="Rodzina Nowaków").pair_admin()
    before = requests.get(f"{first.url}/api/v1/household", headers=first.headers, timeout=5).json()
    renamed = requests.patch(f"{first.url}/api/v1/household", json={"name": "Nowakowie i babcia Ela"},
                             headers=first.headers, timeout=5)
    assert renamed.status_code == 200, renamed.text
    code, _ = first.stop()
    assert code == 0
    assert (data_dir / "hearth.sqlite").is_file()

    # The name setting only seeds a new household; it must not overwrite data,
    # and the paired device stays paired.
    second = hub_launcher.start(data_dir=data_dir, name="Somebody else")
    after = requests.get(f"{second.url}/api/v1/household", headers=first.headers, timeout=5).json()
    assert after["id"] == before["id"]
    assert after["createdAt"] == before["createdAt"]
    assert after["name"] == "Nowakowie i babcia Ela"


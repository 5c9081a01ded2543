"""The hub is found on the LAN by mDNS, with real Avahi and an independent
client, and never on this machine's real network.

The test builds its own little LAN: two network namespaces (the hub's and a
phone's) joined by a veth pair, 10.77.0.1/24 and 10.77.0.2/24. Each host is a
process holding the namespace open, with a private mount namespace (a tmpfs
on /run) and its own host name, so its `dbus-daemon --system` and
`avahi-daemon` are its own and touch nothing of the machine's. Commands run
in a host with nsenter. Multicast cannot leave the pair: the namespaces have
no other interface.

The tests run in order, as one story: the hub starts while avahi-daemon is
absent, Avahi arrives, clients find the hub, Avahi dies and comes back, and a
second hub with the same household name shows up.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import HEARTH_BINARY, PairingRun, hub_environment, require_binary

HUB_ADDRESS = "10.77.0.1"
PHONE_ADDRESS = "10.77.0.2"
PORT = 8080
# The Notek listener is on in this LAN's hubs, so `_notek._tcp` is announced too.
NOTEK_PORT = 9001
HOUSEHOLD = "Dom Zofii"
INSTANCE = f"{HOUSEHOLD} (Hearth)"
PROBE = Path(__file__).with_name("mdns_probe.py")
NEEDED = ["ip", "nsenter", "unshare", "dbus-daemon", "avahi-daemon", "avahi-browse"]

AVAHI_CONF = """\
[server]
host-name={host}
use-ipv4=yes
use-ipv6=no
allow-interfaces={interface}
enable-dbus=yes
[wide-area]
enable-wide-area=no
[publish]
publish-workstation=no
publish-hinfo=no
[reflector]
enable-reflector=no
"""


def namespaces_missing() -> str | None:
    """Why this machine cannot run the test, or None."""
    if os.geteuid() != 0:
        return "needs root to create network namespaces"
    missing = [tool for tool in NEEDED if shutil.which(tool) is None]
    if missing:
        return f"missing {', '.join(missing)} (`make test` installs avahi-daemon avahi-utils dbus iproute2)"
    probe = f"hearth-probe-{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"cannot create a network namespace here: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


class LanHost:
    """One machine of the test LAN: a network namespace, and a process that
    holds a private mount and UTS namespace inside it."""

    def __init__(self, netns: str, name: str, interface: str, workdir: Path):
        self.netns, self.name, self.interface = netns, name, interface
        self.workdir = workdir / name
        self.workdir.mkdir(parents=True)
        self.processes: list[subprocess.Popen] = []
        self.avahi: subprocess.Popen | None = None
        (self.workdir / "avahi.conf").write_text(AVAHI_CONF.format(host=name, interface=interface))
        self.holder = subprocess.Popen(
            ["ip", "netns", "exec", netns, "unshare", "--mount", "--uts", "--propagation", "private",
             "sh", "-c", f"mount -t tmpfs tmpfs /run && mkdir -p /run/dbus /run/avahi-daemon "
                         f"&& hostname {name} && echo ready && exec sleep infinity"],
            stdout=subprocess.PIPE, text=True)
        assert self.holder.stdout.readline().strip() == "ready", f"{name}: could not set up its namespaces"

    def command(self, args: list[str]) -> list[str]:
        return ["nsenter", "-t", str(self.holder.pid), "-m", "-n", "-u", *args]

    def run(self, args: list[str], timeout: float = 20, env: dict | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(self.command(args), capture_output=True, text=True, timeout=timeout, env=env)

    def start(self, args: list[str], log: str, env: dict | None = None) -> subprocess.Popen:
        with open(self.workdir / log, "w") as out:
            process = subprocess.Popen(self.command(args), stdout=out, stderr=subprocess.STDOUT, env=env)
        self.processes.append(process)
        return process

    def log(self, name: str) -> str:
        return (self.workdir / name).read_text(errors="replace")

    def start_dbus(self) -> None:
        started = self.run(["dbus-daemon", "--system", "--fork", "--print-pid"])
        assert started.returncode == 0, f"{self.name}: dbus-daemon: {started.stderr}"
        self.dbus_pid = int(started.stdout.split()[0])

    def start_avahi(self) -> None:
        self.avahi = self.start(["avahi-daemon", "--no-drop-root", "--no-chroot", "-f",
                                 str(self.workdir / "avahi.conf")], "avahi.log")
        wait_for(lambda: "Server startup complete" in self.log("avahi.log"), 10,
                 f"{self.name}: avahi-daemon to start", lambda: self.log("avahi.log"))

    def kill_avahi(self) -> None:
        assert self.avahi is not None
        self.avahi.kill()
        self.avahi.wait(timeout=5)
        self.avahi = None

    def close(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
        if getattr(self, "dbus_pid", None):
            try:
                os.kill(self.dbus_pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        self.holder.kill()
        self.holder.wait(timeout=5)


def wait_for(condition, timeout: float, what: str, details=lambda: "") -> float:
    """Polls `condition` until true; returns the seconds it took."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if condition():
            return time.monotonic() - started
        time.sleep(0.1)
    pytest.fail(f"Timed out after {timeout} s waiting for {what}.\n{details()}", pytrace=False)


class Lan:
    def __init__(self, workdir: Path):
        suffix = os.getpid() % 100000
        self.hub_ns, self.phone_ns = f"hearth-hub-{suffix}", f"hearth-phone-{suffix}"
        self.hub_if, self.phone_if = f"hh{suffix}", f"hp{suffix}"
        self.workdir = workdir
        self.hosts: list[LanHost] = []
        for ns in (self.hub_ns, self.phone_ns):
            subprocess.run(["ip", "netns", "add", ns], check=True)
        subprocess.run(["ip", "link", "add", self.hub_if, "netns", self.hub_ns, "type", "veth",
                        "peer", "name", self.phone_if, "netns", self.phone_ns], check=True)
        for ns, interface, address in ((self.hub_ns, self.hub_if, HUB_ADDRESS),
                                       (self.phone_ns, self.phone_if, PHONE_ADDRESS)):
            subprocess.run(["ip", "-n", ns, "addr", "add", f"{address}/24", "dev", interface], check=True)
            subprocess.run(["ip", "-n", ns, "link", "set", interface, "up"], check=True)
            subprocess.run(["ip", "-n", ns, "link", "set", "lo", "up"], check=True)
        self.hub = self.add(LanHost(self.hub_ns, "hearth-hub", self.hub_if, workdir))
        self.phone = self.add(LanHost(self.phone_ns, "hearth-phone", self.phone_if, workdir))
        self.hub_process: subprocess.Popen | None = None
        # An admin's phone: health tells only admins where the hub is announced.
        self.admin_token: str | None = None

    def add(self, host: LanHost) -> LanHost:
        self.hosts.append(host)
        return host

    def probe(self, *types: str, timeout: float = 10) -> dict:
        """python-zeroconf, bound to the phone's address, browsing `types`."""
        done = subprocess.run(
            ["ip", "netns", "exec", self.phone_ns, sys.executable, str(PROBE),
             "--bind", PHONE_ADDRESS, "--timeout", str(timeout), *types],
            capture_output=True, text=True, timeout=timeout + 30)
        assert done.returncode == 0, f"mdns_probe failed:\n{done.stdout}\n{done.stderr}"
        return json.loads(done.stdout)

    def health(self, address: str = HUB_ADDRESS, token: str | None = None) -> dict:
        """GET /api/v1/health from the admin's phone, over the test LAN."""
        return self.request("GET", f"http://{address}:{PORT}/api/v1/health", token=token or self.admin_token)

    def pair_admin(self, data: str = "hub-data", address: str = HUB_ADDRESS) -> str:
        """The admin pairs a phone over SSH (`hearth pair`), as after installing; its token."""
        pairing = PairingRun.start(self.workdir / data, PORT, ["--new-person", "LAN admin", "--role", "admin"])
        try:
            paired = self.request("POST", f"http://{address}:{PORT}/api/v1/pairing",
                                  {"code": pairing.secret, "deviceName": "Admin's phone"})
        finally:
            pairing.kill()
        return paired["token"]

    def request(self, method: str, url: str, body: dict | None = None, token: str | None = None) -> dict:
        """An HTTP request from the phone, over the test LAN; the JSON answer."""
        script = (
            "import json, sys, urllib.request\n"
            "method, url, body, token = sys.argv[1:5]\n"
            "headers = {'Content-Type': 'application/json'}\n"
            "if token: headers['Authorization'] = 'Bearer ' + token\n"
            "request = urllib.request.Request(url, data=body.encode() if body else None, headers=headers, method=method)\n"
            "sys.stdout.write(urllib.request.urlopen(request, timeout=5).read().decode())\n"
        )
        done = subprocess.run(
            ["ip", "netns", "exec", self.phone_ns, sys.executable, "-c", script,
             method, url, json.dumps(body) if body is not None else "", token or ""],
            capture_output=True, text=True, timeout=20)
        assert done.returncode == 0, f"{method} {url} from the phone: {done.stderr}"
        return json.loads(done.stdout)

    def close(self) -> None:
        for host in reversed(self.hosts):
            host.close()
        for ns in (self.hub_ns, self.phone_ns):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def hearth_env(household: str) -> dict[str, str]:
    env = hub_environment({"HEARTH_HOUSEHOLD_NAME": household, "HEARTH_LOG_LEVEL": "debug",
                           "HEARTH_NOTEK_ENABLED": "true", "HEARTH_NOTEK_PORT": str(NOTEK_PORT)})
    del env["HEARTH_DISCOVERY_ENABLED"]  # on, as when installed
    return env


@pytest.fixture(scope="module")
def lan():
    if reason := namespaces_missing():
        pytest.skip(f"mDNS discovery test skipped: {reason}")
    require_binary()
    workdir = Path(tempfile.mkdtemp(prefix="hearth-e2e-lan-"))
    lan = Lan(workdir)
    try:
        lan.hub.start_dbus()
        lan.phone.start_dbus()
        lan.phone.start_avahi()
        yield lan
    finally:
        lan.close()
        shutil.rmtree(workdir, ignore_errors=True)


def ipv4(addresses: list[str]) -> list[str]:
    return [address for address in addresses if ":" not in address]


def advertised(health: dict) -> list[tuple[str, str, int]]:
    return sorted((s["type"], s["name"], s["port"]) for s in health["discovery"]["services"])


def test_the_hub_serves_while_avahi_is_absent_and_warns_once(lan):
    lan.hub_process = lan.hub.start(
        [str(HEARTH_BINARY), "serve", "--data", str(lan.workdir / "hub-data"), "--port", str(PORT)],
        "hearth.log", env=hearth_env(HOUSEHOLD))
    wait_for(lambda: "hub ready" in lan.hub.log("hearth.log"), 20, "the hub to listen", lambda: lan.hub.log("hearth.log"))
    version = subprocess.run([str(HEARTH_BINARY), "--version"], capture_output=True, text=True).stdout.strip()
    assert lan.health() == {"status": "ok", "version": version}, "a phone not yet paired is told only that"
    lan.admin_token = lan.pair_admin()
    health = lan.health()
    assert health["status"] == "ok"
    assert health["discovery"] == {"state": "waiting-for-avahi", "services": []}

    # Retries at 1 s and 3 s fail too, but the admin's log has one warning.
    time.sleep(3.5)
    log = lan.hub.log("hearth.log")
    assert log.count("discovery waiting for avahi-daemon") == 1, log
    assert "still waiting" in log, "the retries are logged at debug level"
    assert "*** WARNING ***" not in log, "AVAHI_COMPAT_NOWARN silences the compat library"


def test_avahi_arriving_late_brings_the_advertisement(lan):
    lan.hub.start_avahi()
    took = wait_for(lambda: lan.health()["discovery"]["state"] == "advertising", 10,
                    "the hub to advertise once avahi-daemon runs", lambda: lan.hub.log("hearth.log"))
    print(f"advertised {took:.1f} s after avahi-daemon started")
    assert advertised(lan.health()) == [("_hearth._tcp", INSTANCE, PORT), ("_http._tcp", INSTANCE, PORT),
                                        ("_notek._tcp", INSTANCE, NOTEK_PORT)]
    assert f'event="discovery advertising" name="{INSTANCE}"' in lan.hub.log("hearth.log"), lan.hub.log("hearth.log")


def test_an_independent_mdns_client_finds_both_services_and_reaches_the_hub(lan):
    found = lan.probe("_hearth._tcp", "_http._tcp", "_notek._tcp")
    by_type = {s["type"]: s for s in found["services"]}
    assert set(by_type) == {"_hearth._tcp.local.", "_http._tcp.local.", "_notek._tcp.local."}, found
    notek = by_type["_notek._tcp.local."]
    assert (notek["name"], notek["port"], ipv4(notek["addresses"])) == (INSTANCE, NOTEK_PORT, [HUB_ADDRESS])

    hearth = by_type["_hearth._tcp.local."]
    assert hearth["name"] == INSTANCE
    assert hearth["port"] == PORT
    # Avahi also publishes the link's IPv6 address (AAAA over IPv4 mDNS).
    assert ipv4(hearth["addresses"]) == [HUB_ADDRESS]
    assert hearth["server"] == "hearth-hub.local."
    version = subprocess.run([str(HEARTH_BINARY), "--version"], capture_output=True, text=True).stdout.strip()
    assert hearth["properties"]["v"] == version
    assert hearth["properties"]["api"] == "/api/v1"
    assert len(hearth["properties"]["id"]) == 36, "the household's UUID"
    assert hearth["health"]["status"] == "ok", "GET /api/v1/health at the resolved address and port"

    web = by_type["_http._tcp.local."]
    assert (web["name"], web["port"], ipv4(web["addresses"])) == (INSTANCE, PORT, [HUB_ADDRESS])
    assert web["properties"] == {"path": "/"}


def test_avahi_browse_on_the_hub_lists_the_services(lan):
    for service_type, txt in (("_hearth._tcp", '"api=/api/v1"'), ("_http._tcp", '"path=/"')):
        listed = lan.hub.run(["avahi-browse", "--resolve", "--parsable", "--terminate", service_type])
        # Avahi also resolves the link's IPv6 address: look at the IPv4 line.
        resolved = [line.split(";") for line in listed.stdout.splitlines()
                    if line.startswith("=") and line.split(";")[7] == HUB_ADDRESS]
        assert resolved, f"avahi-browse {service_type}:\n{listed.stdout}{listed.stderr}"
        fields = resolved[0]
        # =;interface;protocol;name;type;domain;host;address;port;txt
        assert fields[3].replace("\\032", " ").replace("\\040", "(").replace("\\041", ")") == INSTANCE, fields
        assert fields[7] == HUB_ADDRESS and fields[8] == str(PORT), fields
        assert txt in fields[9], fields


def test_hearth_discover_on_the_phone_finds_the_hub(lan):
    found = lan.phone.run([str(HEARTH_BINARY), "discover", "--timeout", "3s"], env=hub_environment())
    assert found.returncode == 0, found.stderr
    assert found.stderr == "", "no compat-library warning"
    assert INSTANCE in found.stdout
    assert "host:      hearth-hub.local" in found.stdout
    assert f"addresses: {HUB_ADDRESS}" in found.stdout
    assert f"port:      {PORT}" in found.stdout
    assert f"open:      http://{HUB_ADDRESS}:{PORT}/" in found.stdout


def test_the_hub_outlives_avahi_and_advertises_again_when_it_returns(lan):
    lan.hub.kill_avahi()
    wait_for(lambda: lan.health()["discovery"]["state"] == "waiting-for-avahi", 10,
             "the hub to notice avahi-daemon went away", lambda: lan.hub.log("hearth.log"))
    assert lan.hub_process.poll() is None, "the hub is still running"
    assert lan.health()["status"] == "ok", "and still serving"

    lan.hub.start_avahi()
    restarted = time.monotonic()
    found = lan.probe("_hearth._tcp", timeout=10)
    took = time.monotonic() - restarted
    assert [s["name"] for s in found["services"]] == [INSTANCE], found
    assert took < 10, f"found again {took:.1f} s after avahi-daemon restarted"
    print(f"found again {took:.1f} s after avahi-daemon restarted")
    assert lan.health()["discovery"]["state"] == "advertising"
    assert lan.hub.log("hearth.log").count("discovery waiting for avahi-daemon") == 2, "one warning per outage"


def test_renaming_the_household_renames_the_announcement(lan):
    # The admin pairs a phone over SSH, and the phone renames the household.
    pairing = PairingRun.start(lan.workdir / "hub-data", PORT, ["--new-person", "Admin", "--role", "admin"])
    paired = lan.request("POST", f"http://{HUB_ADDRESS}:{PORT}/api/v1/pairing",
                         {"code": pairing.secret, "deviceName": "Phone"})
    pairing.kill()
    lan.request("PATCH", f"http://{HUB_ADDRESS}:{PORT}/api/v1/household", {"name": "Dom Babci"}, token=paired["token"])

    wait_for(lambda: advertised(lan.health()) == [("_hearth._tcp", "Dom Babci (Hearth)", PORT),
                                                  ("_http._tcp", "Dom Babci (Hearth)", PORT),
                                                  ("_notek._tcp", "Dom Babci (Hearth)", NOTEK_PORT)], 10,
             "the hub to announce its new name", lambda: lan.hub.log("hearth.log"))
    found = lan.probe("_hearth._tcp", timeout=10)
    assert "Dom Babci (Hearth)" in [s["name"] for s in found["services"]], found

    lan.request("PATCH", f"http://{HUB_ADDRESS}:{PORT}/api/v1/household", {"name": HOUSEHOLD}, token=paired["token"])
    wait_for(lambda: advertised(lan.health())[0][1] == INSTANCE, 10, "the old name back",
             lambda: lan.hub.log("hearth.log"))


def test_a_second_hub_with_the_same_name_is_renamed_and_both_are_found(lan):
    second = lan.phone.start(
        [str(HEARTH_BINARY), "serve", "--data", str(lan.workdir / "phone-data"), "--port", str(PORT)],
        "hearth.log", env=hearth_env(HOUSEHOLD))
    wait_for(lambda: "hub ready" in lan.phone.log("hearth.log"), 20, "the second hub to listen",
             lambda: lan.phone.log("hearth.log"))
    token = lan.pair_admin("phone-data", PHONE_ADDRESS)
    wait_for(lambda: lan.health(PHONE_ADDRESS, token)["discovery"]["state"] == "advertising", 15,
             "the second hub to advertise", lambda: lan.phone.log("hearth.log"))
    names = {name for _, name, _ in advertised(lan.health(PHONE_ADDRESS, token))}
    assert names == {f"{INSTANCE} #2"}, names
    assert "renamed" in lan.phone.log("hearth.log")

    listing = lan.phone.run([str(HEARTH_BINARY), "discover", "--timeout", "3s"], env=hub_environment())
    assert listing.returncode == 0, listing.stderr
    assert f"{INSTANCE}\n" in listing.stdout and f"{INSTANCE} #2\n" in listing.stdout, listing.stdout
    second.send_signal(signal.SIGTERM)
    assert second.wait(timeout=10) == 0


def test_discover_without_avahi_says_so_in_one_line(lan):
    lan.hub.kill_avahi()
    done = lan.hub.run([str(HEARTH_BINARY), "discover", "--timeout", "1s"], env=hub_environment())
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hearth: cannot look for hubs:") and "avahi-daemon" in lines[0], done.stderr
    lan.hub.start_avahi()

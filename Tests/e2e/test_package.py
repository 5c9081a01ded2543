"""The Debian package as an admin meets it: lintian, the systemd unit's
checks, and `apt install ./hearth_*.deb` into a clean Debian 12 root made
with debootstrap, resolving dependencies from Debian's archive. The hub is
started in that root on a loopback port; removing and purging leave nothing
but the user; upgrading keeps the data.

The chroot never starts services: no systemd runs in it, and a
policy-rc.d refuses any start. Only /proc is mounted into it, and always
unmounted afterwards. Last, a second root with systemd, D-Bus and
avahi-daemon is booted with systemd-nspawn on a private network (its own
loopback only), to see the unit itself work: READY, the watchdog, Avahi
over D-Bus under the hardening, group access, a clean stop and a restore.

Environment:
  E2E_DEB            the package (default: the one `make deb` left in <repo>/.build/deb/)
  E2E_DEBIAN_ROOT    a cached root tarball to use (default: the first of
                     /var/cache/hearth-tests/bookworm-minbase.tar.gz and
                     <repo>/.build/debian-root/bookworm-minbase.tar.gz that
                     exists; made there by Tests/e2e/make-debian-root if neither does)
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import stat
import subprocess
import tarfile
import time
from pathlib import Path

import pytest
import requests

from conftest import REPO_ROOT, free_loopback_port

SECURITY_THRESHOLD = 2.0
TARBALL_NAME = "bookworm-minbase.tar.gz"
CACHE_DIRS = [Path("/var/cache/hearth-tests"), REPO_ROOT / ".build" / "debian-root"]
CHROOT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
APT_TIMEOUT_S = 600


def the_deb() -> Path:
    if path := os.environ.get("E2E_DEB"):
        return Path(path)
    debs = sorted((REPO_ROOT / ".build" / "deb").glob("hearth_*.deb"))
    if not debs:
        pytest.fail("No .deb in .build/deb/: run `make deb` (or `make test`, which builds it), "
                    "or point E2E_DEB at one.", pytrace=False)
    return debs[-1]


def run(args: list[str], timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, **kwargs)


def deb_field(deb: Path, field: str) -> str:
    return run(["dpkg-deb", "--field", str(deb), field]).stdout.strip()


# --------------------------------------------------------------------------
# The package file and its unit
# --------------------------------------------------------------------------


def test_lintian_reports_no_errors_or_warnings():
    if not shutil.which("lintian"):
        pytest.skip("lintian is not installed (`make test-deps` installs it)")
    result = run(["lintian", "--fail-on", "error,warning", "--tag-display-limit", "0", str(the_deb())], timeout=300)
    assert result.returncode == 0, f"lintian:\n{result.stdout}{result.stderr}"


def test_contents_and_control_fields():
    deb = the_deb()
    listing = run(["dpkg-deb", "--contents", str(deb)]).stdout
    paths = {line.split()[-1].lstrip(".") for line in listing.splitlines()}
    for path in ["/usr/bin/hearth", "/lib/systemd/system/hearth.service", "/etc/hearth/hearth.yaml",
                 "/usr/lib/sysusers.d/hearth.conf", "/usr/share/man/man8/hearth.8.gz",
                 "/usr/share/man/man5/hearth.yaml.5.gz", "/usr/share/doc/hearth/copyright",
                 "/usr/share/doc/hearth/examples/gammu-smsdrc",
                 "/usr/share/doc/hearth/changelog.Debian.gz"]:
        assert path in paths, f"{path} is not in the package:\n{listing}"
    for line in listing.splitlines():
        assert " root/root " in line, f"every file belongs to root: {line}"
    depends = deb_field(deb, "Depends")
    for package in ["libsqlite3-0", "libqrencode4", "libavahi-compat-libdnssd1", "libcurl4", "adduser", "libc6"]:
        assert re.search(rf"(^|, ){package}( |,|$)", depends), f"Depends lacks {package}: {depends}"
    # avahi-daemon announces the hub; espeak-ng and aplay are its voice (speech.enabled).
    assert deb_field(deb, "Recommends") == "avahi-daemon, espeak-ng, alsa-utils, gammu-smsd"
    assert deb_field(deb, "Architecture") == run(["dpkg", "--print-architecture"]).stdout.strip()
    assert run(["dpkg-deb", "--info", str(deb), "conffiles"]).stdout.split() == ["/etc/hearth/hearth.yaml"]
    assert deb.stat().st_size < 25_000_000


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("unpacked")
    result = run(["dpkg-deb", "-x", str(the_deb()), str(root)])
    assert result.returncode == 0, result.stderr
    return root


def test_the_binary_keeps_aslr_and_loads_light(unpacked: Path):
    # Packaging/build-release lays the hub out for memory; these are the parts
    # a careless flag would undo: still position-independent (ASLR), its
    # relocations packed, and no symbol table exported for dynamic linking
    # (that table alone was 3 MB the loader read at every start).
    binary = str(unpacked / "usr" / "bin" / "hearth")
    header = run(["readelf", "--file-header", "--wide", binary]).stdout
    assert re.search(r"Type:\s+DYN", header), header
    dynamic = run(["readelf", "--dynamic", "--wide", binary]).stdout
    assert "(RELR)" in dynamic, dynamic
    # libcurl and the TLS, Kerberos and LDAP libraries it brings (5.5 MB of
    # a running hub) are opened when the first push goes, not at start.
    assert "libcurl" not in dynamic, dynamic
    symbols = run(["readelf", "--dyn-syms", "--wide", binary]).stdout
    defined = [line for line in symbols.splitlines()
               if re.match(r"\s*\d+:", line) and " UND " not in line and " GLOBAL " in line]
    assert len(defined) < 50, f"{len(defined)} symbols exported, e.g. {defined[:5]}"


def test_the_unit_verifies(unpacked: Path, tmp_path: Path):
    # verify checks that ExecStart's program exists and runs, so it is pointed
    # at the unpacked binary (the host has none in /usr/bin); the unit is
    # otherwise verified as shipped. It exits 0 even for unknown keys, so any
    # word on stderr is a failure.
    shipped = (unpacked / "lib" / "systemd" / "system" / "hearth.service").read_text()
    assert "ExecStart=/usr/bin/hearth serve" in shipped
    unit = tmp_path / "hearth.service"
    unit.write_text(shipped.replace("ExecStart=/usr/bin/hearth", f"ExecStart={unpacked}/usr/bin/hearth"))
    result = run(["systemd-analyze", "verify", "--man=no", str(unit)])
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stderr.strip() == "", result.stderr


def test_the_unit_is_hardened(unpacked: Path):
    unit = unpacked / "lib" / "systemd" / "system" / "hearth.service"
    result = run(["systemd-analyze", "security", "--offline=yes", f"--threshold={int(SECURITY_THRESHOLD * 10)}",
                  "--no-pager", str(unit)])
    match = re.search(r"Overall exposure level for hearth\.service: (\d+\.\d+)", result.stdout)
    assert match, result.stdout + result.stderr
    assert float(match[1]) <= SECURITY_THRESHOLD, result.stdout
    assert result.returncode == 0, result.stdout + result.stderr
    text = unit.read_text()
    for line in ["Type=notify", "User=hearth", "StateDirectory=hearth", "UMask=0077", "Restart=on-failure",
                 "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK", "CapabilityBoundingSet=",
                 "SystemCallFilter=@system-service", "SystemCallArchitectures=native",
                 # Resource limits, and the home network only (a drop-in widens it).
                 "ProcSubset=pid", "MemoryMax=512M", "TasksMax=256", "LimitNOFILE=4096", "IPAddressDeny=any",
                 "IPAddressAllow=localhost link-local multicast 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7"]:
        assert re.search(rf"^{re.escape(line)}$", text, re.M), f"the unit lacks {line}"
    assert re.search(r"^WatchdogSec=\d+", text, re.M)


# --------------------------------------------------------------------------
# A clean Debian 12 root
# --------------------------------------------------------------------------


def root_tarball() -> Path:
    if path := os.environ.get("E2E_DEBIAN_ROOT"):
        return Path(path)
    for directory in CACHE_DIRS:
        if (directory / TARBALL_NAME).is_file():
            return directory / TARBALL_NAME
    for directory in CACHE_DIRS:
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(directory, os.W_OK):
            result = run([str(Path(__file__).parent / "make-debian-root"), str(directory / TARBALL_NAME)],
                         timeout=1200)
            assert result.returncode == 0, f"make-debian-root failed:\n{result.stderr}"
            return directory / TARBALL_NAME
    pytest.skip(f"no writable cache directory for the Debian root among {CACHE_DIRS}")


class Chroot:
    def __init__(self, path: Path):
        self.path = path

    def sh(self, script: str, timeout: float = 120, user: str | None = None) -> subprocess.CompletedProcess:
        """Runs `sh -c SCRIPT` in the root, as root or as `user`."""
        args = ["chroot", *([f"--userspec={user}"] if user else []), str(self.path), "/bin/sh", "-c", script]
        return run(args, timeout=timeout, env=self.environment)

    def ok(self, script: str, timeout: float = 120, user: str | None = None) -> str:
        result = self.sh(script, timeout=timeout, user=user)
        assert result.returncode == 0, f"`{script}` exited {result.returncode}:\n{result.stdout}\n{result.stderr}"
        return result.stdout

    environment = {"PATH": CHROOT_PATH, "LANG": "C.UTF-8", "HOME": "/root", "DEBIAN_FRONTEND": "noninteractive"}

    def apt(self, arguments: str) -> str:
        return self.ok(f"apt-get -y -q {arguments}", timeout=APT_TIMEOUT_S)

    def stat(self, path: str) -> tuple[str, str, int]:
        owner, group, mode = self.ok(f"stat -c '%U %G %a' {path}").split()
        return owner, group, int(mode, 8)

    def exists(self, path: str) -> bool:
        return os.path.lexists(self.path / path.lstrip("/"))

    def files(self) -> set[str]:
        """Every path in the root but the virtual and cache ones."""
        skip = {"proc", "dev", "sys", "run", "tmp", "var/cache", "var/log", "var/lib/apt", "var/lib/dpkg", "deb"}
        found = set()
        for directory, names, files in os.walk(self.path):
            relative = os.path.relpath(directory, self.path)
            names[:] = [n for n in names if os.path.normpath(os.path.join(relative, n)) not in skip]
            for name in names + files:
                found.add("/" + os.path.normpath(os.path.join(relative, name)))
        return found

    def packaged_files(self) -> set[str]:
        owned = set()
        for listing in (self.path / "var/lib/dpkg/info").glob("*.list"):
            owned.update(line for line in listing.read_text().splitlines() if line)
        # Debian 12 is /usr-merged: a package's /lib/… file is found at /usr/lib/….
        owned.update("/usr" + path for path in list(owned)
                     if path.split("/")[1] in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"))
        return owned


@pytest.fixture(scope="module")
def debian_root(tmp_path_factory):
    if os.geteuid() != 0:
        pytest.skip("installing into a chroot needs root (run `make test` as root, or through sudo)")
    if not shutil.which("debootstrap") and not any((d / TARBALL_NAME).is_file() for d in CACHE_DIRS):
        pytest.skip("debootstrap is not installed (`make test-deps` installs it)")
    tarball = root_tarball()
    path = tmp_path_factory.mktemp("debian-root")
    with tarfile.open(tarball) as archive:
        archive.extractall(path, numeric_owner=True, filter="fully_trusted")
    # No service may start in the chroot, whatever a maintainer script tries.
    policy = path / "usr/sbin/policy-rc.d"
    policy.write_text("#!/bin/sh\nexit 101\n")
    policy.chmod(0o755)
    shutil.copy("/etc/resolv.conf", path / "etc/resolv.conf")
    (path / "deb").mkdir()
    proc = path / "proc"
    mounted = subprocess.run(["mount", "-t", "proc", "proc", str(proc)], capture_output=True, text=True)
    assert mounted.returncode == 0, mounted.stderr
    try:
        chroot = Chroot(path)
        chroot.apt("update")
        yield chroot
    finally:
        # Anything still running in the root (a hub a failed test left) goes first.
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    if os.readlink(f"/proc/{pid}/root") == str(path):
                        os.kill(int(pid), signal.SIGKILL)
                except OSError:
                    pass
        if subprocess.run(["umount", str(proc)]).returncode != 0:
            subprocess.run(["umount", "-l", str(proc)])
        assert not os.path.ismount(proc), f"{proc} is still mounted"
        shutil.rmtree(path, ignore_errors=True)


def start_hub_in(chroot: Chroot, port: int) -> subprocess.Popen:
    """`hearth serve` as the hearth user with the unit's UMask, on loopback."""
    script = (f"umask 077; exec /usr/bin/hearth serve --data /var/lib/hearth "
              f"--host 127.0.0.1 --port {port}")
    return subprocess.Popen(["chroot", "--userspec=hearth:hearth", str(chroot.path), "/bin/sh", "-c", script],
                            env=chroot.environment, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_healthy(process: subprocess.Popen, port: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"hearth serve in the chroot exited {process.returncode}:\n{process.stdout.read()}",
                        pytrace=False)
        try:
            response = requests.get(f"http://127.0.0.1:{port}/api/v1/health", timeout=1)
            if response.status_code == 200 and response.json().get("status") == "ok":
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    process.kill()
    pytest.fail(f"hearth serve in the chroot did not answer health in {timeout} s:\n{process.stdout.read()}",
                pytrace=False)


def stop(process: subprocess.Popen) -> int:
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return -9


def copy_in(chroot: Chroot, deb: Path) -> str:
    shutil.copy(deb, chroot.path / "deb" / deb.name)
    return f"/deb/{deb.name}"


def previous_build(deb: Path, directory: Path) -> Path:
    """The same package under a lower version, standing for the build before."""
    tree = directory / "previous"
    assert run(["dpkg-deb", "-R", str(deb), str(tree)]).returncode == 0
    control = tree / "DEBIAN" / "control"
    version = deb_field(deb, "Version")
    control.write_text(re.sub(r"^Version: .*$", f"Version: {version}~previous", control.read_text(), flags=re.M))
    out = directory / f"hearth_{version}~previous_{deb_field(deb, 'Architecture')}.deb"
    result = run(["dpkg-deb", "--root-owner-group", "-Zxz", "-z1", "--build", str(tree), str(out)], timeout=300)
    assert result.returncode == 0, result.stderr
    return out


# One root for both, on one worker (make package-test runs two): it is
# unpacked and its apt lists fetched once.
@pytest.mark.xdist_group("debian_root")
def test_install_run_remove_and_purge(debian_root: Chroot):
    chroot = debian_root
    before = chroot.files()
    deb = copy_in(chroot, the_deb())

    # Install: dependencies come from Debian's archive; nothing is asked.
    output = chroot.apt(f"install --no-install-recommends {deb}")
    assert "Hearth is installed. Run 'sudo hearth pair" in output, output
    version = chroot.ok("hearth --version").strip()
    assert deb_field(the_deb(), "Version").startswith(version + "-")

    # The user, the directories and their modes
    passwd = chroot.ok("getent passwd hearth").strip().split(":")
    assert int(passwd[2]) < 1000, "a system user"
    assert passwd[5] == "/var/lib/hearth"
    assert passwd[6] in ("/usr/sbin/nologin", "/bin/false")
    assert chroot.stat("/var/lib/hearth") == ("hearth", "hearth", 0o750)
    assert chroot.stat("/etc/hearth/hearth.yaml") == ("root", "hearth", 0o640)
    assert chroot.stat("/usr/bin/hearth") == ("root", "root", 0o755)
    assert chroot.exists("/etc/systemd/system/multi-user.target.wants/hearth.service"), "enabled for boot"
    assert not chroot.exists("/run/systemd/system"), "systemd does not run in the chroot"

    # The hub runs, as the service would, and an admin in the hearth group can use its data
    port = free_loopback_port()
    hub = start_hub_in(chroot, port)
    try:
        wait_healthy(hub, port)
        chroot.ok("adduser --quiet --disabled-password --gecos '' carer && adduser --quiet carer hearth")
        chroot.ok("hearth people add 'Babcia Zosia' --role senior")  # as root
        listed = chroot.ok("hearth people list", user="carer:hearth")
        assert "Babcia Zosia" in listed
        chroot.ok("hearth backup /tmp/by-carer.sqlite", user="carer:hearth")
        for name in ["hearth.sqlite", "hearth.sqlite-wal", "hearth.sqlite-shm"]:
            assert chroot.stat(f"/var/lib/hearth/{name}") == ("hearth", "hearth", 0o660), name
        refused = chroot.sh("hearth restore /tmp/by-carer.sqlite")
        assert refused.returncode == 1
        assert refused.stderr.strip() == ("hearth: restore: a hub is serving /var/lib/hearth; "
                                          "stop it first (sudo systemctl stop hearth)")
        outsider = chroot.sh("adduser --quiet --disabled-password --gecos '' guest && "
                             "su guest -s /bin/sh -c 'hearth people list'")
        assert outsider.returncode != 0, "users outside the hearth group cannot read the data"
        assert outsider.stderr.startswith("hearth: "), outsider.stderr
    finally:
        assert stop(hub) == 0, hub.stdout.read()

    # Remove keeps data and settings; purge takes them, keeps the user
    chroot.apt("remove hearth")
    assert not chroot.exists("/usr/bin/hearth")
    assert chroot.exists("/var/lib/hearth/hearth.sqlite")
    assert chroot.exists("/etc/hearth/hearth.yaml")
    chroot.apt("purge hearth")
    chroot.ok("getent passwd hearth")
    chroot.ok("deluser --quiet carer && deluser --quiet guest")
    left = {path for path in chroot.files() - before - chroot.packaged_files()
            if not re.fullmatch(r"/etc/(passwd|group|shadow|gshadow|subuid|subgid)-?|/etc/ld\.so\.cache"
                                r"|/etc/systemd/system/multi-user\.target\.wants"
                                r"|/var/lib/systemd/deb-systemd-helper-(enabled|masked)(/.*)?"
                                r"|/home(/.*)?|/deb(/.*)?", path)}
    assert left == set(), f"left behind after purge: {sorted(left)}"
    assert not any("hearth" in path for path in chroot.files() - before if not path.startswith("/deb/")), \
        sorted(p for p in chroot.files() - before if "hearth" in p)


@pytest.mark.xdist_group("debian_root")
def test_upgrade_keeps_the_data_and_the_admins_settings(debian_root: Chroot, tmp_path: Path):
    chroot = debian_root
    old = copy_in(chroot, previous_build(the_deb(), tmp_path))
    new = copy_in(chroot, the_deb())
    chroot.apt(f"install --no-install-recommends {old}")
    chroot.ok("hearth people add 'Dziadek Janek' --role senior")
    chroot.ok("echo '# changed by the admin' >> /etc/hearth/hearth.yaml")
    people = chroot.ok("hearth people list")

    output = chroot.apt(f"install --no-install-recommends {new}")

    assert "Hearth is installed" not in output, "the first-install line is for first installs"
    assert chroot.ok("dpkg-query -W -f '${Version}' hearth") == deb_field(the_deb(), "Version")
    assert chroot.ok("hearth people list") == people
    assert "Dziadek Janek" in people
    assert chroot.ok("tail -1 /etc/hearth/hearth.yaml").strip() == "# changed by the admin"
    assert chroot.stat("/var/lib/hearth/hearth.sqlite") == ("hearth", "hearth", 0o660)
    port = free_loopback_port()
    hub = start_hub_in(chroot, port)
    try:
        wait_healthy(hub, port)
    finally:
        assert stop(hub) == 0, hub.stdout.read()
    chroot.apt("purge hearth")
    assert not chroot.exists("/var/lib/hearth") and not chroot.exists("/etc/hearth")


# --------------------------------------------------------------------------
# The service, booted under a real systemd
# --------------------------------------------------------------------------

BOOT_TIMEOUT_S = 90
# Shortened by a drop-in, so the test sees the watchdog fed within seconds.
TEST_WATCHDOG_S = 2


@pytest.fixture
def booted_root(tmp_path_factory):
    """A Debian 12 root with systemd, D-Bus, avahi-daemon and the package,
    booted with systemd-nspawn on a private network (its own loopback only:
    nothing it announces reaches this machine's network). Yields the PID of
    its systemd, for nsenter."""
    if os.geteuid() != 0:
        pytest.skip("booting a container needs root")
    if not shutil.which("systemd-nspawn"):
        pytest.skip("systemd-nspawn is not installed (`make test-deps` installs systemd-container)")
    path = tmp_path_factory.mktemp("booted-root")
    with tarfile.open(root_tarball()) as archive:
        archive.extractall(path, numeric_owner=True, filter="fully_trusted")
    shutil.copy("/etc/resolv.conf", path / "etc/resolv.conf")
    policy = path / "usr/sbin/policy-rc.d"
    policy.write_text("#!/bin/sh\nexit 101\n")
    policy.chmod(0o755)
    (path / "deb").mkdir()
    deb = copy_in(Chroot(path), the_deb())
    proc = path / "proc"
    assert subprocess.run(["mount", "-t", "proc", "proc", str(proc)]).returncode == 0
    try:
        chroot = Chroot(path)
        chroot.apt("update")
        chroot.apt(f"install --no-install-recommends systemd systemd-sysv dbus avahi-daemon {deb}")
    finally:
        if subprocess.run(["umount", str(proc)]).returncode != 0:
            subprocess.run(["umount", "-l", str(proc)])
    policy.unlink()
    dropin = path / "etc/systemd/system/hearth.service.d/test-watchdog.conf"
    dropin.parent.mkdir(parents=True)
    dropin.write_text(f"[Service]\nWatchdogSec={TEST_WATCHDOG_S}\n")

    console = open(tmp_path_factory.mktemp("console") / "console.log", "w+")
    nspawn = subprocess.Popen(["systemd-nspawn", "--quiet", f"--directory={path}", "--private-network",
                               "--register=no", "--keep-unit", "--boot"],
                              stdin=subprocess.DEVNULL, stdout=console, stderr=subprocess.STDOUT)
    try:
        init = None
        deadline = time.monotonic() + BOOT_TIMEOUT_S
        while init is None and time.monotonic() < deadline:
            if nspawn.poll() is not None:
                console.seek(0)
                pytest.skip(f"systemd-nspawn cannot boot a container here:\n{console.read()[-2000:]}")
            children = run(["pgrep", "-P", str(nspawn.pid)]).stdout.split()
            for child in children:
                for pid in [child, *run(["pgrep", "-P", child]).stdout.split()]:
                    try:
                        name = Path(f"/proc/{pid}/comm").read_text().strip()
                        status = Path(f"/proc/{pid}/status").read_text()
                    except FileNotFoundError:
                        continue  # a short-lived process of nspawn's, gone since pgrep listed it
                    # The container's PID 1, not a child systemd forks while
                    # booting (named "systemd" until it execs, then gone: a
                    # test that took one waited 90 s on an nsenter that failed).
                    nspid = next((line.split()[1:] for line in status.splitlines() if line.startswith("NSpid:")), [])
                    if name == "systemd" and nspid[-1:] == ["1"]:
                        init = int(pid)
            time.sleep(0.2)
        assert init, "the container's systemd did not start"
        yield init
    finally:
        if nspawn.poll() is None:
            subprocess.run(["nsenter", "-t", str(init), "-a", "systemctl", "poweroff"], capture_output=True) \
                if init else None
            try:
                nspawn.wait(timeout=30)
            except subprocess.TimeoutExpired:
                nspawn.kill()
                nspawn.wait()
        console.close()
        shutil.rmtree(path, ignore_errors=True)


def inside(init: int, script: str, timeout: float = 30) -> subprocess.CompletedProcess:
    return run(["nsenter", "-t", str(init), "-a", "/bin/bash", "-c", script], timeout=timeout)


def unit_property(init: int, name: str) -> str:
    return inside(init, f"systemctl show hearth -p {name} --value").stdout.strip()


def test_the_service_starts_on_boot_and_runs_hardened(booted_root: int):
    init = booted_root
    # On boot: READY=1 makes the unit active, with the hub's status line
    deadline = time.monotonic() + BOOT_TIMEOUT_S
    while unit_property(init, "ActiveState") != "active" and time.monotonic() < deadline:
        time.sleep(0.5)
    journal = lambda: inside(init, "journalctl -u hearth --no-pager").stdout  # noqa: E731
    assert unit_property(init, "ActiveState") == "active", journal()
    assert unit_property(init, "StatusText") == "Serving on port 8080", journal()
    assert unit_property(init, "User") == "hearth"

    health = inside(init, "exec 3<>/dev/tcp/127.0.0.1/8080; "
                          "printf 'GET /api/v1/health HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nConnection: close\\r\\n\\r\\n' >&3; "
                          "timeout 5 cat <&3")
    assert health.stdout.startswith("HTTP/1.1 200"), health.stdout + health.stderr

    # Avahi over D-Bus still works under the hardening: the hub announces itself
    found = ""
    while "Home (Hearth)" not in found and time.monotonic() < deadline:
        found = inside(init, "hearth discover --timeout 2s").stdout
    assert "Home (Hearth)" in found, found + journal()

    # The watchdog is fed: several intervals pass without a restart
    time.sleep(3 * TEST_WATCHDOG_S)
    assert unit_property(init, "NRestarts") == "0", journal()
    assert unit_property(init, "ActiveState") == "active", journal()

    # An admin in the hearth group uses the running hub's data
    inside(init, "adduser --quiet --disabled-password --gecos '' carer && adduser --quiet carer hearth")
    added = inside(init, "su carer -s /bin/sh -c 'cd /tmp && hearth people add Babcia --role senior "
                         "&& hearth backup /tmp/carer.sqlite'")
    assert added.returncode == 0, added.stdout + added.stderr

    # Stopping is clean (exit 0), and restore then works
    assert inside(init, "systemctl stop hearth").returncode == 0
    assert unit_property(init, "Result") == "success", journal()
    restored = inside(init, "hearth restore /tmp/carer.sqlite && systemctl start hearth && hearth people list")
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert "Babcia" in restored.stdout
    assert unit_property(init, "ActiveState") == "active", journal()

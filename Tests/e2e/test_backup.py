"""`hearth backup` while the hub serves a storm of writes, and `hearth
restore` into a fresh data directory: the restored hub has exactly the rows
the backup holds. Restore refuses, changing nothing, while a hub serves."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import requests

from conftest import run_hearth

STORM_WRITES = 300
STORM_SECONDS = 30


def table_rows(database: Path) -> dict[str, list[tuple]]:
    """Every row of every table, in a stable order, read without changing the file."""
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        tables = [name for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return {table: sorted(connection.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
                for table in tables}
    finally:
        connection.close()


def test_backup_during_a_write_storm_restores_identical_rows(hub, hub_launcher, tmp_path: Path):
    # Given a hub taking a bounded stream of writes from a paired device
    written = []
    stop = threading.Event()

    def storm():
        deadline = time.monotonic() + STORM_SECONDS
        for number in range(STORM_WRITES):
            if stop.is_set() or time.monotonic() > deadline:
                break
            response = requests.patch(f"{hub.url}/api/v1/household", headers=hub.headers,
                                      json={"name": f"Storm {number}"}, timeout=5)
            assert response.status_code == 200, response.text
            written.append(number)

    writer = threading.Thread(target=storm)
    writer.start()
    try:
        while len(written) < 20:
            time.sleep(0.01)
        # When the admin backs up in the middle of it
        backup = tmp_path / "hearth-backup.sqlite"
        result = hub.hearth("backup", str(backup))
        during = len(written)
    finally:
        stop.set()
        writer.join(timeout=STORM_SECONDS + 10)
    # Then the backup is complete, checked, private, and holds a consistent snapshot
    assert result.returncode == 0, result.stderr
    assert "integrity check: ok" in result.stdout
    assert backup.stat().st_mode & 0o777 == 0o600
    snapshot = table_rows(backup)
    names = [row for row in snapshot["changes"] if row[1] == "household"]
    assert len(names) >= 20, "the writes before the backup are in it"
    assert len(names) <= during + 1, "nothing written after the backup finished is in it"

    # And a new hub restored from it has exactly those rows
    fresh = tmp_path / "fresh"
    restored = run_hearth(["restore", str(backup), "--data", str(fresh)])
    assert restored.returncode == 0, restored.stderr
    assert not (fresh / "hearth.sqlite.bak").exists()
    assert table_rows(fresh / "hearth.sqlite") == snapshot
    second = hub_launcher.start(data_dir=fresh, name=None)
    assert requests.get(f"{second.url}/api/v1/health", timeout=5).status_code == 200


def test_restore_refuses_while_a_hub_serves_and_changes_nothing(hub_process, tmp_path: Path):
    backup = tmp_path / "backup.sqlite"
    assert hub_process.hearth("backup", str(backup)).returncode == 0
    before = (hub_process.data_dir / "hearth.sqlite").read_bytes()

    result = hub_process.hearth("restore", str(backup))

    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert result.stderr.strip() == (f"hearth: restore: a hub is serving {hub_process.data_dir}; "
                                     "stop it first (sudo systemctl stop hearth)")
    assert (hub_process.data_dir / "hearth.sqlite").read_bytes() == before
    assert not (hub_process.data_dir / "hearth.sqlite.bak").exists()
    assert requests.get(f"{hub_process.url}/api/v1/health", timeout=5).status_code == 200


def test_restore_keeps_the_previous_database_and_refuses_other_files(hub_launcher, data_dir: Path, tmp_path: Path):
    first = hub_launcher.start(data_dir=data_dir, name="Before the backup")
    backup = tmp_path / "backup.sqlite"
    assert first.hearth("backup", str(backup)).returncode == 0
    assert first.hearth("backup", str(backup)).stderr.strip() == \
        f"hearth: backup: {backup} already exists; choose a new file name"
    code, _ = first.stop()
    assert code == 0

    not_a_backup = tmp_path / "photo.jpg"
    not_a_backup.write_bytes(b"\xff\xd8\xff\xe0" + bytes(2000))
    refused = run_hearth(["restore", str(not_a_backup), "--data", str(data_dir)])
    assert refused.returncode == 1
    assert refused.stderr.strip() == f"hearth: restore: {not_a_backup} is not a Hearth backup (not an SQLite database)"

    restored = run_hearth(["restore", str(backup), "--data", str(data_dir)])
    assert restored.returncode == 0, restored.stderr
    assert "previous database is kept as hearth.sqlite.bak" in restored.stdout
    assert table_rows(data_dir / "hearth.sqlite.bak")["household"] == table_rows(backup)["household"]
    again = hub_launcher.start(data_dir=data_dir, name="Ignored: the household exists")
    assert again.stdout().count("Hearth is running") == 1


def test_backup_of_a_directory_without_a_hub_database_fails_plainly(tmp_path: Path):
    result = run_hearth(["backup", str(tmp_path / "b.sqlite"), "--data", str(tmp_path / "empty")])
    assert result.returncode == 1
    assert result.stderr.strip() == f"hearth: backup: there is no Hearth database in {tmp_path / 'empty'}"
    assert not (tmp_path / "empty").exists()

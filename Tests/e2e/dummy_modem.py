"""gammu-smsd on gammu's dummy phone, as gammu's own test suite runs it
(../shared/reference/gammu-smsd-dummy.md): the real SMS daemon with a folder
for a modem. What the hub hands to the daemon lands in `sent/` as a gammu
SMS backup file; a text "from a phone" is such a file with `PDU = Deliver`
dropped into the dummy phone's `sms/1/`, which the daemon reads and hands to
RunOnReceive, as it would a text from the network."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Text:
    number: str
    text: str


class DummyModem:
    def __init__(self, root: Path, run_on_receive: list[str] | None = None, env: dict[str, str] | None = None):
        self.root = root
        for folder in ["dummy/sms/1", "dummy/sms/2", "dummy/sms/3", "dummy/sms/4", "dummy/sms/5",
                       "inbox", "outbox", "sent", "error"]:
            (root / folder).mkdir(parents=True, exist_ok=True)
        self.config = root / "smsdrc"
        receive = ""
        if run_on_receive:
            # The daemon runs one program with the inbox file names: a script holds the command.
            script = root / "run-on-receive"
            script.write_text("#!/bin/sh\nexec " + " ".join(f"'{part}'" for part in run_on_receive)
                              + " \"$@\" >>'" + str(root / "run-on-receive.log") + "' 2>&1\n")
            script.chmod(0o755)
            receive = f"RunOnReceive = {script}\n"
        self.config.write_text(
            "[gammu]\nmodel = dummy\nconnection = none\n"
            f"device = {root}/dummy\n\n"
            "[smsd]\nservice = files\n"
            f"logfile = {root}/smsd.log\ninboxpath = {root}/inbox/\noutboxpath = {root}/outbox/\n"
            f"sentsmspath = {root}/sent/\nerrorsmspath = {root}/error/\n{receive}"
            "receivefrequency = 1\ncommtimeout = 1\nsendtimeout = 5\nstatusfrequency = 1\nchecksecurity = 0\n")
        self.process = subprocess.Popen(["gammu-smsd", "-c", str(self.config)], env=env,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._received = 0

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def log(self) -> str:
        parts = []
        for name in ["smsd.log", "run-on-receive.log"]:
            path = self.root / name
            if path.exists():
                parts.append(f"--- {name}\n" + path.read_text(errors="replace")[-3000:])
        return "\n".join(parts)

    def sent(self) -> list[Text]:
        """Every text the daemon sent, oldest first."""
        files = sorted((self.root / "sent").iterdir(), key=lambda path: path.stat().st_mtime)
        return [read_backup(path) for path in files]

    def wait_for_sent(self, count: int, timeout: float = 10) -> list[Text]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            texts = self.sent()
            if len(texts) >= count:
                return texts
            time.sleep(0.2)
        raise AssertionError(f"gammu-smsd sent {len(self.sent())} texts in {timeout} s, expected {count}\n{self.log()}")

    def receive(self, number: str, text: str) -> None:
        """A text from `number` arrives at the modem."""
        self._received += 1
        hex_text = text.encode("utf-16-be").hex().upper()
        backup = (
            "[SMSBackup000]\nSMSC = \"+48601000310\"\nSMSCUnicode = \"\"\n"
            f"Number = \"{number}\"\nNumberUnicode = {number.encode('utf-16-be').hex().upper()}\n"
            "Name = \"\"\nNameUnicode = \"\"\n"
            f"Text00 = {hex_text}\nCoding = Default\nFolder = 1\nLength = {len(text)}\n"
            "State = UnRead\nClass = -1\nPDU = Deliver\n"
            f"DateTime = {time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}\n")
        path = self.root / "dummy" / "sms" / "1" / str(self._received)
        temporary = path.with_suffix(".part")
        temporary.write_text(backup)
        os.replace(temporary, path)


def read_backup(path: Path) -> Text:
    """A gammu SMS backup file: the number, and each part's `TextNN` in UTF-16BE hex, each section read once."""
    number, text, seen, reading = "", b"", set(), False
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("["):
            reading = line not in seen
            seen.add(line)
            continue
        if not reading or "=" not in line:
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        if key == "Number":
            number = value.strip('"')
        elif key.startswith("Text") and key[4:].isdigit():
            text += bytes.fromhex(value)
    return Text(number=number, text=text.decode("utf-16-be"))

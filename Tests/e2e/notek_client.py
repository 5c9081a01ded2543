"""A small, independent Python client for the Notek protocol, for Hearth's
end-to-end tests (test_notek.py). Written from the protocol's description,
not from any other Notek code, so that it can tell whether the hub speaks
the protocol, not merely whether hub and client share a mistake.

The protocol in brief (all integers little-endian; one message per binary
WebSocket frame):

* A position identifier (PID) is `u8 depth` (1..32), then depth x
  (`u32 ident`, `u8 site`). Here it is a tuple of (ident, site) pairs, so
  Python's tuple comparison is the protocol's order (element by element; a
  prefix sorts first).
* An atom is `u8 len`, len UTF-8 bytes of one character, then its PID.
* A document id is a `u128`: the note's UUID, byte for byte.
* A name is UTF-8 ended by `\\n` (at most 255 bytes).
* Times are `u64` milliseconds since the Unix epoch.

Legacy session: `0x00` Greet -> `0x01` NewSession (site, atoms); then
`0x02` Insert / `0x03` Delete both ways. Current clients: a sync connection
(first byte < 64: synclist 0 -> 32, pull 1 -> 33, upsert 2, rename 3,
delete_doc 4) or an editing session (first byte 64 session_start, then 65
insert, 66 delete, 67 name change both ways).
"""

from __future__ import annotations

import struct
import time
import uuid
from dataclasses import dataclass, field
from typing import Callable, Iterable, NamedTuple, Union

import websocket

# --------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------

MAX_DEPTH = 32
MAX_IDENT = 2**32 - 1
MAX_CHAR_BYTES = 4
MAX_NAME_BYTES = 255

# Legacy session
GREET = 0x00
NEW_SESSION = 0x01
LEGACY_INSERT = 0x02
LEGACY_DELETE = 0x03

# Sync connection: client -> hub
SYNCLIST = 0
SYNC_DOC_PULL = 1
SYNC_DOC_UPSERT = 2
RENAME = 3
DELETE_DOC = 4
# Sync connection: hub -> client
SYNCLIST_RESPONSE = 32
SYNC_DOC_RESPONSE = 33

# Editing session (both ways, but session_start only client -> hub)
SESSION_START = 64
SESSION_INSERT = 65
SESSION_DELETE = 66
SESSION_NAME = 67

# Close codes the hub uses
CLOSE_PROTOCOL_ERROR = 1002
CLOSE_NOT_FOUND = 4404

PID = tuple[tuple[int, int], ...]


class Atom(NamedTuple):
    """One character of a document and where it sits."""

    char: str
    pid: PID


class NotekDecodeError(ValueError):
    """The bytes are not a well-formed Notek message."""


# --------------------------------------------------------------------------
# Encoding
# --------------------------------------------------------------------------


def u8(value: int) -> bytes:
    return struct.pack("<B", value)


def u32(value: int) -> bytes:
    return struct.pack("<I", value)


def u64(value: int) -> bytes:
    return struct.pack("<Q", value)


def encode_id(doc_id: uuid.UUID) -> bytes:
    """A document id: the UUID's 16 bytes as they are."""
    return doc_id.bytes


def encode_pid(pid: PID) -> bytes:
    if not 1 <= len(pid) <= MAX_DEPTH:
        raise ValueError(f"a PID has 1..{MAX_DEPTH} elements, not {len(pid)}")
    out = bytearray(u8(len(pid)))
    for ident, site in pid:
        out += u32(ident) + u8(site)
    return bytes(out)


def encode_atom(char: str, pid: PID) -> bytes:
    if len(char) != 1:
        raise ValueError(f"an atom is one character (code point), not {char!r}")
    data = char.encode("utf-8")
    return u8(len(data)) + data + encode_pid(pid)


def encode_name(name: str) -> bytes:
    data = name.encode("utf-8")
    if b"\n" in data:
        raise ValueError("a name cannot contain a newline")
    if len(data) > MAX_NAME_BYTES:
        raise ValueError(f"a name is at most {MAX_NAME_BYTES} bytes, not {len(data)}")
    return data + b"\n"


def encode_atoms(atoms: Iterable[Atom]) -> bytes:
    atoms = list(atoms)
    return u64(len(atoms)) + b"".join(encode_atom(a.char, a.pid) for a in atoms)


def encode_pids(pids: Iterable[PID]) -> bytes:
    pids = list(pids)
    return u64(len(pids)) + b"".join(encode_pid(p) for p in pids)


# Client -> hub messages ----------------------------------------------------


def greet() -> bytes:
    return u8(GREET)


def legacy_insert(site: int, char: str, pid: PID) -> bytes:
    return u8(LEGACY_INSERT) + u8(site) + encode_atom(char, pid)


def legacy_delete(site: int, pid: PID) -> bytes:
    return u8(LEGACY_DELETE) + u8(site) + encode_pid(pid)


def synclist(last_sync_time: int) -> bytes:
    return u8(SYNCLIST) + u64(last_sync_time)


def sync_doc_pull(doc_id: uuid.UUID, last_sync_time: int) -> bytes:
    return u8(SYNC_DOC_PULL) + encode_id(doc_id) + u64(last_sync_time)


def sync_doc_upsert(doc_id: uuid.UUID, name: str, last_sync_time: int,
                    inserts: Iterable[Atom], deletes: Iterable[PID]) -> bytes:
    return (u8(SYNC_DOC_UPSERT) + encode_id(doc_id) + encode_name(name) + u64(last_sync_time)
            + encode_atoms(inserts) + encode_pids(deletes))


def rename(doc_id: uuid.UUID, name: str) -> bytes:
    return u8(RENAME) + encode_id(doc_id) + encode_name(name)


def delete_doc(doc_id: uuid.UUID) -> bytes:
    return u8(DELETE_DOC) + encode_id(doc_id)


def session_start(last_sync_time: int, doc_id: uuid.UUID, name: str = "") -> bytes:
    return u8(SESSION_START) + u64(last_sync_time) + encode_id(doc_id) + encode_name(name)


def session_insert(site: int, char: str, pid: PID) -> bytes:
    return u8(SESSION_INSERT) + u8(site) + encode_atom(char, pid)


def session_delete(site: int, pid: PID) -> bytes:
    return u8(SESSION_DELETE) + u8(site) + encode_pid(pid)


def session_name(name: str) -> bytes:
    return u8(SESSION_NAME) + encode_name(name)


# --------------------------------------------------------------------------
# Decoding
# --------------------------------------------------------------------------


class Reader:
    """Reads a message from the front, refusing anything malformed."""

    def __init__(self, data: bytes):
        self.data = bytes(data)
        self.at = 0

    def take(self, count: int) -> bytes:
        if self.at + count > len(self.data):
            raise NotekDecodeError(f"truncated: wanted {count} bytes at offset {self.at} of {len(self.data)}")
        piece = self.data[self.at:self.at + count]
        self.at += count
        return piece

    def u8(self) -> int:
        return self.take(1)[0]

    def u32(self) -> int:
        return struct.unpack("<I", self.take(4))[0]

    def u64(self) -> int:
        return struct.unpack("<Q", self.take(8))[0]

    def doc_id(self) -> uuid.UUID:
        return uuid.UUID(bytes=self.take(16))

    def pid(self) -> PID:
        depth = self.u8()
        if not 1 <= depth <= MAX_DEPTH:
            raise NotekDecodeError(f"PID depth {depth} (must be 1..{MAX_DEPTH})")
        return tuple((self.u32(), self.u8()) for _ in range(depth))

    def atom(self) -> Atom:
        length = self.u8()
        if not 1 <= length <= MAX_CHAR_BYTES:
            raise NotekDecodeError(f"atom length {length} (must be 1..{MAX_CHAR_BYTES})")
        raw = self.take(length)
        try:
            char = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise NotekDecodeError(f"atom bytes {raw.hex(' ')} are not UTF-8: {error}") from None
        if len(char) != 1:
            raise NotekDecodeError(f"atom {char!r} is not one character")
        return Atom(char, self.pid())

    def name(self) -> str:
        end = self.data.find(b"\n", self.at)
        if end < 0:
            raise NotekDecodeError("name without its newline")
        raw = self.take(end - self.at)
        self.take(1)
        if len(raw) > MAX_NAME_BYTES:
            raise NotekDecodeError(f"name of {len(raw)} bytes (at most {MAX_NAME_BYTES})")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise NotekDecodeError(f"name is not UTF-8: {error}") from None

    def atoms(self) -> list[Atom]:
        return [self.atom() for _ in range(self.u64())]

    def pids(self) -> list[PID]:
        return [self.pid() for _ in range(self.u64())]

    def end(self) -> None:
        if self.at != len(self.data):
            raise NotekDecodeError(f"{len(self.data) - self.at} unexpected bytes after the message")


# Hub -> client messages ----------------------------------------------------


@dataclass
class NewSession:
    """0x01: the legacy session's site and document."""

    site: int
    atoms: list[Atom]


@dataclass
class Insert:
    """0x02 (legacy) or 65 (session): a character from `site`."""

    site: int
    atom: Atom
    tag: int


@dataclass
class Delete:
    """0x03 (legacy) or 66 (session): `site` removed the character at `pid`."""

    site: int
    pid: PID
    tag: int


@dataclass
class NameChange:
    """67: the note's name (title) changed."""

    name: str


@dataclass
class SyncList:
    """32: shared notes modified after the asked time: (last_modified, id)."""

    entries: list[tuple[int, uuid.UUID]]

    def times(self) -> dict[uuid.UUID, int]:
        return {doc_id: modified for modified, doc_id in self.entries}


@dataclass
class SyncDoc:
    """33: a note's name, atoms to insert and PIDs to delete."""

    doc_id: uuid.UUID
    name: str
    inserts: list[Atom]
    deletes: list[PID]

    def document(self) -> "NotekDocument":
        doc = NotekDocument()
        for atom in self.inserts:
            doc.apply_insert(atom.pid, atom.char)
        for pid in self.deletes:
            doc.apply_delete(pid)
        return doc

    @property
    def text(self) -> str:
        return self.document().text


Message = Union[NewSession, Insert, Delete, NameChange, SyncList, SyncDoc]


def parse_hub_message(data: bytes) -> Message:
    """Decodes one hub -> client message. The tags of the three kinds of
    connection do not overlap, so one parser serves them all."""
    if not data:
        raise NotekDecodeError("empty message")
    reader = Reader(data)
    tag = reader.u8()
    message: Message
    if tag == NEW_SESSION:
        site = reader.u8()
        message = NewSession(site, reader.atoms())
    elif tag in (LEGACY_INSERT, SESSION_INSERT):
        site = reader.u8()
        message = Insert(site, reader.atom(), tag)
    elif tag in (LEGACY_DELETE, SESSION_DELETE):
        site = reader.u8()
        message = Delete(site, reader.pid(), tag)
    elif tag == SESSION_NAME:
        message = NameChange(reader.name())
    elif tag == SYNCLIST_RESPONSE:
        count = reader.u64()
        message = SyncList([(reader.u64(), reader.doc_id()) for _ in range(count)])
    elif tag == SYNC_DOC_RESPONSE:
        doc_id = reader.doc_id()
        name = reader.name()
        message = SyncDoc(doc_id, name, reader.atoms(), reader.pids())
    else:
        raise NotekDecodeError(f"unknown hub message tag {tag}")
    reader.end()
    return message


# --------------------------------------------------------------------------
# Position identifiers
# --------------------------------------------------------------------------

# How far apart sites start a new run where there is room: site s takes
# lower + SITE_SPREAD * (s + 1). Logoot proper picks a random offset; a fixed
# one per site keeps tests reproducible and still starts runs typed at the
# same place by different sites at clearly different idents, so one site's
# run never lands inside another's.
SITE_SPREAD = 1 << 20
# The characters after the first of a run hang under the first one's PID,
# this far apart: first + ((k * RUN_STEP, site),). Another site's concurrent
# run at the same place is then either before or after the whole run.
RUN_STEP = 16


def between(lower: PID | None, upper: PID | None, site: int) -> PID:
    """A new PID strictly between `lower` and `upper` (None: the document's
    start or end), ending in `site`: Logoot allocation at the shallowest
    level with room."""
    if lower is not None and upper is not None and not lower < upper:
        raise ValueError(f"no PID between {lower} and {upper}: they are not in order")
    lower = lower or ()
    result: list[tuple[int, int]] = []
    tight = upper is not None  # the result so far equals upper's prefix
    for level in range(MAX_DEPTH):
        lo = lower[level] if level < len(lower) else (0, 0)
        hi = upper[level] if tight and level < len(upper) else (MAX_IDENT + 1, 0)
        gap = hi[0] - lo[0]
        if gap > 1:
            offset = max(1, min(gap // 2, SITE_SPREAD * (site + 1)))
            result.append((lo[0] + offset, site))
            return tuple(result)
        result.append(lo)
        tight = tight and lo == hi
    raise ValueError(f"no room for a PID between {lower} and {upper} within depth {MAX_DEPTH}")


def run_pids(lower: PID | None, upper: PID | None, site: int, count: int) -> list[PID]:
    """PIDs for `count` characters typed in a row between lower and upper:
    the first from between(), the rest under it (see RUN_STEP)."""
    if count == 0:
        return []
    first = between(lower, upper, site)
    if count > 1 and len(first) >= MAX_DEPTH:
        # No level left under the first: place each after the previous.
        pids = [first]
        for _ in range(count - 1):
            pids.append(between(pids[-1], upper, site))
        return pids
    return [first] + [first + ((k * RUN_STEP, site),) for k in range(1, count)]


# --------------------------------------------------------------------------
# A document: PID -> character
# --------------------------------------------------------------------------


@dataclass
class NotekDocument:
    """A local copy of a note: its text is its characters sorted by PID."""

    chars: dict[PID, str] = field(default_factory=dict)

    @classmethod
    def of(cls, atoms: Iterable[Atom]) -> "NotekDocument":
        return cls({a.pid: a.char for a in atoms})

    def atoms(self) -> list[Atom]:
        return [Atom(self.chars[pid], pid) for pid in sorted(self.chars)]

    def pids(self) -> list[PID]:
        return sorted(self.chars)

    @property
    def text(self) -> str:
        return "".join(self.chars[pid] for pid in sorted(self.chars))

    def apply_insert(self, pid: PID, char: str) -> None:
        self.chars[pid] = char

    def apply_delete(self, pid: PID) -> None:
        self.chars.pop(pid, None)

    def insert_at(self, index: int, text: str, site: int) -> list[Atom]:
        """Puts `text` before the character now at `index` (len: at the end);
        returns the new atoms, in order."""
        pids = self.pids()
        if not 0 <= index <= len(pids):
            raise IndexError(f"index {index} outside 0..{len(pids)}")
        lower = pids[index - 1] if index > 0 else None
        upper = pids[index] if index < len(pids) else None
        atoms = [Atom(char, pid) for char, pid in zip(text, run_pids(lower, upper, site, len(text)))]
        for atom in atoms:
            self.apply_insert(atom.pid, atom.char)
        return atoms

    def delete_at(self, index: int, count: int = 1) -> list[PID]:
        """Removes `count` characters from `index`; returns their PIDs."""
        pids = self.pids()[index:index + count]
        if len(pids) != count:
            raise IndexError(f"cannot delete {count} characters at {index} of {len(self.chars)}")
        for pid in pids:
            self.apply_delete(pid)
        return pids


# --------------------------------------------------------------------------
# A connection
# --------------------------------------------------------------------------


class NotekClosed(Exception):
    """The hub closed the connection (a close frame, or the socket ended)."""

    def __init__(self, code: int | None, reason: str):
        super().__init__(f"closed by the hub: code {code}, reason {reason!r}")
        self.code = code
        self.reason = reason


def connect(url: str, timeout: float = 5, retry_for: float = 3) -> websocket.WebSocket:
    """Opens a WebSocket to the Notek listener, retrying briefly while it is
    not listening yet (it may start a moment after the hub's HTTP side)."""
    deadline = time.monotonic() + retry_for
    while True:
        try:
            return websocket.create_connection(url, timeout=timeout, suppress_origin=True)
        except (ConnectionRefusedError, ConnectionResetError):
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.05)


class NotekClient:
    """One Notek connection with a local document that incoming inserts and
    deletes are applied to. Open one with legacy(), session() or sync();
    the hub's messages are read only when asked (receive, drain, …), so
    until then the local copy is what this client last saw."""

    def __init__(self, url: str, site: int = 0, kind: str = "unset", timeout: float = 5):
        self.url = url
        self.ws = connect(url, timeout=timeout)
        self.site = site
        self.kind = kind
        self.doc = NotekDocument()
        self.name: str | None = None
        # Every message received, in order.
        self.received: list[Message] = []
        self.closed: NotekClosed | None = None

    # --- opening ---------------------------------------------------------

    @classmethod
    def legacy(cls, url: str, timeout: float = 5) -> "NotekClient":
        """Greets and waits for NewSession: the assigned site and the document."""
        client = cls(url, kind="legacy")
        try:
            client.send(greet())
            client.expect(NewSession, timeout)
        except BaseException:
            client.close()
            raise
        return client

    @classmethod
    def session(cls, url: str, doc_id: uuid.UUID, site: int, name: str = "",
                last_sync_time: int = 0) -> "NotekClient":
        """Sends session_start; the hub's catch-up inserts are read later."""
        client = cls(url, site=site, kind="session")
        client.send(session_start(last_sync_time, doc_id, name))
        return client

    @classmethod
    def sync(cls, url: str) -> "NotekClient":
        """A sync connection: its kind is set by the first request sent."""
        return cls(url, kind="sync")

    # --- sending ---------------------------------------------------------

    def send(self, data: bytes) -> None:
        self.ws.send_binary(data)

    def _insert_message(self, char: str, pid: PID) -> bytes:
        if self.kind == "legacy":
            return legacy_insert(self.site, char, pid)
        return session_insert(self.site, char, pid)

    def _delete_message(self, pid: PID) -> bytes:
        if self.kind == "legacy":
            return legacy_delete(self.site, pid)
        return session_delete(self.site, pid)

    def insert_at(self, index: int, text: str, delay: float = 0.0) -> list[Atom]:
        """Types `text` before the character at `index` of the local copy:
        one insert message per character, `delay` seconds apart."""
        atoms = self.doc.insert_at(index, text, self.site)
        for number, atom in enumerate(atoms):
            if delay and number:
                time.sleep(delay)
            self.send(self._insert_message(atom.char, atom.pid))
        return atoms

    def append(self, text: str, delay: float = 0.0) -> list[Atom]:
        return self.insert_at(len(self.doc.chars), text, delay)

    def delete_at(self, index: int, count: int = 1, delay: float = 0.0) -> list[PID]:
        """Deletes `count` characters of the local copy from `index`."""
        pids = self.doc.delete_at(index, count)
        for number, pid in enumerate(pids):
            if delay and number:
                time.sleep(delay)
            self.send(self._delete_message(pid))
        return pids

    def delete_text(self, text: str) -> list[PID]:
        """Deletes the first occurrence of `text` in the local copy."""
        return self.delete_at(self.text.index(text), len(text))

    def rename_session(self, name: str) -> None:
        self.send(session_name(name))
        self.name = name

    # --- sync requests -----------------------------------------------------

    def synclist(self, last_sync_time: int, timeout: float = 5) -> SyncList:
        self.send(synclist(last_sync_time))
        return self.expect(SyncList, timeout)

    def pull(self, doc_id: uuid.UUID, last_sync_time: int = 0, timeout: float = 5) -> SyncDoc:
        self.send(sync_doc_pull(doc_id, last_sync_time))
        response = self.expect(SyncDoc, timeout)
        if response.doc_id != doc_id:
            raise AssertionError(f"pulled {doc_id}, the answer is for {response.doc_id}")
        return response

    def upsert(self, doc_id: uuid.UUID, name: str, last_sync_time: int,
               inserts: Iterable[Atom], deletes: Iterable[PID]) -> None:
        self.send(sync_doc_upsert(doc_id, name, last_sync_time, inserts, deletes))

    def rename(self, doc_id: uuid.UUID, name: str) -> None:
        self.send(rename(doc_id, name))

    def delete_doc(self, doc_id: uuid.UUID) -> None:
        self.send(delete_doc(doc_id))

    # --- receiving ---------------------------------------------------------

    @property
    def text(self) -> str:
        return self.doc.text

    def apply(self, message: Message) -> None:
        if isinstance(message, NewSession):
            self.site = message.site
            self.doc = NotekDocument.of(message.atoms)
        elif isinstance(message, Insert):
            self.doc.apply_insert(message.atom.pid, message.atom.char)
        elif isinstance(message, Delete):
            self.doc.apply_delete(message.pid)
        elif isinstance(message, NameChange):
            self.name = message.name

    def receive(self, timeout: float = 5) -> Message | None:
        """The next message (applied to the local copy), or None if none
        came within `timeout`. Raises NotekClosed once the hub closes."""
        if self.closed:
            raise self.closed
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self.ws.settimeout(remaining)
            try:
                opcode, data = self.ws.recv_data(control_frame=True)
            except websocket.WebSocketTimeoutException:
                return None
            except (websocket.WebSocketConnectionClosedException, ConnectionError) as error:
                self.closed = NotekClosed(None, f"connection ended without a close frame ({error})")
                raise self.closed from None
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                code = int.from_bytes(data[:2], "big") if len(data) >= 2 else None
                self.closed = NotekClosed(code, data[2:].decode("utf-8", errors="replace"))
                raise self.closed
            if opcode in (websocket.ABNF.OPCODE_PING, websocket.ABNF.OPCODE_PONG):
                continue
            if opcode != websocket.ABNF.OPCODE_BINARY:
                raise AssertionError(f"Notek messages are binary frames; got opcode {opcode}: {data[:100]!r}")
            try:
                message = parse_hub_message(data)
            except NotekDecodeError as error:
                raise AssertionError(f"the hub sent a malformed message ({error}): {bytes(data).hex(' ')}") from None
            self.received.append(message)
            self.apply(message)
            return message

    def expect(self, kind: type, timeout: float = 5):
        """The next message, which must be a `kind`."""
        message = self.receive(timeout)
        if message is None:
            raise AssertionError(f"no {kind.__name__} from the hub within {timeout} s")
        if not isinstance(message, kind):
            raise AssertionError(f"expected {kind.__name__}, got {message!r}")
        return message

    def drain(self, quiet_seconds: float = 0.3, limit: float = 5) -> list[Message]:
        """Reads messages until none comes for `quiet_seconds` (or `limit`
        seconds have passed); returns them."""
        messages = []
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            message = self.receive(min(quiet_seconds, max(0.0, deadline - time.monotonic())))
            if message is None:
                break
            messages.append(message)
        return messages

    def receive_until(self, condition: Callable[["NotekClient"], bool], what: str,
                      timeout: float = 5) -> None:
        """Reads messages until condition(self) holds; fails saying `what`
        was awaited and what the local copy reads."""
        deadline = time.monotonic() + timeout
        while not condition(self):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}; "
                                     f"the {self.kind} client (site {self.site}) reads {self.text!r}")
            self.receive(min(remaining, 0.2))

    def close_frame(self, timeout: float = 5) -> tuple[int | None, str]:
        """Skips data frames until the hub closes; returns (code, reason)."""
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                self.receive(max(0.0, deadline - time.monotonic()))
        except NotekClosed as closed:
            return closed.code, closed.reason
        raise AssertionError(f"the hub did not close the connection within {timeout} s")

    def close(self) -> None:
        try:
            self.ws.close(timeout=1)
        except Exception:  # already closed by the hub, or the hub is gone
            pass

    def __enter__(self) -> "NotekClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

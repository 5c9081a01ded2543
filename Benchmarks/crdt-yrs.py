"""The same trace replay as `hearth-bench crdt`, through Yrs (PyPI pycrdt),
for comparison. Run by `make bench-crdt` when pycrdt is importable:

    python3 Benchmarks/crdt-yrs.py TRACE.json.gz …

Prints one Markdown row per trace: local replay, remote apply (one update
per edit, as a live peer would receive them), encode and decode of the whole
document, encoded size. Python's per-call overhead is included, which the
Swift numbers do not pay; read the comparison with that in mind.
"""

from __future__ import annotations

import gzip
import json
import resource
import sys
import time
from pathlib import Path

try:
    from pycrdt import Doc, Text
except ImportError:
    sys.exit(2)  # not installed: hearth-bench says how to get it


def load(path: str) -> dict:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def in_utf8(start: str, patches: list) -> list:
    """The patches with positions and lengths in UTF-8 bytes, which is how
    pycrdt's Text counts; the traces count characters. Worked out once,
    before any timing, on a copy of the text (ASCII-only traces need none).
    Counting in characters was why the replay diverged."""
    if start.isascii() and all(inserted.isascii() for _, _, inserted in patches):
        return patches
    text = start
    converted = []
    for position, deleted, inserted in patches:
        before = len(text[:position].encode("utf-8"))
        removed = len(text[position:position + deleted].encode("utf-8"))
        converted.append((before, removed, inserted))
        text = text[:position] + inserted + text[position + deleted:]
    return converted


def replay(path: str) -> str:
    trace = load(path)
    patches = in_utf8(trace.get("startContent", ""), [p for txn in trace["txns"] for p in txn["patches"]])
    # Timed without an observer; a second, untimed replay collects the
    # per-edit updates that the remote apply then replays.
    typist = Doc(client_id=1)
    text = typist.get("text", type=Text)
    if trace.get("startContent"):
        text.insert(0, trace["startContent"])
    started = time.perf_counter()
    for position, deleted, inserted in patches:
        if deleted:
            del text[position:position + deleted]
        if inserted:
            text.insert(position, inserted)
    local = time.perf_counter() - started
    assert str(text) == trace["endContent"], "local replay diverged"

    recorder = Doc(client_id=1)
    recorded = recorder.get("text", type=Text)
    updates: list[bytes] = []
    recorder.observe(lambda event: updates.append(event.update))
    if trace.get("startContent"):
        recorded.insert(0, trace["startContent"])
    for position, deleted, inserted in patches:
        if deleted:
            del recorded[position:position + deleted]
        if inserted:
            recorded.insert(position, inserted)

    listener = Doc(client_id=2)
    listener_text = listener.get("text", type=Text)
    started = time.perf_counter()
    for update in updates:
        listener.apply_update(update)
    remote = time.perf_counter() - started
    assert str(listener_text) == trace["endContent"], "remote apply diverged"

    started = time.perf_counter()
    state = listener.get_update()
    encode = time.perf_counter() - started
    started = time.perf_counter()
    reopened = Doc(client_id=3)
    reopened.apply_update(state)
    decode = time.perf_counter() - started
    assert str(reopened.get("text", type=Text)) == trace["endContent"], "decode diverged"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    name = Path(path).name.removesuffix(".gz").removesuffix(".json")
    edits = len(patches)
    return (f"| {name} (Yrs via pycrdt) | {edits} | {local * 1000:.1f} | {edits / local / 1e6:.2f}M | "
            f"{remote * 1000:.1f} | {edits / remote / 1e6:.2f}M | {encode * 1000:.1f} | {decode * 1000:.1f} | "
            f"{len(state) / 1024:.1f} | {peak:.1f} |")


if __name__ == "__main__":
    for trace_path in sys.argv[1:]:
        print(replay(trace_path), flush=True)

#!/usr/bin/env python3
"""The first EDITS edits of an editing trace, as a trace of their own (its
endContent worked out by replaying them), so `make bench-smoke` can run
`hearth-bench crdt` in seconds on a debug build.
Usage: tiny-trace.py TRACE.json[.gz] EDITS OUT.json"""

import gzip
import json
import sys

path, edits, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8") as f:
    trace = json.load(f)
text = trace.get("startContent", "")
txns = []
taken = 0
for txn in trace["txns"]:
    if taken >= edits:
        break
    patches = txn["patches"][: edits - taken]
    for position, deleted, inserted in patches:
        text = text[:position] + inserted + text[position + deleted:]
    taken += len(patches)
    txns.append({**txn, "patches": patches})
with open(out, "w", encoding="utf-8") as f:
    json.dump({**trace, "txns": txns, "endContent": text}, f, ensure_ascii=False)

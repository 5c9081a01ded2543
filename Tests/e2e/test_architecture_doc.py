"""Docs/architecture.md is the map: every file path it names exists, and
every type it names is declared somewhere in Sources/ or Tests/ (or is one
of the few outside names it mentions on purpose). A renamed file or type
then fails here, in the same commit, instead of leaving the map wrong."""

from __future__ import annotations

import glob
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Named in the doc on purpose, declared outside this repository: systemd's
# unit settings and a library's type.
OUTSIDE = {"IPAddressAllow", "LimitNOFILE", "MemoryMax", "TasksMax", "ServiceGroup"}


def test_every_path_and_type_the_map_names_exists():
    doc = (ROOT / "Docs/architecture.md").read_text(encoding="utf-8")
    quoted = re.findall(r"`([^`\n]+)`", doc)

    paths = [q.split(" ")[0].rstrip("/") for q in quoted if re.match(r"^(Sources|Web|Tests|Benchmarks|Packaging|Docs)/", q)]
    assert len(paths) >= 20, "the map names files"
    missing_paths = [path for path in paths if not glob.glob(str(ROOT / path.replace("…", "*")))]
    assert not missing_paths, f"named in Docs/architecture.md but not in the tree: {missing_paths}"

    declared = set(os.listdir(ROOT / "Sources"))
    for source in list((ROOT / "Sources").rglob("*.swift")) + list((ROOT / "Tests").rglob("*.swift")):
        declared.update(re.findall(r"\b(?:struct|class|enum|actor|protocol|typealias|extension)\s+([A-Z]\w*)",
                                   source.read_text(encoding="utf-8")))
    # A type: starts with a capital, has another capital and a small letter
    # (NoteSession, HearthStore.remind(at:)); not a header or a constant.
    types = set()
    for q in quoted:
        match = re.match(r"^([A-Z][A-Za-z0-9]+)(?:[.(<]|$)", q)
        if match and sum(c.isupper() for c in match[1]) >= 2 and any(c.islower() for c in match[1]):
            types.add(match[1])
    assert len(types) >= 80, "the map names types"
    missing_types = sorted(types - declared - OUTSIDE)
    assert not missing_types, f"named in Docs/architecture.md but declared nowhere: {missing_types}"

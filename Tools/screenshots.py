#!/usr/bin/env python3
"""`make screenshots`: every page as each role sees it, in English and Polish,
light and dark, on a 1280×800 tablet and a 390×844 phone, into
build/screenshots/ with an index.html to look through them side by side.

A real hub (the debug build, serving Web/ from disk so no rebuild is needed)
on a loopback port, with a household made through its API: a senior with
her tablet, a caregiver who looks after her, the day's medications at the
hub's 10:00 (one taken, one due, two later, one as needed), a pinned shared
note and a checklist. The browser is the tests' headless Chromium. Nothing
is judged here: it is for a person to look at.

Run it from the repository with the tests' virtual environment:
  .venv/bin/python Tools/screenshots.py [OUT_DIR]
"""
from __future__ import annotations

import html
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("E2E_WEB_ROOT", str(REPO / "Web"))
sys.path.insert(0, str(REPO / "Tests" / "e2e"))

from conftest import HubLauncher  # noqa: E402
from showcase import SIZES, chromium, household, shoot  # noqa: E402

LANGUAGES = ("en", "pl")
THEMES = ("light", "dark")
PAGES = {
    "senior": ["panel", "today", "notes", "games", "games/memory", "settings"],
    "caregiver": ["today", "notes", "medications", "medications/history", "alerts", "games", "household", "settings"],
}


def index_page(out, shots):
    rows = []
    for role, pages in PAGES.items():
        rows.append(f"<h2>{html.escape(role)}</h2>")
        for page in pages:
            rows.append(f"<h3>{html.escape(page)}</h3><div class='row'>")
            for name in shots.get((role, page), []):
                rows.append(f"<figure><a href='{name}'><img loading='lazy' src='{name}' alt=''></a>"
                            f"<figcaption>{html.escape(name)}</figcaption></figure>")
            rows.append("</div>")
    (out / "index.html").write_text(
        "<!doctype html><meta charset='utf-8'><title>Hearth screens</title><style>"
        "body{font-family:system-ui,sans-serif;margin:1rem}.row{display:flex;flex-wrap:wrap;gap:1rem}"
        "figure{margin:0}img{max-height:420px;border:1px solid #999}figcaption{font-size:12px}</style>"
        "<h1>Hearth: every screen</h1>" + "".join(rows), encoding="utf-8")


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else REPO / "build" / "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    launcher = HubLauncher(Path(tempfile.mkdtemp(prefix="hearth-screens-")))
    driver = None
    try:
        hub = launcher.start().pair_admin()
        tokens = household(hub)
        driver = chromium()
        shots: dict[tuple[str, str], list[str]] = {}
        for role, pages in PAGES.items():
            for page in pages:
                for size in SIZES:
                    for language in LANGUAGES:
                        for theme in THEMES:
                            name = f"{role}-{page.replace('/', '-')}-{language}-{theme}-{size}.png"
                            shoot(driver, hub, tokens[role], page, language, theme, size, out / name)
                            shots.setdefault((role, page), []).append(name)
        index_page(out, shots)
        print(f"screenshots: {sum(len(v) for v in shots.values())} screens in {out}/index.html")
    finally:
        if driver:
            driver.quit()
        problems = launcher.stop_all()
        if problems:
            print("\n".join(problems), file=sys.stderr)


if __name__ == "__main__":
    main()

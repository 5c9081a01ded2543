"""The key screens look as they were meant to: each is photographed in the
tests' Chromium from the showcase household (showcase.py) on a fixed day
and compared, pixel by pixel with a tolerance (Pillow), with its reference
image in Tests/e2e/reference-screens/. A page that lost its stylesheet, its
icons or its layout differs in far more than the tolerance; a clock a
minute on or a line of text a few pixels over does not.

When a change to a screen is meant, remake the references with
`make reference-screens` and look at them before committing them. A failing
comparison keeps its shot and a picture of the difference (red where the
pixels differ), and names both."""
from __future__ import annotations

import os
import shutil
from datetime import date
from pathlib import Path

import pytest
import requests
from PIL import Image, ImageChops

from conftest import Hub
from showcase import household, shoot

REFERENCES = Path(__file__).parent / "reference-screens"
UPDATE = os.environ.get("HEARTH_UPDATE_REFERENCES") == "1"
# A Wednesday, so every screen shows the same day, date and deal of the day.
DAY = date(2026, 3, 4)
# A pixel differs when a channel is off by more than this (anti-aliasing is less)…
PIXEL_THRESHOLD = 48
# …and a screen differs when more than this share of its pixels do.
SCREEN_TOLERANCE = 0.02

SCREENS = [
    # name, role, page, language, theme, size
    ("senior-panel", "senior", "panel", "en", "light", "tablet"),
    ("senior-today", "senior", "today", "pl", "light", "tablet"),
    ("caregiver-today", "caregiver", "today", "en", "light", "phone"),
    ("senior-word-game", "senior", "games/wordle", "en", "light", "tablet"),
    ("caregiver-notes", "caregiver", "notes", "pl", "light", "tablet"),
    # Last: from here on the senior's SOS is open.
    ("caregiver-sos", "caregiver", "today", "en", "dark", "phone"),
]


def share_differing(shot: Path, reference: Path, difference: Path) -> float:
    """The share of pixels that differ (1.0 when the sizes do); draws them in `difference`."""
    taken, expected = Image.open(shot).convert("RGB"), Image.open(reference).convert("RGB")
    if taken.size != expected.size:
        return 1.0
    channels = ImageChops.difference(taken, expected).split()
    mask = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2]).point(
        lambda value: 255 if value > PIXEL_THRESHOLD else 0)
    differing = mask.histogram()[255]
    marked = expected.copy()
    marked.paste((220, 0, 0), mask=mask)
    marked.save(difference)
    return differing / (taken.width * taken.height)


@pytest.fixture(scope="module")
def showcase(tmp_path_factory, browser_for_module):
    from conftest import HubLauncher
    launcher = HubLauncher(tmp_path_factory.mktemp("showcase"))
    try:
        hub = launcher.start().pair_admin()
        yield hub, household(hub, DAY)
    finally:
        problems = launcher.stop_all()
        assert not problems, problems


@pytest.fixture(scope="module")
def browser_for_module(_chromium, _web_ui_is_current):
    yield _chromium
    _chromium.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    _chromium.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})
    _chromium.execute_cdp_cmd("Network.clearBrowserCookies", {})
    _chromium.get("about:blank")


@pytest.mark.parametrize("name, role, page, language, theme, size", SCREENS, ids=[screen[0] for screen in SCREENS])
def test_the_screen_looks_as_its_reference(showcase, browser_for_module, tmp_path, name, role, page, language, theme, size):
    hub, tokens = showcase
    if name == "caregiver-sos":
        raise_sos_once(hub, tokens["senior"])
    shot = tmp_path / f"{name}.png"
    shoot(browser_for_module, hub, tokens[role], page, language, theme, size, shot)
    reference = REFERENCES / f"{name}.png"
    if UPDATE:
        REFERENCES.mkdir(exist_ok=True)
        shutil.copyfile(shot, reference)
        pytest.skip(f"reference remade: {reference}")
    assert reference.exists(), f"no reference image {reference}: make reference-screens, look at it, commit it"
    difference = tmp_path / f"{name}-difference.png"
    share = share_differing(shot, reference, difference)
    assert share <= SCREEN_TOLERANCE, (
        f"{name} differs from its reference in {share:.1%} of its pixels (at most {SCREEN_TOLERANCE:.0%}): "
        f"see {shot} and {difference} (red: what differs); if the change is meant, make reference-screens")


def raise_sos_once(hub: Hub, senior_token: str) -> None:
    headers = {"Authorization": f"Bearer {senior_token}"}
    open_alerts = requests.get(f"{hub.url}/api/v1/alerts", headers=headers, timeout=5).json()
    if not any(alert["kind"] == "sos" for alert in open_alerts):
        response = requests.post(f"{hub.url}/api/v1/sos", headers=headers, timeout=5)
        assert response.status_code == 201, response.text


def test_a_screen_without_its_styles_is_far_outside_the_tolerance(showcase, browser_for_module, tmp_path):
    """The comparison itself: the senior's panel with its stylesheets taken
    away (the failure this guards against) is told apart, and an image is
    its own twin."""
    reference = REFERENCES / "senior-panel.png"
    if UPDATE or not reference.exists():
        pytest.skip("no reference to compare with yet (make reference-screens)")
    hub, tokens = showcase
    shot = tmp_path / "senior-panel.png"
    shoot(browser_for_module, hub, tokens["senior"], "panel", "en", "light", "tablet", shot)
    assert share_differing(shot, shot, tmp_path / "same.png") == 0
    browser_for_module.execute_script("document.querySelectorAll('link[rel=stylesheet]').forEach((sheet) => sheet.remove())")
    unstyled = tmp_path / "unstyled.png"
    browser_for_module.save_screenshot(str(unstyled))
    assert share_differing(unstyled, reference, tmp_path / "difference.png") > 5 * SCREEN_TOLERANCE

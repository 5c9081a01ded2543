"""A household to look at: the one `make screenshots` (Tools/screenshots.py)
photographs every page of, and the reference screens
(test_reference_screens.py) compare against their images. A senior with her
tablet, a caregiver who looks after her, the day's medications at the hub's
10:00 (one taken, one missed, two later, one as needed), a pinned shared
checklist and a note; and how to photograph a page of it as one device."""
from __future__ import annotations

import time
from datetime import date, datetime
from zoneinfo import ZoneInfo

import requests
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import CHROMEDRIVER, chromium_options
from test_reminders_live import set_hub_clock

SIZES = {"tablet": (1280, 800), "phone": (390, 844)}
SENIOR_NAME = "Zofia Łęcka"
CARER_NAME = "Anna Łęcka"


def household(hub, day: date | None = None) -> dict[str, str]:
    """Makes the household on `hub` (its admin paired), on `day` (today if
    None) as the hub's clock has it; returns each role's device token."""
    senior = hub.pair_device("--new-person", SENIOR_NAME, "--role", "senior", device_name="Tablet babci")
    carer = hub.pair_device("--new-person", CARER_NAME, "--role", "caregiver", device_name="Telefon Ani")
    linked = hub.hearth("people", "link", "--caregiver", CARER_NAME, "--senior", SENIOR_NAME)
    assert linked.returncode == 0, linked.stdout + linked.stderr
    carer_headers = {"Authorization": f"Bearer {carer['token']}"}
    answer = requests.get(f"{hub.url}/api/v1/household", headers=carer_headers, timeout=5)
    zone = ZoneInfo(answer.json()["timeZone"])
    morning = datetime.combine(day or datetime.now(zone).date(), datetime.min.time(), zone)
    set_hub_clock(hub, hub.token, morning.replace(hour=7), confirm=True)

    def medication(name, schedules, **fields):
        response = requests.post(f"{hub.url}/api/v1/medications", headers=carer_headers, timeout=5,
                                 json={"personId": senior["person"]["id"], "name": name, "schedules": schedules, **fields})
        assert response.status_code == 201, response.text

    daily = lambda time_of_day, amount=1: {"kind": "weekly", "times": [time_of_day], "weekdays": [1, 2, 3, 4, 5, 6, 7], "amount": amount}  # noqa: E731
    medication("Metformina", [daily("08:00"), daily("20:00")], strength="500 mg", appearance="white oval tablet",
               stock=40, packageSize=60, lowStockDays=7)
    medication("Bisoprolol", [daily("09:30")], strength="5 mg", appearance="small yellow heart")
    medication("Witamina D", [daily("13:00", 2)], appearance="clear capsule")
    medication("Paracetamol", [{"kind": "asNeeded", "amount": 1, "minimumIntervalMinutes": 240}], strength="500 mg")
    set_hub_clock(hub, hub.token, morning.replace(hour=10))
    today = requests.get(f"{hub.url}/api/v1/today", headers=carer_headers, timeout=5).json()
    first = next(dose for dose in today["people"][0]["doses"] if dose["time"] == "08:00")
    response = requests.post(f"{hub.url}/api/v1/doses", headers=carer_headers, timeout=5,
                             json={"key": first["key"], "status": "taken"})
    assert response.status_code in (200, 201), response.text
    for title, text, pinned in (("Zakupy", "[ ] mleko\n[x] chleb\n[ ] jabłka\n[ ] herbata", True),
                                ("Wizyta u lekarza", "Czwartek 11:30, dr Nowak. Zabrać wyniki badań i listę leków.", False)):
        response = requests.post(f"{hub.url}/api/v1/notes", headers=carer_headers, timeout=5,
                                 json={"title": title, "text": text, "visibility": "shared", "pinned": pinned})
        assert response.status_code == 201, response.text
    return {"senior": senior["token"], "caregiver": carer["token"]}


def chromium():
    """A Chromium of its own for make screenshots (the tests share theirs)."""
    options = chromium_options("--window-size=1280,900", "--hide-scrollbars")
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


def shoot(driver, hub, token, page, language, theme, size, path):
    width, height = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": theme}]})
    # A page load each time (going to another #/page would not be one, and the
    # page would stay the previous device's), with this device's cookie.
    driver.get("about:blank")
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Network.setCookie", {"name": "hearth_device", "value": token, "url": hub.url,
                                                 "httpOnly": True, "sameSite": "Strict", "path": "/"})
    driver.get(f"{hub.url}/#/{page}")
    until(driver, "the page", "return !!document.querySelector('main h1')")
    # As a person does: the header's language switch.
    Select(driver.find_element(By.ID, "language-select")).select_by_value(language)
    until(driver, f"the page in {language}", f"return document.documentElement.lang === '{language}'")
    time.sleep(0.8)  # the live stream's first answer and the page's words redrawn
    driver.save_screenshot(str(path))


def until(driver, what, script, seconds=10):
    deadline = time.monotonic() + seconds
    while not driver.execute_script(script):
        if time.monotonic() > deadline:
            raise TimeoutError(f"screenshots: waited {seconds} s for {what} at {driver.current_url}")
        time.sleep(0.1)



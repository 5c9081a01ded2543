"""A caregiver away from home is pushed through an Internet ntfy server (a
stand-in on loopback speaking ntfy's publish API): on Settings in Chromium
she chooses it and sees how to subscribe (the ntfy app's link, a QR code,
the address), the page saying what the server may read; her SOS reaches
her secret topic within 10 s with the kind and whom to call; a busy server
(429) is tried again and the push arrives once; the hub's own ntfy topics
get ntfy's poll requests (for the iPhones at home); a new address stops
the old one."""

from __future__ import annotations

import hashlib
import time

import pytest
import requests
from selenium.webdriver.common.by import By

from conftest import Hub, HubLauncher
from ntfy_server import NtfyStandIn
from test_care_ui import SENIOR, CareHome, browser, home, open_as  # noqa: F401 (fixtures)
from test_status_lines import shot
from test_web_ui import axe_violations, choose_language, wait_for


@pytest.fixture
def ntfy():
    server = NtfyStandIn(answers=[429])
    yield server
    server.stop()


@pytest.fixture
def hub_process(hub_launcher: HubLauncher, data_dir, ntfy) -> Hub:
    return hub_launcher.start(data_dir=data_dir, env={"HEARTH_PUSH_ENABLED": "true", "HEARTH_PUSH_SERVER": ntfy.url})


def away(home: CareHome) -> dict:
    response = requests.get(f"{home.hub.url}/api/v1/people/{home.carer['person']['id']}/away",
                            headers=home.carer_headers, timeout=5)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["tablet", "phone"])
def test_she_chooses_push_subscribes_and_her_sos_reaches_her_topic_once(browser, home, ntfy, size):  # noqa: F811
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
    try:
        open_as(browser, home.hub, home.carer["token"], "127.0.0.1", "settings")
        wait_for(browser, "the push choice", lambda d: d.find_elements(By.ID, "away-push"))
        assert "cannot send texts" in browser.find_element(By.ID, "away-no-modem").text, "no modem: no text is offered"
        assert not browser.find_elements(By.ID, "away-sms")
        assert "only the kind of alert" in browser.find_element(By.ID, "away-push-hint").text
        browser.find_element(By.CSS_SELECTOR, "label[for='away-push']").click()
        url = wait_for(browser, "the address", lambda d: d.find_elements(By.ID, "away-push-url"))[0].text
        assert url == away(home)["pushUrl"] and url.startswith(ntfy.url + "/hearth-")
        link = browser.find_element(By.ID, "away-push-app-link").get_attribute("href")
        assert link == f"ntfy://127.0.0.1:{ntfy.port}/{url.rsplit('/', 1)[1]}?secure=false"
        assert browser.find_element(By.ID, "away-push-qr").get_attribute("aria-label")
        browser.execute_script("document.getElementById('away-push-subscribe').scrollIntoView({block: 'start'})")
        shot(browser, f"settings-away-push-{size[0]}")
        assert axe_violations(browser, "settings, push") == []
        choose_language(browser, "pl")
        wait_for(browser, "in Polish", lambda d: "Internet" in d.find_element(By.CSS_SELECTOR, "label[for='away-push']").text)
        assert axe_violations(browser, "settings, push, Polish") == []
        choose_language(browser, "en")

        # Her mother's SOS: the server is busy the first time (429), then takes it, once.
        response = requests.post(f"{home.hub.url}/api/v1/sos", headers=home.senior_headers, timeout=5, json={})
        assert response.status_code == 201, response.text
        [message] = ntfy.wait_for_messages(1, timeout=15)
        assert message["topic"] == url.rsplit("/", 1)[1]
        assert message["priority"] == 5 and message["message"] == f"SOS from home: call {SENIOR}"
        assert [entry["status"] for entry in ntfy.published if "json" in entry] == [429, 200]
        # The iPhones at home: a poll request for each of the hub's ntfy topics the SOS is on.
        hub_ntfy = f"http://127.0.0.1:{home.hub.port}/ntfy"
        wanted = {"/" + hashlib.sha256(f"{hub_ntfy}/{topic}".encode()).hexdigest() for topic in ("alerts", "sos")}
        wait_for(browser, "the poll requests", lambda d: wanted <= {entry["path"] for entry in ntfy.poll_requests()})
        assert all(entry["headers"].get("X-Poll-ID") for entry in ntfy.poll_requests())
        time.sleep(2)
        assert len(ntfy.messages()) == 1
        alert = response.json()
        deliveries = requests.get(f"{home.hub.url}/api/v1/alerts/{alert['id']}/deliveries", headers=home.carer_headers, timeout=5).json()
        assert [(d["channel"], d["state"]) for d in deliveries["deliveries"] if d["channel"] == "push"] == [("push", "sent")]

        # A new address: the old one is heard no more.
        browser.find_element(By.ID, "away-push-renew").click()
        wait_for(browser, "a new address", lambda d: d.find_element(By.ID, "away-push-url").text not in ("", url))
        assert away(home)["pushUrl"] != url
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

"""A caregiver away from home is texted, through the real gammu-smsd on
gammu's dummy phone and the real hub: the SOS a senior slides on her tablet
(in Chromium) is texted within 10 s to her linked caregiver who chose texts,
with her name and a reply code, and to nobody else; the caregiver's reply
placed in the dummy phone comes back through gammu-smsd's RunOnReceive
(`hearth sms received`) and the tablet says she is on the way within 10 s;
a hub restarted in the middle of the ladder texts nobody twice; and the
household's emergency contact is texted only once the SOS has gone
unanswered for ten minutes of the hub's clock."""

from __future__ import annotations

import re
import shutil
import time
from datetime import datetime, timedelta, timezone

import pytest
import requests
from selenium.webdriver.common.by import By

from conftest import Hub, HubLauncher, hub_environment, require_binary
from dummy_modem import DummyModem
from test_care_ui import CARER, SENIOR, CareHome, browser, home, open_as  # noqa: F401 (fixtures)
from test_reminders_live import set_hub_clock
from test_status_lines import call_for_help, senior_tablet, shot, sos_line
from test_web_ui import axe_violations, choose_language, wait_for

ANIA_PHONE = "+48 600 100 200"
ELA_PHONE = "+48600100300"
PIOTR_PHONE = "+48600100400"
NEIGHBOUR_PHONE = "+48600100900"

pytestmark = pytest.mark.skipif(shutil.which("gammu-smsd") is None,
                                reason="gammu-smsd is not installed: `make test` installs it")


@pytest.fixture
def modem(tmp_path, data_dir):
    """gammu-smsd on the dummy phone; what it receives goes to `hearth sms received` for the test's hub."""
    modem = DummyModem(tmp_path / "modem", run_on_receive=[str(require_binary()), "sms", "received", "--data", str(data_dir)],
                       env=hub_environment())
    yield modem
    modem.stop()


@pytest.fixture
def hub_process(hub_launcher: HubLauncher, data_dir, modem) -> Hub:
    """The hub, texting through the dummy modem."""
    return hub_launcher.start(data_dir=data_dir, env=texting(modem))


def texting(modem: DummyModem) -> dict[str, str]:
    return {"HEARTH_SMS_ENABLED": "true", "HEARTH_SMS_SMSD_CONFIG": str(modem.config)}


def add_person(hub: Hub, name: str, phone: str, linked: bool, texts: bool) -> dict:
    added = hub.hearth("people", "add", name, "--role", "caregiver")
    assert added.returncode == 0, added.stdout + added.stderr
    response = requests.get(f"{hub.url}/api/v1/people", headers=hub.headers, timeout=5)
    [person] = [p for p in response.json() if p["name"] == name]
    set_phone(hub, person["id"], phone)
    if linked:
        assert hub.hearth("people", "link", "--caregiver", name, "--senior", SENIOR).returncode == 0
    choose(hub, person["id"], texts)
    return person


def set_phone(hub: Hub, person_id: str, phone: str) -> None:
    response = requests.patch(f"{hub.url}/api/v1/people/{person_id}", headers=hub.headers, timeout=5, json={"phone": phone})
    assert response.status_code == 200, response.text


def choose(hub: Hub, person_id: str, texts: bool) -> None:
    response = requests.put(f"{hub.url}/api/v1/people/{person_id}/away", headers=hub.headers, timeout=5,
                            json={"sms": texts, "push": False})
    assert response.status_code == 200, response.text


@pytest.fixture
def family(home: CareHome):  # noqa: F811
    """Ania (linked) chose texts; Ela (linked) did not; Piotr chose texts but looks after nobody here."""
    hub = home.hub
    set_phone(hub, home.carer["person"]["id"], ANIA_PHONE)
    choose(hub, home.carer["person"]["id"], True)
    add_person(hub, "Ela", ELA_PHONE, linked=True, texts=False)
    add_person(hub, "Piotr", PIOTR_PHONE, linked=False, texts=True)
    return home


def code_in(text: str) -> str:
    [code] = re.findall(r"(?<!\d)\d{4,6}(?!\d)", text)
    return code


def deliveries(home: CareHome, alert_id: str) -> dict:
    response = requests.get(f"{home.hub.url}/api/v1/alerts/{alert_id}/deliveries", headers=home.carer_headers, timeout=5)
    assert response.status_code == 200, response.text
    return response.json()


def test_her_sos_is_texted_to_her_caregiver_and_the_reply_tells_the_tablet_she_is_on_the_way(browser, family, modem):  # noqa: F811
    senior_tablet(browser, family)
    slid = time.monotonic()
    alert = call_for_help(browser, family)
    [text] = modem.wait_for_sent(1, timeout=10)
    assert time.monotonic() - slid < 10
    assert text.number == ANIA_PHONE.replace(" ", "")
    assert SENIOR in text.text, text.text
    code = code_in(text.text)
    time.sleep(3)
    assert len(modem.sent()) == 1, "Ela chose no texts and Piotr looks after someone else: neither is texted"
    [sms] = [d for d in deliveries(family, alert["id"])["deliveries"] if d["channel"] == "sms"]
    assert sms["recipient"] == CARER and sms["state"] == "sent", sms

    # A stranger's text with her code acts on nothing.
    modem.receive(PIOTR_PHONE, f"1 {code}")
    # Her reply, as people type it.
    modem.receive(ANIA_PHONE.replace(" ", ""), f"1 {code} jadę!")
    wait_for(browser, "the tablet says she is on the way", lambda d: "on the way" in (sos_line(d) or ""), timeout=10)
    answered = deliveries(family, alert["id"])
    assert answered["respondedFrom"] == "text message"
    assert [d["state"] for d in answered["deliveries"] if d["channel"] == "sms"] == ["answered"]
    response = requests.get(f"{family.hub.url}/api/v1/alerts/{alert['id']}", headers=family.carer_headers, timeout=5)
    assert response.json()["respondedBy"] == family.carer["person"]["id"]
    log = (modem.root / "run-on-receive.log").read_text()
    assert "ignored" in log and "answered the alert" in log, log
    assert code not in log, "what a text said is never written down"


def test_a_restart_mid_ladder_texts_nobody_twice_and_the_neighbour_only_after_ten_minutes(
        family, modem, hub_launcher, data_dir):  # noqa: F811
    hub = family.hub
    response = requests.put(f"{hub.url}/api/v1/household/emergency-contacts", headers=hub.headers, timeout=5,
                            json=[{"name": "Pani Halina", "phone": NEIGHBOUR_PHONE}])
    assert response.status_code == 200, response.text
    response = requests.post(f"{hub.url}/api/v1/sos", headers=family.senior_headers, timeout=5, json={})
    assert response.status_code == 201, response.text
    alert = response.json()
    modem.wait_for_sent(1)

    # The hub stops and starts again in the middle of the ladder.
    code, _ = hub.stop()
    assert code == 0
    again = hub_launcher.start(data_dir=data_dir, env=texting(modem), port=hub.port)
    time.sleep(3)
    assert [t.number for t in modem.sent()] == [ANIA_PHONE.replace(" ", "")], "nothing twice"

    # Nine minutes on the hub's clock: still only Ania.
    raised = datetime.fromisoformat(alert["raisedAt"].replace("Z", "+00:00"))
    set_hub_clock(again, hub.headers["Authorization"].split()[1], raised + timedelta(minutes=9))
    time.sleep(3)
    assert len(modem.sent()) == 1
    # Ten: Pani Halina is texted, once, without a code (she cannot answer for the household).
    set_hub_clock(again, hub.headers["Authorization"].split()[1], raised + timedelta(minutes=10, seconds=5))
    texts = modem.wait_for_sent(2, timeout=10)
    neighbour = texts[1]
    assert neighbour.number == NEIGHBOUR_PHONE and SENIOR in neighbour.text, neighbour
    assert not re.search(r"(?<!\d)\d{4,6}(?!\d)", neighbour.text), neighbour.text
    time.sleep(3)
    assert len(modem.sent()) == 2
    states = [(d["channel"], d["state"]) for d in deliveries(family, alert["id"])["deliveries"] if d["channel"] in ("sms", "contact")]
    assert states == [("sms", "sent"), ("contact", "sent")]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["tablet", "phone"])
def test_settings_offers_texts_only_when_the_hub_can_send_them_and_she_chooses_them_herself(browser, family, size):  # noqa: F811
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
    try:
        carer_id = family.carer["person"]["id"]
        choose(family.hub, carer_id, False)
        open_as(browser, family.hub, family.carer["token"], "127.0.0.1", "settings")
        box = wait_for(browser, "the choice", lambda d: d.find_elements(By.ID, "away-sms"))[0]
        assert not box.is_selected()
        hint = browser.find_element(By.ID, "away-sms-hint").text
        assert ANIA_PHONE in hint, hint
        assert "for 15 minutes" in browser.find_element(By.ID, "away-sms-what").text, "the household's own wait" 
        browser.execute_script("document.getElementById('away-sms').scrollIntoView({block: 'center'})")
        shot(browser, f"settings-away-{size[0]}")
        assert axe_violations(browser, "settings, away from home") == []
        browser.find_element(By.CSS_SELECTOR, "label[for='away-sms']").click()
        wait_for(browser, "kept on the hub", lambda d: requests.get(
            f"{family.hub.url}/api/v1/people/{carer_id}/away", headers=family.carer_headers, timeout=5).json()["sms"] is True)
        wait_for(browser, "said", lambda d: "texted" in d.find_element(By.ID, "away-choice-announcer").text)
        choose_language(browser, "pl")
        wait_for(browser, "in Polish", lambda d: "SMS" in d.find_element(By.CSS_SELECTOR, "label[for='away-sms']").text)
        assert browser.find_element(By.ID, "away-sms").is_selected()
        assert axe_violations(browser, "settings, away from home, Polish") == []
        choose_language(browser, "en")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_hub_with_no_modem_promises_no_text(browser, hub_launcher, tmp_path):  # noqa: F811
    plain = hub_launcher.start(data_dir=tmp_path / "plain").pair_admin()
    carer = plain.pair_device("--new-person", "Ola", "--role", "caregiver", device_name="Telefon Oli")
    open_as(browser, plain, carer["token"], "127.0.0.1", "settings")
    said = wait_for(browser, "the hub's answer", lambda d: d.find_elements(By.ID, "away-no-modem"))[0].text
    assert "cannot send texts yet" in said
    assert not browser.find_elements(By.ID, "away-sms")


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["tablet", "phone"])
def test_household_says_who_is_told_away_from_home_and_keeps_the_emergency_contacts(browser, family, size):  # noqa: F811
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
    try:
        hub = family.hub
        admin_token = hub.headers["Authorization"].split()[1]
        open_as(browser, hub, admin_token, "127.0.0.1", "household/away")
        wait_for(browser, "who is told", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#away-reach li")) >= 3)
        # Read through wait_for, which reads again if the page redrew meanwhile (a minute turning, a live change).
        lines = wait_for(browser, "the lines", lambda d: {li.get_attribute("data-person-id"): li.text
                                                          for li in d.find_elements(By.CSS_SELECTOR, "#away-reach li")})
        assert lines[family.carer["person"]["id"]] == f"{CARER}: by text to {ANIA_PHONE}."
        warning = "Ela will not be told when she is away: chose neither texts nor push."
        wait_for(browser, "Ela's warning", lambda d: warning in [li.text for li in d.find_elements(By.CSS_SELECTOR, "#away-reach li.away-warning")])

        # A number that is no number: refused beside its field, nothing kept.
        browser.find_element(By.ID, "emergency-contacts-add").click()
        browser.find_element(By.ID, "emergency-contact-0-name").send_keys("Pani Halina")
        browser.find_element(By.ID, "emergency-contact-0-phone").send_keys("call me")
        browser.find_element(By.ID, "emergency-contacts-save").click()
        error = wait_for(browser, "the refusal", lambda d: d.find_elements(By.ID, "emergency-contact-0-phone-error"))[0]
        assert "phone number" in error.text
        contacts = requests.get(f"{hub.url}/api/v1/household/emergency-contacts", headers=hub.headers, timeout=5).json()
        assert contacts == []
        assert browser.find_element(By.ID, "emergency-contact-0-name").get_attribute("value") == "Pani Halina", "what she typed stays"
        phone = browser.find_element(By.ID, "emergency-contact-0-phone")
        phone.clear()
        phone.send_keys(NEIGHBOUR_PHONE)
        browser.find_element(By.ID, "emergency-contacts-save").click()
        wait_for(browser, "kept", lambda d: requests.get(f"{hub.url}/api/v1/household/emergency-contacts", headers=hub.headers,
                                                         timeout=5).json() == [{"name": "Pani Halina", "phone": NEIGHBOUR_PHONE}])
        # The page read again after the save (its line counts the contact).
        wait_for(browser, "the page read again", lambda d: "emergency contacts: 1" in d.find_element(By.ID, "household-away").text)
        # How long the household waits at home first: a wrong one refused by name, then kept.
        missed = wait_for(browser, "the delays", lambda d: d.find_elements(By.ID, "away-delay-missedDoseAwayAfterMinutes"))[0]
        assert missed.get_attribute("value") == "15"
        contacts_after = browser.find_element(By.ID, "away-delay-contactsAfterMinutes")
        contacts_after.clear()
        contacts_after.send_keys("0")
        browser.find_element(By.ID, "away-delays-save").click()
        wait_for(browser, "the refusal", lambda d: d.find_elements(By.ID, "away-delay-contactsAfterMinutes-error"))
        missed = browser.find_element(By.ID, "away-delay-missedDoseAwayAfterMinutes")
        missed.clear()
        missed.send_keys("30")
        contacts_after = browser.find_element(By.ID, "away-delay-contactsAfterMinutes")
        contacts_after.clear()
        contacts_after.send_keys("5")
        browser.find_element(By.ID, "away-delays-save").click()
        wait_for(browser, "kept", lambda d: requests.get(f"{hub.url}/api/v1/household/away-delays", headers=hub.headers, timeout=5)
                 .json() == {"missedDoseAwayAfterMinutes": 30, "contactsAfterMinutes": 5})
        browser.execute_script("document.getElementById('household-away').scrollIntoView({block: 'start'})")
        shot(browser, f"household-away-{size[0]}")
        browser.execute_script("document.getElementById('away-delays-form').scrollIntoView({block: 'start'})")
        shot(browser, f"household-away-delays-{size[0]}")
        assert axe_violations(browser, "household, away from home") == []
        choose_language(browser, "pl")
        wait_for(browser, "in Polish", lambda d: "Kontakty alarmowe" in d.find_element(By.ID, "emergency-contacts-heading").text)
        assert axe_violations(browser, "household, away from home, Polish") == []
        choose_language(browser, "en")
        requests.put(f"{hub.url}/api/v1/household/emergency-contacts", headers=hub.headers, timeout=5, json=[])
        requests.put(f"{hub.url}/api/v1/household/away-delays", headers=hub.headers, timeout=5,
                     json={"missedDoseAwayAfterMinutes": 15, "contactsAfterMinutes": 10})
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

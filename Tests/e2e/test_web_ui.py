"""The web app in a real headless Chromium: pairing the browser the way a
household does (the link from `hearth pair`), what a senior or a caregiver
sees on the Today page, live updates, the Polish translation, what an
unpaired browser is told, and WCAG 2.1 A/AA checked with axe-core."""

from __future__ import annotations

import json
import time

import pytest
import requests
from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from selenium_axe_python import Axe

from conftest import ADMIN_NAME, HOUSEHOLD_NAME, Hub, PairingRun, browser_console_errors

WAIT_S = 10
WCAG_21_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def click(driver, selector: str):
    """Clicks the element matching `selector`, finding it again if the page
    redrew it meanwhile. It is brought to the middle of the screen first, as
    a person scrolls to it: an open SOS stays in sight on a caregiver's
    screen, and a button just above it would lie under it."""
    for attempt in range(5):
        try:
            element = driver.find_element(By.CSS_SELECTOR, selector)
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            element.click()
            return
        except (StaleElementReferenceException, ElementClickInterceptedException):
            # Redrawn, or moved between the scroll and the click (an alert
            # banner arriving above a dialog's buttons): as a person taps
            # again once the page stands still.
            if attempt == 4:
                raise
            time.sleep(0.2)


def overflowing(driver) -> list[str]:
    """What sticks out past the right edge, making the page scroll sideways."""
    return driver.execute_script("""
        const width = document.documentElement.clientWidth;
        const wide = [...document.querySelectorAll('body *')].filter(e => {
            const box = e.getBoundingClientRect();
            return box.width > 0 && box.right > width + 1 && getComputedStyle(e).position !== 'fixed';
        }).map(e => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`);
        return document.documentElement.scrollWidth > width ? wide.slice(0, 5).concat(['(scrolls)']) : [];""")


def wait_for(driver, what: str, condition, timeout: float = WAIT_S):
    """Waits for condition(driver) to be truthy; on timeout says what was
    awaited and what the page showed. An element the page redrew between
    finding it and reading it (stale) is asked for again at the next poll,
    as one not there yet is: pages redraw when live changes arrive."""
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05,
                             ignored_exceptions=(StaleElementReferenceException,)).until(condition)
    except TimeoutException:
        shown = driver.execute_script(
            "return {url: location.href, lang: document.documentElement.lang,"
            " main: document.querySelector('main')?.innerText,"
            " live: document.querySelector('#live-indicator')?.dataset.state}")
        console = browser_console_errors(driver)
        pytest.fail(f"Timed out after {timeout} s waiting for {what}.\nPage: {json.dumps(shown, ensure_ascii=False)}"
                    f"\nConsole errors: {console}", pytrace=False)


def shown_text(driver, selector: str) -> str:
    """The text of the first element `selector` finds, "" when there is none."""
    return driver.execute_script("return document.querySelector(arguments[0])?.textContent.trim() ?? ''", selector)


def household_name_shown(driver) -> str | None:
    return driver.execute_script("return document.getElementById('household-name')?.textContent ?? null")


def live_state(driver) -> str | None:
    return driver.execute_script("return document.getElementById('live-indicator')?.dataset.state ?? null")


def forget_hub(driver, hub: Hub):
    """Like a browser that never visited the hub: no saved preferences, no
    device cookie."""
    driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": hub.url, "storageTypes": "all"})
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})


def open_pairing_link(driver, url: str, hub: Hub):
    """Opens a pairing link as a phone's QR scanner would, and waits for the
    form; the secret must be gone from the address bar."""
    driver.get(url)
    # The secret is taken out of the address bar, and a scanned code needs no typing.
    wait_for(driver, "the pairing form for a scanned code, at /pair without the secret",
             lambda d: d.current_url == f"{hub.url}/pair" and d.find_elements(By.ID, "pair-button")
             and not d.find_elements(By.ID, "short-code"))


def submit_pairing_form(driver, device_name: str):
    name = driver.find_element(By.ID, "device-name")
    name.clear()
    name.send_keys(device_name)
    driver.find_element(By.ID, "pair-button").click()


def wait_until_on_today(driver, hub: Hub):
    wait_for(driver, "Today to open", lambda d: d.current_url == f"{hub.url}/#/today"
             and d.find_elements(By.CSS_SELECTOR, "a.nav-link[href='#/today'][aria-current='page']"))


def pair_browser(driver, hub: Hub, *pair_args: str, device_name: str = "Kitchen tablet") -> PairingRun:
    """Pairs the browser as a household would: the admin runs `hearth pair`
    (for ADMIN_NAME unless pair_args say otherwise), the tablet opens its
    link, names itself and lands on Today."""
    run = hub.start_pairing(*(pair_args or ("--person", ADMIN_NAME)))
    forget_hub(driver, hub)
    open_pairing_link(driver, run.url, hub)
    submit_pairing_form(driver, device_name)
    wait_until_on_today(driver, hub)
    run.expect_device(device_name)
    return run


def open_hub_page(driver, hub: Hub, page: str = "today"):
    """Pairs the browser with the hub (no saved preferences), opens the app
    at #/<page> and waits until the shell is drawn."""
    pair_browser(driver, hub)
    if page != "today":
        driver.get(f"{hub.url}/#/{page}")
    wait_for(driver, "the navigation to be drawn",
             lambda d: d.find_elements(By.CSS_SELECTOR, "a.nav-link[href='#/today']"))


def wait_until_today_is_ready(driver, name: str = HOUSEHOLD_NAME):
    wait_for(driver, f"the household name {name!r}", lambda d: household_name_shown(d) == name)
    wait_for(driver, "the live indicator to say connected", lambda d: live_state(d) == "connected")


def choose_language(driver, language: str):
    Select(driver.find_element(By.ID, "language-select")).select_by_value(language)
    wait_for(driver, f"<html lang={language}>",
             lambda d: d.execute_script("return document.documentElement.lang") == language)


def today_link_text(driver) -> str:
    return driver.find_element(By.CSS_SELECTOR, "a.nav-link[href='#/today']").text


def use_dark_colour_scheme(driver):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    assert driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches")


def axe_violations(driver, label: str) -> list[str]:
    """Runs axe-core's WCAG 2.0/2.1 A and AA rules on the page as shown;
    returns one readable entry per violation (rule, impact, elements)."""
    axe = Axe(driver)
    axe.inject()
    options = json.dumps({"runOnly": {"type": "tag", "values": WCAG_21_AA_TAGS},
                          "resultTypes": ["violations"]})
    # Axe.run() would hang until the script timeout if axe rejected (e.g. an
    # unknown tag); this reports the error instead.
    results = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"axe.run(document, {options}).then(done, (e) => done({{axeError: String(e)}}));"
    )
    if "axeError" in results:
        pytest.fail(f"axe-core could not check {label}: {results['axeError']}", pytrace=False)
    assert results["testEngine"]["version"].startswith("4."), results["testEngine"]
    found = []
    for violation in results["violations"]:
        nodes = "\n".join(
            f"      {node['target']}: {(node.get('failureSummary') or '').replace(chr(10), ' ')}"
            for node in violation["nodes"]
        )
        found.append(f"[{label}] {violation['id']} (impact: {violation['impact']}): "
                     f"{violation['help']}\n    {violation['helpUrl']}\n{nodes}")
    return found


# --------------------------------------------------------------------------
# Today
# --------------------------------------------------------------------------


def test_today_shows_the_household_and_goes_live(browser, hub):
    open_hub_page(browser, hub)
    wait_until_today_is_ready(browser)

    heading = browser.find_element(By.ID, "household-name")
    assert heading.tag_name == "h2"
    assert heading.is_displayed()
    indicator = browser.find_element(By.ID, "live-indicator")
    assert indicator.get_attribute("role") == "status"
    assert indicator.text == "Live: connected"
    assert browser.find_element(By.CSS_SELECTOR, "main h1").text == "Today"
    assert browser.title == "Today – Hearth"
    assert browser.find_element(By.CSS_SELECTOR, "a.nav-link[href='#/today']").get_attribute(
        "aria-current") == "page"
    assert browser.find_element(By.ID, "problem").text == "", "no error message is shown"
    assert browser_console_errors(browser) == []


def test_rename_appears_live_without_reloading(browser, hub):
    open_hub_page(browser, hub)
    wait_until_today_is_ready(browser)
    browser.execute_script("window.__sameDocument = true;")

    # Someone else renames the household, e.g. from another phone.
    response = requests.patch(f"{hub.url}/api/v1/household", json={"name": "Dziadkowie Wiśniewscy"},
                              headers=hub.headers, timeout=5)
    assert response.status_code == 200, response.text

    wait_for(browser, "the new name to appear", lambda d: household_name_shown(d) == "Dziadkowie Wiśniewscy")
    assert browser.execute_script("return window.__sameDocument === true"), "the page was reloaded"
    assert live_state(browser) == "connected"


def hub_gone_from_an_open_today(browser, hub_launcher, data_dir) -> Hub:
    """A paired admin's Today open, then its hub stopped and the page told
    so: returns the stopped hub (start another on its port to bring it back)."""
    hub = hub_launcher.start(data_dir=data_dir).pair_admin(wait=False)
    open_hub_page(browser, hub)
    wait_until_today_is_ready(browser)
    code, _ = hub.stop()
    assert code == 0
    wait_for(browser, "the indicator to say disconnected", lambda d: live_state(d) == "disconnected")
    return hub


def test_indicator_shows_disconnected_and_catches_up_after_a_hub_restart(browser, hub_launcher, data_dir):
    first = hub_gone_from_an_open_today(browser, hub_launcher, data_dir)
    assert browser.find_element(By.ID, "live-indicator").text == "Live: not connected – trying again"
    assert household_name_shown(browser) == HOUSEHOLD_NAME, "the last known name stays on screen"

    # The hub comes back on the same address and the name changes before the
    # page has reconnected: the page must not miss it.
    second = hub_launcher.start(data_dir=data_dir, port=first.port)
    renamed = requests.patch(f"{second.url}/api/v1/household", json={"name": "Po restarcie"},
                             headers=first.headers, timeout=5)
    assert renamed.status_code == 200, renamed.text
    wait_for(browser, "the indicator to reconnect", lambda d: live_state(d) == "connected", timeout=15)
    wait_for(browser, "the name changed meanwhile", lambda d: household_name_shown(d) == "Po restarcie")


def test_a_page_first_opened_while_the_hub_is_away_says_so_and_is_drawn_when_it_is_back(browser, hub_launcher, data_dir):
    """Each page's module is fetched the first time it is shown (router.js's
    lazyPage): with the hub away, that fetch fails. The page says the hub is
    out of reach, not a blank or a broken page, and is drawn when it is back."""
    first = hub_gone_from_an_open_today(browser, hub_launcher, data_dir)
    browser.find_element(By.CSS_SELECTOR, "a.nav-link[data-page='medications']").click()
    wait_for(browser, "the hub out of reach", lambda d: shown_text(d, "#problem").startswith("Cannot reach the Hearth hub"))
    assert browser.execute_script("return document.getElementById('page').children.length") == 0, "no half-drawn page"
    assert not browser.execute_script("return document.getElementById('page').hasAttribute('aria-busy')"), \
        "a page that failed does not say it is loading"
    assert browser.find_element(By.CSS_SELECTOR, "a.nav-link[data-page='medications']").get_attribute("aria-current") == "page"

    hub_launcher.start(data_dir=data_dir, port=first.port)
    wait_for(browser, "Medications drawn when the hub is back", lambda d: shown_text(d, "main h1") == "Medications", timeout=20)
    wait_for(browser, "the problem gone", lambda d: shown_text(d, "#problem") == "", timeout=2)
    # The failed fetches of the module, and the live socket's, are all the console has.
    assert [e for e in browser_console_errors(browser)
            if "medications" not in e and "/api/v1/live" not in e and "Failed to fetch" not in e
            and "ERR_CONNECTION_REFUSED" not in e] == []


# --------------------------------------------------------------------------
# Language
# --------------------------------------------------------------------------


def test_switching_to_polish_translates_the_page_and_is_remembered(browser, hub):
    open_hub_page(browser, hub)
    wait_until_today_is_ready(browser)
    assert today_link_text(browser) == "Today"

    choose_language(browser, "pl")

    wait_for(browser, "the Today link to read Dzisiaj", lambda d: today_link_text(d) == "Dzisiaj")
    assert browser.find_element(By.CSS_SELECTOR, "main h1").text == "Dzisiaj"
    assert browser.find_element(By.ID, "live-indicator").text == "Na żywo: połączono"
    assert browser.find_element(By.ID, "skip-link").get_attribute("textContent") == "Przejdź do treści"
    assert browser.title == "Dzisiaj – Hearth"
    assert household_name_shown(browser) == HOUSEHOLD_NAME, "the name is not lost on a language switch"

    browser.refresh()
    wait_until_today_is_ready(browser)
    assert browser.execute_script("return document.documentElement.lang") == "pl"
    assert today_link_text(browser) == "Dzisiaj"


def test_settings_choices_apply_at_once_and_survive_a_reload(browser, hub):
    open_hub_page(browser, hub, "settings")
    wait_for(browser, "the Settings page", lambda d: d.find_elements(By.ID, "theme-dark"))
    browser.find_element(By.CSS_SELECTOR, "label[for='theme-dark']").click()
    browser.find_element(By.CSS_SELECTOR, "label[for='text-size-x-large']").click()
    root = "document.documentElement"
    assert browser.execute_script(f"return {root}.dataset.theme") == "dark"
    assert browser.execute_script(f"return {root}.dataset.textSize") == "x-large"
    background = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(17, 19, 22)", "the dark colours are used (--bg of Web/tokens.css)"

    browser.refresh()
    wait_for(browser, "the Settings page", lambda d: d.find_elements(By.ID, "theme-dark"))
    assert browser.execute_script(f"return {root}.dataset.theme") == "dark"
    assert browser.execute_script(f"return {root}.dataset.textSize") == "x-large"
    assert browser.find_element(By.ID, "theme-dark").is_selected()


# --------------------------------------------------------------------------
# Accessibility: WCAG 2.1 A and AA with axe-core, in light and dark
# --------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_pages_have_no_wcag_21_aa_violations(browser, hub, scheme):
    if scheme == "dark":
        use_dark_colour_scheme(browser)
    violations = []

    open_hub_page(browser, hub)
    wait_until_today_is_ready(browser)
    violations += axe_violations(browser, f"Today, English, {scheme}")

    browser.get(f"{hub.url}/#/settings")
    wait_for(browser, "the Settings page", lambda d: d.find_elements(By.ID, "theme-dark"))
    violations += axe_violations(browser, f"Settings, English, {scheme}")

    choose_language(browser, "pl")
    wait_for(browser, "Polish settings", lambda d: d.find_element(By.CSS_SELECTOR, "main h1").text == "Ustawienia")
    violations += axe_violations(browser, f"Settings, Polish, {scheme}")

    browser.get(f"{hub.url}/#/today")
    wait_until_today_is_ready(browser)
    assert today_link_text(browser) == "Dzisiaj"
    violations += axe_violations(browser, f"Today, Polish, {scheme}")

    browser.get(f"{hub.url}/#/notes")
    wait_for(browser, "the Notes placeholder", lambda d: d.find_element(By.CSS_SELECTOR, "main h1").text == "Notatki")
    violations += axe_violations(browser, f"Notes placeholder, Polish, {scheme}")

    assert not violations, f"{len(violations)} WCAG 2.1 A/AA violation(s):\n\n" + "\n\n".join(violations)


# --------------------------------------------------------------------------
# Not paired, and the pairing page
# --------------------------------------------------------------------------

COUNT_SOCKETS = """
window.__liveSockets = 0;
const RealWebSocket = window.WebSocket;
window.WebSocket = class extends RealWebSocket {
  constructor(...args) { super(...args); window.__liveSockets += 1; }
};
"""


def unpaired_notice(driver) -> str | None:
    return driver.execute_script("return document.getElementById('unpaired')?.innerText ?? null")


def test_an_unpaired_browser_is_told_how_to_pair_and_stops_knocking(browser, hub):
    forget_hub(browser, hub)
    script = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_SOCKETS})
    try:
        browser.get(f"{hub.url}/")
        wait_for(browser, "the not-paired message", lambda d: unpaired_notice(d))
        notice = browser.find_element(By.ID, "unpaired")
        assert notice.find_element(By.TAG_NAME, "h2").text == "This device is not paired with the hub"
        assert "sudo hearth pair" in notice.text
        assert "type the pairing code" in notice.text
        link = notice.find_element(By.CSS_SELECTOR, "a[href='/pair']")
        assert link.text == "Pair this device"
        wait_for(browser, "the indicator to say disconnected", lambda d: live_state(d) == "disconnected")
        assert browser.find_element(By.ID, "problem").text == "", "no raw error on top of the message"
        assert household_name_shown(browser) is None
        assert "Loading" not in browser.find_element(By.TAG_NAME, "main").text

        # Every page says so; and the live connection is not retried every second.
        browser.find_element(By.CSS_SELECTOR, "a.nav-link[href='#/settings']").click()
        wait_for(browser, "the message on Settings",
                 lambda d: d.find_element(By.CSS_SELECTOR, "main h1").text == "Settings" and unpaired_notice(d))
        choose_language(browser, "pl")
        wait_for(browser, "the message in Polish",
                 lambda d: "To urządzenie nie jest połączone z centralą" in (unpaired_notice(d) or ""))
        time.sleep(2.2)  # a hub that is merely away would have been retried at 1 s and 3 s
        assert browser.execute_script("return window.__liveSockets") == 1

        link = browser.find_element(By.CSS_SELECTOR, "#unpaired a[href='/pair']")
        assert link.text == "Połącz to urządzenie"
        link.click()
        wait_for(browser, "the typed-code form", lambda d: d.find_elements(By.ID, "short-code"))
        assert browser.find_element(By.CSS_SELECTOR, "main h1").text == "Połącz to urządzenie"
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def test_typed_code_mistakes_are_explained_and_can_be_corrected(browser, hub):
    run = hub.start_pairing("--new-person", "Zofia Łęcka", "--role", "senior")
    forget_hub(browser, hub)
    browser.get(f"{hub.url}/pair")
    wait_for(browser, "the typed-code form", lambda d: d.find_elements(By.ID, "short-code"))
    device_name = browser.find_element(By.ID, "device-name")
    assert device_name.get_attribute("value") == "Computer", "a sensible default name"
    assert browser.find_element(By.CSS_SELECTOR, "label[for='short-code']").text == "Pairing code"
    code = browser.find_element(By.ID, "short-code")

    code.send_keys("7K3M")  # too short: explained without asking the hub
    browser.find_element(By.ID, "pair-button").click()
    problem = browser.find_element(By.ID, "problem")
    wait_for(browser, "the format message", lambda d: "8 letters and digits" in problem.text)
    assert code.get_attribute("aria-invalid") == "true"
    assert browser.switch_to.active_element == code, "the keyboard is put where the fix is"

    code.clear()
    code.send_keys("ZZZZ-ZZZZ" if run.short_code != "ZZZZ-ZZZZ" else "YYYY-YYYY")  # well formed, wrong
    browser.find_element(By.ID, "pair-button").click()
    wait_for(browser, "the hub's refusal in plain words", lambda d: "does not work" in problem.text)
    assert browser.current_url == f"{hub.url}/pair"

    code.clear()
    code.send_keys(run.short_code.lower().replace("-", " "))  # as someone might type it
    device_name.clear()
    device_name.send_keys("Tablet babci")
    browser.find_element(By.ID, "pair-button").click()
    wait_until_on_today(browser, hub)
    wait_until_today_is_ready(browser)
    run.expect_paired("Tablet babci (Zofia Łęcka, senior)")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_pairing_and_unpaired_pages_have_no_wcag_21_aa_violations(browser, hub, scheme):
    if scheme == "dark":
        use_dark_colour_scheme(browser)
    violations = []
    forget_hub(browser, hub)

    browser.get(f"{hub.url}/#/today")
    wait_for(browser, "the not-paired message", lambda d: unpaired_notice(d))
    wait_for(browser, "the indicator to say disconnected", lambda d: live_state(d) == "disconnected")
    violations += axe_violations(browser, f"Not paired, Today, English, {scheme}")

    browser.get(f"{hub.url}/pair")
    wait_for(browser, "the typed-code form", lambda d: d.find_elements(By.ID, "short-code"))
    violations += axe_violations(browser, f"Pairing, typed code, English, {scheme}")
    browser.find_element(By.ID, "pair-button").click()  # empty code: the error state
    wait_for(browser, "the format message", lambda d: d.find_element(By.ID, "problem").text)
    violations += axe_violations(browser, f"Pairing, typed code with an error, English, {scheme}")

    run = hub.start_pairing("--person", ADMIN_NAME)
    open_pairing_link(browser, run.url, hub)
    choose_language(browser, "pl")
    wait_for(browser, "the Polish form", lambda d: d.find_element(By.ID, "pair-button").text == "Połącz to urządzenie")
    violations += axe_violations(browser, f"Pairing, scanned code, Polish, {scheme}")
    run.kill()

    assert not violations, f"{len(violations)} WCAG 2.1 A/AA violation(s):\n\n" + "\n\n".join(violations)

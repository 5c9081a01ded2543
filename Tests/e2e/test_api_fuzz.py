"""An outside fuzzer against the hub's own OpenAPI document: schemathesis
(PyPI, in the e2e virtualenv) generates requests for every operation the
document describes, as the household's admin, and fails on any 5xx, any
answer the document does not list (status, content type, headers, body)
and any input the document forbids that the hub accepts. Bounded to stay
within a few minutes; the seed is fixed so a failure can be repeated
(`HEARTH_FUZZ_SEED` to try another)."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path
from xml.etree import ElementTree

import requests

# What is not asked of the hub, and why:
# - positive_data_acceptance: input the document allows may still break a
#   rule a schema cannot say (a time a century from the hub's clock, two
#   tiles on one place, a phone number's digits); the hub answers those 422
#   naming the field, which the document lists;
# - ignored_auth: the run holds the admin's token throughout; which routes
#   need a paired device is each controller's test and test_api.py's;
# - use_after_free, ensure_resource_availability: stateful checks of
#   resources the run itself makes (the stateful phase is not run).
NOT_CHECKED = ["positive_data_acceptance", "ignored_auth", "use_after_free", "ensure_resource_availability"]
VENV_BIN = Path(__file__).resolve().parents[2] / ".venv" / "bin"
SEED = int(os.environ.get("HEARTH_FUZZ_SEED", "20261128"))
EXAMPLES = int(os.environ.get("HEARTH_FUZZ_EXAMPLES", "25"))


def household_to_find(hub) -> None:
    """A senior with a medicine, a caregiver who looks after her, a note: the
    operations' ids then name things that exist as well as things that do not."""
    senior = hub.pair_device("--new-person", "Babcia", "--role", "senior", device_name="Tablet", wait=False)
    ola = hub.pair_device("--new-person", "Ola", "--role", "caregiver", device_name="Phone", wait=False)
    assert hub.hearth("people", "link", "--caregiver", "Ola", "--senior", "Babcia").returncode == 0
    made = requests.post(f"{hub.url}/api/v1/medications", headers={"Authorization": f"Bearer {ola['token']}"}, timeout=5,
                         json={"personId": senior["person"]["id"], "name": "Bisoprolol", "strength": "5 mg",
                               "schedules": [{"kind": "weekly", "times": ["08:00"], "weekdays": [1, 2, 3, 4, 5, 6, 7], "amount": 1}]})
    assert made.status_code == 201, made.text
    note = requests.post(f"{hub.url}/api/v1/notes", headers=hub.headers, timeout=5,
                         json={"title": "Zakupy", "text": "mleko", "visibility": "shared"})
    assert note.status_code == 201, note.text


def test_the_api_answers_an_outside_fuzzer_only_as_its_document_says(hub_launcher, tmp_path):
    hub = hub_launcher.start().pair_admin()
    household_to_find(hub)
    own_device = hub.devices()[0]["id"]
    people = requests.get(f"{hub.url}/api/v1/people", headers=hub.headers, timeout=5).json()
    own_person = next(person["id"] for person in people if person["role"] == "admin")
    report = tmp_path / "fuzz"
    started = time.monotonic()
    run = subprocess.run(
        [str(VENV_BIN / "st"), "run", f"{hub.url}/api/v1/openapi.yaml", "--url", hub.url,
         "--header", f"Authorization: Bearer {hub.token}",
         "--checks", "all", "--exclude-checks", ",".join(NOT_CHECKED),
         "--max-examples", str(EXAMPLES), "--seed", str(SEED), "--workers", "1",
         "--phases", "examples,coverage,fuzzing", "--no-shrink", "--request-timeout", "10",
         "--report", "junit", "--report-dir", str(report)],
        # Not its own device or person (fuzz_hooks.py).
        env={**os.environ, "SCHEMATHESIS_HOOKS": str(Path(__file__).with_name("fuzz_hooks.py")),
             "HEARTH_FUZZ_PROTECTED": f"{own_device},{own_person}"},
        capture_output=True, text=True, timeout=600)
    took = time.monotonic() - started
    output = run.stdout + run.stderr
    print(output[-6000:])
    print(f"schemathesis took {took:.0f} s")
    failures, hub_errors, tool_errors = findings(next(report.glob("junit*.xml")))
    for error in tool_errors:
        print("schemathesis's own error, not the hub's:", error[:300])
    assert not failures, "\n\n".join(failures)[:12000]
    assert not hub_errors, "\n\n".join(hub_errors)[:12000]
    generated = re.search(r"(\d+) generated", output)
    assert generated and int(generated[1]) > 1000, "the fuzzer hardly ran:\n" + output[-3000:]
    # And the hub is still there to answer.
    assert requests.get(f"{hub.url}/api/v1/health", timeout=5).status_code == 200


def findings(junit: Path) -> tuple[list[str], list[str], list[str]]:
    """The report's failures (a check the hub failed), its errors that came
    from the hub (a connection refused or cut: it fell over), and errors
    inside schemathesis or hypothesis themselves (a traceback wholly in
    their code, such as hypothesis' "tuple index out of range" in its
    optimiser), which say nothing of the hub and are only printed."""
    failures, hub_errors, tool_errors = [], [], []
    for case in ElementTree.parse(junit).iter("testcase"):
        for finding in case:
            text = f"{case.get('name')}: {finding.text or finding.get('message') or ''}"
            if finding.tag == "failure":
                failures.append(text)
            elif finding.tag == "error":
                own = (finding.text or "").startswith("Runtime Error") and "site-packages" in (finding.text or "") \
                    and not re.search(r"Connection|Network|Timeout|Remote", finding.text or "")
                (tool_errors if own else hub_errors).append(text)
    return failures, hub_errors, tool_errors

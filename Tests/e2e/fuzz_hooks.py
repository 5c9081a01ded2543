"""Schemathesis hooks for test_api_fuzz.py (loaded by SCHEMATHESIS_HOOKS):
the run acts as the household's admin and must stay one, so no case names
its own device or person in the path (revoking that device, archiving or
demoting that person would leave the rest of the run answered 401)."""

import os

import schemathesis

PROTECTED = {value for value in os.environ.get("HEARTH_FUZZ_PROTECTED", "").split(",") if value}


@schemathesis.hook
def filter_case(context, case):
    return not PROTECTED & {str(value) for value in (case.path_parameters or {}).values()}

"""Schemathesis over every REST operation of a live server: no 5xx, and every response conforms to the
OpenAPI document (status, content type, headers, body schema).

Requests carry a real GM token and a real campaign id, so generated actions, sheets and options reach
the rule engines instead of stopping at 401/404. The system-specific bodies (options, sheets, actions)
are fuzzed once per rule system, each against a document narrowed to that system and a campaign of it;
every other operation once, against a Step Dice campaign with the service's dice. Each run is the schemathesis
CLI's (tests/contracts/schemathesis_cli.py): explicit examples, the coverage phase (every schema's boundaries and
the values just outside them) and fuzzing, 20 examples per operation (FUZZ_EXAMPLES=500 digs deeper).

The coverage phase is deterministic: the same schema gives the same requests in every run, so each schema's
is sent once. A system's moves are enumerated through postAction; its own route (post<System>Action) takes the
same body and gets examples and fuzzing. An import document carries no campaign or token, so its boundaries are
enumerated once, by the GM's run with every check (tests/contracts/test_schemathesis_cli.py). Sending them again
here cost about two thirds of these runs' requests and found nothing the first enumeration does not.
"""

from __future__ import annotations

import pytest

from schemathesis_cli import narrowed, new_campaign, run_schemathesis
from service.rules.registry import SYSTEMS

pytestmark = pytest.mark.fuzz

SPECIFIC = ["createCampaign", "createCharacter", "validateCharacter", "postAction"]
CHECKS = ",".join(
    [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
        "response_schema_conformance",
    ]
)
PHASES = "examples,coverage,fuzzing"
# A registered webhook makes the service send requests to whatever address was generated: never fuzzed
# against a live server (tests/api/test_webhooks.py drives them with a receiver on loopback).
OUTBOUND = ["createWebhook", "updateWebhook"]


def _operations(flag: str, ids: list[str]) -> tuple[str, ...]:
    return tuple(arg for op in ids for arg in (flag, op))


def _systems_own_action(document: dict) -> str:
    """The operation id of the narrowed document's post<System>Action."""
    (op,) = {
        o["operationId"]
        for methods in document["paths"].values()
        for o in methods.values()
        if isinstance(o, dict) and o.get("operationId", "").endswith("Action") and o["operationId"] != "postAction"
    }
    return op


def _no_coverage(*ids: str) -> str:
    quoted = ", ".join(f'"{i}"' for i in ids)
    return f"\n[[operations]]\ninclude-operation-id = [{quoted}]\nphases.coverage.enabled = false\n"


def _fuzz(live_server, tmp_path, system_id: str, *, no_coverage: list[str], options: tuple[str, ...]):
    """The checks and phases of this module on a new campaign of `system_id`, against the document narrowed to it."""
    campaign, gm = new_campaign(live_server, system_id)
    return run_schemathesis(
        live_server,
        campaign,
        gm,
        tmp_path,
        document=narrowed(system_id),
        phases=PHASES,
        checks=CHECKS,
        extra_config=_no_coverage(*no_coverage),
        options=options,
    )


def test_api_conforms_and_never_fails(live_server, tmp_path):
    own = _systems_own_action(narrowed("stepdice"))
    served = _fuzz(
        live_server,
        tmp_path,
        "stepdice",
        no_coverage=["importCampaign"],
        options=_operations("--exclude-operation-id", [*SPECIFIC, own, *OUTBOUND]),
    )
    assert served["coverage"] + served["fuzzing"], served  # some requests got past authentication


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_each_systems_bodies_conform_and_never_fail(system_id, live_server, tmp_path):
    """Generated options, sheets and actions never give a 5xx and always conform."""
    own = _systems_own_action(narrowed(system_id))
    served = _fuzz(
        live_server,
        tmp_path,
        system_id,
        no_coverage=[own],
        options=_operations("--include-operation-id", [*SPECIFIC, own]),
    )
    assert served["coverage sent"] and served["fuzzing sent"], served

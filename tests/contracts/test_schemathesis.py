"""Schemathesis over every REST operation of a live server: no 5xx, and every response conforms to the
OpenAPI document (status, content type, headers, body schema).

Requests carry a real GM token and a real campaign id, so generated actions, sheets and options reach
the rule engines instead of stopping at 401/404. The system-specific bodies (options, sheets, actions)
are fuzzed once per rule system, each against a document narrowed to that system and a campaign of it;
every other operation once, against a Step Dice campaign. Each run is the schemathesis CLI's
(tests/contracts/schemathesis_cli.py): explicit examples, the coverage phase (every schema's boundaries and
the values just outside them) and fuzzing, 20 examples per operation (FUZZ_EXAMPLES=500 digs deeper).
"""

from __future__ import annotations

import pytest

from schemathesis_cli import new_campaign, run_schemathesis
from service.api.rest.openapi import build
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


def test_api_conforms_and_never_fails(live_server, tmp_path):
    campaign, gm = new_campaign(live_server, "stepdice")
    served = run_schemathesis(
        live_server,
        campaign,
        gm,
        tmp_path,
        document=build(["stepdice"]),
        phases=PHASES,
        checks=CHECKS,
        options=_operations("--exclude-operation-id", SPECIFIC + OUTBOUND),
    )
    assert served["coverage"] + served["fuzzing"], served  # some requests got past authentication


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_each_systems_bodies_conform_and_never_fail(system_id, live_server, tmp_path):
    """Generated options, sheets and actions never give a 5xx and always conform."""
    campaign, gm = new_campaign(live_server, system_id)
    served = run_schemathesis(
        live_server,
        campaign,
        gm,
        tmp_path,
        document=build([system_id]),
        phases=PHASES,
        checks=CHECKS,
        options=_operations("--include-operation-id", SPECIFIC),
    )
    assert served["coverage sent"] and served["fuzzing sent"], served

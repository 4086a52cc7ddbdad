"""Schemathesis over every REST operation of a live server: no 5xx, and every response conforms
to the OpenAPI document (status, content type, headers, body schema).

Requests carry a real GM token and a real campaign id, so generated actions, sheets and options reach
the rule engines instead of stopping at 401/404. The system-specific bodies (options, sheets, actions)
are fuzzed once per rule system, each against a document narrowed to that system and a campaign of it;
every other operation once, against a Step Dice campaign.
"""

from __future__ import annotations

import functools
import os

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from service.api.rest.openapi import build
from service.rules.registry import SYSTEMS

# Generated cases are built while this module is collected (the coverage phase's ~15,000, half a minute), so
# tests/contracts/conftest.py leaves the module uncollected when `-m` deselects fuzz (.ci/run's main step).
pytestmark = pytest.mark.fuzz

SPECIFIC = ["createCampaign", "createCharacter", "validateCharacter", "postAction"]
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
# CI runs a quick pass; FUZZ_EXAMPLES=500 digs deeper by hand.
FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "20")), deadline=None, suppress_health_check=list(HealthCheck)
)


@functools.cache
def campaign(base: str, system: str) -> tuple[str, str]:
    body = httpx.post(f"{base}/v1/campaigns", json={"name": "fuzz", "system": system, "dice_mode": "server"}).json()
    return body["campaign"]["id"], body["gm_token"]


def call(case, base: str, system: str) -> None:
    campaign_id, token = campaign(base, system)
    if case.path_parameters and "campaign_id" in case.path_parameters:
        case.path_parameters["campaign_id"] = campaign_id
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    case.call_and_validate(base_url=base, checks=CHECKS)


# A registered webhook makes the service send requests to whatever address was generated: never fuzzed
# against a live server (tests/api/test_webhooks.py drives them with a receiver on loopback).
OUTBOUND = ["createWebhook", "updateWebhook"]
generic = schemathesis.openapi.from_dict(build(["stepdice"])).exclude(operation_id=SPECIFIC + OUTBOUND)


@generic.parametrize()
@FUZZ
def test_api_conforms_and_never_fails(case, live_server):
    call(case, live_server, "stepdice")


def system_bodies_test(system_id: str):
    schema = schemathesis.openapi.from_dict(build([system_id])).include(operation_id=SPECIFIC)

    @schema.parametrize()
    @FUZZ
    def test(case, live_server):
        call(case, live_server, system_id)

    test.__doc__ = f"{system_id}: generated options, sheets and actions never give a 5xx and always conform."
    return test


for _system_id in sorted(SYSTEMS):
    globals()[f"test_{_system_id}_bodies_conform_and_never_fail"] = system_bodies_test(_system_id)

"""Schemathesis over every REST operation of a live server: no 5xx, and every response conforms
to the OpenAPI document (status, content type, headers, body schema).

Requests are made with a real GM token and a real campaign id, so generated actions, sheets and
options reach the rule engine instead of stopping at 401/404.
"""
from __future__ import annotations


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

schema = schemathesis.openapi.from_dict(build())
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]


@pytest.fixture(scope="module", params=sorted(SYSTEMS))
def fuzz_campaign(request, live_server):
    """A campaign of each rule system, so generated actions reach every engine."""
    camp = httpx.post(f"{live_server}/v1/campaigns",
                      json={"name": "fuzz", "system": request.param, "dice_mode": "server"}).json()
    return live_server, camp["campaign"]["id"], camp["gm_token"]


@schema.parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_and_never_fails(case, fuzz_campaign):
    base, campaign_id, token = fuzz_campaign
    if case.path_parameters and "campaign_id" in case.path_parameters:
        case.path_parameters["campaign_id"] = campaign_id
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    case.call_and_validate(base_url=base, checks=CHECKS)

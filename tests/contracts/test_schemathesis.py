"""Schemathesis over every REST operation of a live server: no 5xx, and every response conforms
to the OpenAPI document (status, content type, headers, body schema).

Requests are made with a real GM token and a real campaign id, so generated actions, sheets and
options reach the rule engine instead of stopping at 401/404.
"""
from __future__ import annotations

import socket
import threading
import time

import httpx
import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from service.api.rest.openapi import build
from service.app import create_app
from service.settings import Settings

schema = schemathesis.openapi.from_dict(build())
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("schemathesis") / "rk.db"
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}")),
                                           host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if httpx.get(f"{base}/healthz").status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.05)
    camp = httpx.post(f"{base}/v1/campaigns", json={"name": "fuzz", "system": "stepdice", "dice_mode": "server"}).json()
    yield base, camp["campaign"]["id"], camp["gm_token"]
    server.should_exit = True
    thread.join(timeout=10)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_and_never_fails(case, live_server):
    base, campaign_id, token = live_server
    if case.path_parameters and "campaign_id" in case.path_parameters:
        case.path_parameters["campaign_id"] = campaign_id
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    case.call_and_validate(base_url=base, checks=CHECKS)

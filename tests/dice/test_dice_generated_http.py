"""`POST …/rolls` answers every generated expression (expression_strategies.py) with 200 or a 4xx problem, never
5xx: in process on every backend, and in a short bounded run against a real `rulekeeper serve` process, where
the reply and the event log go through the same encoders and database as in production."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serve_process import START_SECONDS, answers
from expression_strategies import expressions
from hypothesis import HealthCheck, example, given, settings

from webhook_receiver import free_port

HUGE = "9" * 200


def answered(r: httpx.Response, expression: str) -> None:
    assert r.status_code < 500, (expression, r.status_code, r.text)
    if r.status_code == 200:
        assert r.json()["expression"] == expression
    else:
        assert r.headers["content-type"].startswith("application/problem+json"), r.text
        assert r.json()["code"], r.text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(expression=expressions)
@example(HUGE)
async def test_every_generated_expression_answers_2xx_or_4xx(client, expression):
    r = await client.post("/v1/campaigns", json={"name": "Rolls", "system": "stepdice", "dice_mode": "server"})
    gm = {"Authorization": f"Bearer {r.json()['gm_token']}"}
    base = f"/v1/campaigns/{r.json()['campaign']['id']}"
    answered(await client.post(f"{base}/rolls", json={"expression": expression}, headers=gm), expression)


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[str]:
    """`rulekeeper serve` on the embedded defaults, without rate limits (the run sends its requests fast)."""
    tmp = tmp_path_factory.mktemp("rolls")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        {
            "DATABASE_URL": f"sqlite:///{tmp}/rulekeeper.db",
            "RULEKEEPER_LOG_LEVEL": "WARNING",
            "RULEKEEPER_RATE_LIMIT_PER_TOKEN": "off",
            "RULEKEEPER_RATE_LIMIT_PER_ADDRESS": "off",
        }
    )
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("rulekeeper")), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        started = answers(f"{base}/healthz", time.monotonic() + START_SECONDS, lambda: proc.poll() is None, every=0.1)
        assert started, "rulekeeper serve did not start"
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def live_campaign(served) -> tuple[httpx.Client, str]:
    with httpx.Client(base_url=served, timeout=10) as http:
        r = http.post("/v1/campaigns", json={"name": "Rolls", "system": "stepdice", "dice_mode": "server"})
        assert r.status_code == 201, r.text
        http.headers["Authorization"] = f"Bearer {r.json()['gm_token']}"
        yield http, f"/v1/campaigns/{r.json()['campaign']['id']}/rolls"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(expression=expressions)
@example(HUGE)
def test_a_real_server_answers_every_generated_expression_2xx_or_4xx(live_campaign, expression):
    http, rolls = live_campaign
    answered(http.post(rolls, json={"expression": expression}), expression)


def test_a_200_digit_number_twice_in_a_row_is_refused_both_times(live_campaign):
    http, rolls = live_campaign
    for _ in range(2):
        r = http.post(rolls, json={"expression": HUGE})
        assert r.status_code == 422 and r.json()["code"] == "expression_too_large", r.text
    assert http.post(rolls, json={"expression": "1d20 + 3"}).status_code == 200

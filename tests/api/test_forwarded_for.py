"""`rulekeeper serve` trusts no proxy unless FORWARDED_ALLOW_IPS names one: a process on the same host cannot
pick the address it is rate-limited as with X-Forwarded-For (docs/operator.md, Threat model). Real server, real sockets."""

from __future__ import annotations

import httpx
import pytest
from webhook_receiver import Service

# Three requests a minute-ish, no burst beyond that: the fourth from one address is refused.
LIMITS = {"RULEKEEPER_RATE_LIMIT_PER_ADDRESS": "0.05/3", "RULEKEEPER_RATE_LIMIT_PER_TOKEN": "off"}


@pytest.fixture
def serve(tmp_path):
    started: list[Service] = []

    def run(**env: str) -> Service:
        s = Service(f"sqlite:///{tmp_path}/rulekeeper.db", **LIMITS, **env)
        s.env.pop("FORWARDED_ALLOW_IPS", None)
        s.env.update(env)
        started.append(s.start())
        return s

    yield run
    for s in started:
        s.stop()


def statuses(base: str, addresses: list[str]) -> list[int]:
    with httpx.Client(base_url=base) as c:
        return [c.get("/v1/systems", headers={"X-Forwarded-For": a}).status_code for a in addresses]


SPOOFED = [f"203.0.113.{i}" for i in range(1, 6)]


def test_by_default_x_forwarded_for_from_loopback_does_not_change_the_rate_limited_address(serve):
    s = serve()
    assert statuses(s.url, SPOOFED) == [200, 200, 200, 429, 429]  # one address: the peer's


def test_a_proxy_named_in_forwarded_allow_ips_gives_each_client_its_own_budget(serve):
    s = serve(FORWARDED_ALLOW_IPS="127.0.0.1")
    assert statuses(s.url, SPOOFED) == [200] * 5

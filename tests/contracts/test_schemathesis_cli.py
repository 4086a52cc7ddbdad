"""The contract checked whole: the schemathesis CLI, every check it has, against a real server.

Three runs over HTTP against a live uvicorn server — no credentials, the GM's token, a player's token — with
`--checks all` (status codes, content types, headers, schemas, Allow on 405, 401 without credentials,
schema-valid requests accepted and schema-invalid ones refused, links between operations) and every phase:
explicit examples, coverage of each schema's boundaries, fuzzing, and stateful chains that follow the
document's links. Any failure fails the test with schemathesis's own report.

Quick by default: a document narrowed to one rule system, 20 examples per operation, the coverage phase
skipping the action union (thousands of shapes; tests/contracts/test_schemathesis.py enumerates each system's)
and, without credentials, skipped (every request is a 401); the player's run leaves the boundaries of the
operations that take no token (creating and importing a campaign) to the GM's.
FUZZ_EXAMPLES=<n> digs deeper by hand: the served document with every system, n examples per operation,
every phase in every run (several minutes).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import httpx
import pytest

from schemathesis_cli import DEEP, narrowed, run_schemathesis

pytestmark = pytest.mark.fuzz

ALL_PHASES = "examples,coverage,fuzzing,stateful"
ROGUE = {
    "name": "Szept",
    "role": "rogue",
    "talents": ["Scout", "Negotiator"],
    "equipment": {"weapon": "crossbow", "protection": None, "items": ["lockpicks", "rope", "lantern"]},
}
# The coverage phase enumerates every shape of every move: thousands of requests for one operation.
QUICK_EXTRA = """
[[operations]]
include-operation-id = ["postAction", "postStepDiceAction"]
phases.coverage.enabled = false
"""
# Creating and importing a campaign take no token: the GM's run enumerates their boundaries, and the player's
# would send the same requests again (about 40% of its run).
SAME_FOR_EVERY_ROLE = """
[[operations]]
include-operation-id = ["createCampaign", "importCampaign"]
phases.coverage.enabled = false
"""


@pytest.fixture(scope="module")
def table(live_server) -> dict[str, str]:
    """A verifiable-dice Step Dice campaign with a player who has a character, so every operation has a
    subject: dice sessions to close and verify, a character to read, reassign and act for."""
    r = httpx.post(
        f"{live_server}/v1/campaigns", json={"name": "contract", "system": "stepdice", "dice_mode": "verifiable"}
    )
    assert r.status_code == 201, r.text
    campaign, gm = r.json()["campaign"]["id"], r.json()["gm_token"]
    auth = {"Authorization": f"Bearer {gm}"}
    r = httpx.post(f"{live_server}/v1/campaigns/{campaign}/players", json={"name": "Ala"}, headers=auth)
    assert r.status_code == 201, r.text
    player, player_id = r.json()["token"], r.json()["player"]["id"]
    r = httpx.post(
        f"{live_server}/v1/campaigns/{campaign}/characters", json={"sheet": ROGUE, "player_id": player_id}, headers=auth
    )
    assert r.status_code == 201, r.text
    return {"campaign": campaign, "gm": gm, "player": player}


def run(base: str, campaign: str, token: str | None, phases: str, tmp_path: Path, quick_extra: str = "") -> Counter:
    return run_schemathesis(
        base,
        campaign,
        token,
        tmp_path,
        document=None if DEEP else narrowed("stepdice"),
        phases=phases,
        extra_config="" if DEEP else QUICK_EXTRA + quick_extra,
        options=(
            # With a token, finishing or deleting the one campaign every run shares would end the run's
            # subject: those two are fuzzed without credentials only (and tested in tests/api/test_move_log.py).
            *(
                ["--exclude-operation-id", "finishCampaign", "--exclude-operation-id", "deleteCampaign"]
                if token
                else []
            ),
            # A generated webhook URL may name a public address, and the service would deliver to it: traffic
            # off this machine. Webhook registration is tested against a local receiver (tests/api/test_webhooks.py).
            *[
                arg
                for op in ("createWebhook", "updateWebhook", "redeliverWebhookDelivery")
                for arg in ("--exclude-operation-id", op)
            ],
        ),
    )


def test_without_credentials_every_operation_conforms(live_server, table, tmp_path):
    served = run(live_server, table["campaign"], None, ALL_PHASES if DEEP else "examples,fuzzing,stateful", tmp_path)
    assert served["fuzzing"] == 0


def test_as_the_gm_every_operation_conforms(live_server, table, tmp_path):
    served = run(live_server, table["campaign"], table["gm"], ALL_PHASES, tmp_path)
    assert served["coverage"] and served["fuzzing"] and served["stateful"], served


def test_as_a_player_every_operation_conforms(live_server, table, tmp_path):
    served = run(live_server, table["campaign"], table["player"], ALL_PHASES, tmp_path, SAME_FOR_EVERY_ROLE)
    # A player's stateful chains start from operations a player may not follow into another campaign (the
    # campaigns they create are not theirs): since replies became per-system variants they reached no 2xx on a
    # campaign in two runs of three. Every response they got was still checked; that they ran is required.
    assert served["fuzzing"] and served["stateful sent"], served

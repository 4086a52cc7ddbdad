"""Every request body the documentation sends (and the bodies a client writes first) is valid by the OpenAPI document
under a strict JSON Schema Draft 2020-12 validator: what the documentation shows, the contract accepts.

The worked session (docs/frontend.md) runs against a live server through a `curl` that records each body it sends, so
the bodies checked are the ones sent, variables filled in; blocks the suite does not run are read as written.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest
from doc_pages import FRONTEND, blocks
from openapi_document import checked_in

from service.api.systemmodels import MODELS

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = blocks("bash")
SESSION_BLOCKS = blocks("bash", FRONTEND)

RECORDING_CURL = r"""
curl() {
  local method= url= body= prev=
  for a in "$@"; do
    case "$prev" in -X) method=$a;; -d) body=$a;; esac
    case "$a" in http://*|https://*) url=$a;; esac
    prev=$a
  done
  if [ -n "$body" ]; then
    python3 -c 'import json,sys; print(json.dumps(dict(zip(("method","url","body"), sys.argv[1:]))))' \
      "${method:-POST}" "$url" "$body" >> "$RK_BODIES"
  fi
  command curl "$@"
}
"""


@functools.cache
def operations() -> list[tuple[str, re.Pattern, dict]]:
    ops = []
    for path, item in checked_in()["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", re.escape(path)) + "$")
        for method, op in item.items():
            ops.append((method.upper(), pattern, op))
    return ops


def validator(schema_ref: dict) -> jsonschema.Draft202012Validator:
    schema = {**schema_ref, "components": checked_in()["components"]}
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def request_schema(method: str, path: str) -> dict | None:
    matches = [op for m, pattern, op in operations() if m == method and pattern.match(path)]
    assert len(matches) == 1, (method, path, [op["operationId"] for op in matches])
    body = matches[0].get("requestBody")
    return body["content"]["application/json"]["schema"] if body else None


def assert_valid(method: str, path: str, body) -> None:
    if request_schema(method, path) is None:
        # An operation without a body (closing a dice session): the worked session's helper sends `{}`, nothing else.
        assert body == {}, (method, path, body)
        return
    errors = sorted(validator(request_schema(method, path)).iter_errors(body), key=str)
    assert errors == [], (method, path, body, [e.message for e in errors[:3]])


def written_bodies() -> list[tuple[str, str, dict]]:
    """`curl -X METHOD $RK/path … -d '{…}'` with a literal body, in every bash block."""
    out = []
    for block in BLOCKS:
        for method, path, body in re.findall(r"-X (\w+) \$RK(\S+)[^`]*?-d '(\{.*?\})'", block, flags=re.S):
            out.append((method, re.sub(r"\$[A-Z]+", "x", path), json.loads(body)))
    return out


@pytest.mark.parametrize(("method", "path", "body"), written_bodies())
def test_every_body_written_in_the_documentation_is_valid_by_the_document(method, path, body):
    assert_valid(method, path, body)


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_every_body_the_worked_session_sends_is_valid_by_the_document(live_server, tmp_path):
    session = [b for b in SESSION_BLOCKS if "field()" in b][0]
    rest = [b for b in SESSION_BLOCKS if ("/graphql" in b or "VCAMPAIGN" in b) and "field()" not in b]
    log = tmp_path / "bodies.jsonl"
    script = "set -euo pipefail\n" + RECORDING_CURL + session + "\n".join(rest)
    env = {**os.environ, "RK": live_server, "RK_BODIES": str(log)}
    done = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    sent = [json.loads(line) for line in log.read_text().splitlines()]
    rest_calls = [s for s in sent if "/graphql" not in s["url"]]
    assert len(rest_calls) >= 12, sent
    for call in rest_calls:
        path = call["url"].removeprefix(live_server).split("?")[0]
        assert_valid(call["method"], path, json.loads(call["body"]))


@pytest.mark.parametrize(
    "action",
    [
        {"type": "gm_note", "text": "hello"},
        {"type": "create_encounter", "label": "Gate"},
        {"type": "start_encounter"},
    ],
)
def test_ordinary_moves_are_valid_actions(action):
    assert_valid("POST", "/v1/campaigns/x/actions", {"action": action})
    assert_valid("POST", "/v1/campaigns/x/actions", {"action": action, "system": "stepdice"})
    assert_valid("POST", "/v1/campaigns/x/actions/stepdice", {"action": action})


@pytest.mark.parametrize("system", [s for s, m in MODELS.items() if "gm_note" in m.actions])
def test_a_gm_note_is_a_valid_move_of_every_system_that_has_one(system):
    assert_valid("POST", f"/v1/campaigns/x/actions/{system}", {"action": {"type": "gm_note", "text": "hello"}})


@pytest.mark.parametrize("system", ["stepdice", "trikus", "danger_pool", "iskra", "action_deck"])
def test_empty_options_are_valid_for_every_system(system):
    assert_valid("POST", "/v1/campaigns", {"name": "x", "system": system, "options": {}})
    assert_valid("POST", "/v1/campaigns", {"name": "x", "system": system})


def test_a_move_of_no_system_and_options_of_another_system_are_invalid():
    v = validator(request_schema("POST", "/v1/campaigns/x/actions"))
    assert not v.is_valid({"action": {"type": "no_such_move"}})
    assert not validator(request_schema("POST", "/v1/campaigns/x/actions/trikus")).is_valid(
        {"action": {"type": "create_encounter", "label": "Gate"}}
    )
    assert not validator(request_schema("POST", "/v1/campaigns")).is_valid(
        {"name": "x", "system": "trikus", "options": {"use_armor_tokens": True}}
    )

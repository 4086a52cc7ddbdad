"""Mutated export documents never make the import, or a later read of what it imported, answer 5xx: fields
dropped, list entries duplicated, values retyped and strings and lists resized, anywhere in the document."""

from __future__ import annotations

import copy
from typing import Any

from apikit import bearer, new_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_move_log import skirmish

_BASE: dict[int, dict[str, Any]] = {}

OTHER_VALUES = st.sampled_from(
    [
        None,
        0,
        -1,
        2**40,
        1.5,
        True,
        "",
        "x" * 300,
        "00000000-0000-4000-8000-000000000000",
        'a"b',
        [],
        [1],
        {},
        {"a": 1},
        {"type": "gm_note"},
    ]
)
MUTATION = st.tuples(
    st.integers(min_value=0, max_value=10**6), st.sampled_from(["drop", "duplicate", "retype", "resize"]), OTHER_VALUES
)


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, path + (k,)))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):  # the first entries of long lists: the shapes repeat
            out.extend(_paths(v, path + (i,)))
    return out


def _mutate(doc: dict[str, Any], pick: int, op: str, other: Any) -> None:
    paths = [p for p in _paths(doc) if p]
    path = paths[pick % len(paths)]
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    key = path[-1]
    value = parent[key]
    if op == "drop":
        del parent[key]
    elif op == "duplicate":
        if isinstance(parent, list):
            parent.insert(key, copy.deepcopy(value))
        elif isinstance(value, list) and value:
            value.append(copy.deepcopy(value[0]))
        else:
            parent[key] = [value, value]
    elif op == "retype":
        parent[key] = copy.deepcopy(other)
    elif isinstance(value, str):
        parent[key] = value * 50 if value else "y" * 5000
    elif isinstance(value, list):
        parent[key] = value[:1] if len(value) > 1 else value * 3
    elif isinstance(value, int) and not isinstance(value, bool):
        parent[key] = value + 1
    else:
        parent[key] = copy.deepcopy(other)


async def _base(client) -> dict[str, Any]:
    if id(client) not in _BASE:
        t = await new_table(client, dice_mode="verifiable")
        await skirmish(t)
        await client.post(f"{t.base}/dice-sessions/current/close", json={}, headers=bearer(t.gm))
        await t.ok({"type": "gm_note", "text": "after the close"})
        _BASE[id(client)] = (await client.get(f"{t.base}/export", headers=bearer(t.gm))).json()
    return _BASE[id(client)]


EVENTS = "query($c: ID!) { events(campaignId: $c, first: 500) { edges { node { seq type data { __typename } } } } }"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations=st.lists(MUTATION, min_size=1, max_size=3))
async def test_a_mutated_document_is_refused_with_a_4xx_or_imports_a_readable_campaign(client, mutations):
    doc = copy.deepcopy(await _base(client))
    for pick, op, other in mutations:
        _mutate(doc, pick, op, other)
    r = await client.post("/v1/campaigns/import", json=doc)
    assert r.status_code < 500, r.text
    if r.status_code != 201:
        assert 400 <= r.status_code < 500 and r.json()["code"]
        return
    out = r.json()
    base, tokens = f"/v1/campaigns/{out['campaign']['id']}", [out["gm_token"]] + [p["token"] for p in out["players"]]
    for token in tokens:
        for path, params in (
            ("", None),
            ("/state", None),
            ("/state", {"version": 1}),
            ("/events", {"limit": 500}),
            ("/characters", None),
            ("/dice-sessions", None),
            ("/export", None),
        ):
            read = await client.get(base + path, params=params, headers=bearer(token))
            assert read.status_code < 500, (path, read.text)
        g = (
            await client.post(
                "/graphql", json={"query": EVENTS, "variables": {"c": out["campaign"]["id"]}}, headers=bearer(token)
            )
        ).json()
        assert "errors" not in g, g

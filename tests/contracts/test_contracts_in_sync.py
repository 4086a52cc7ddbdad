"""The checked-in contracts match the code. Regenerate with `rulekeeper export-contracts`."""

from __future__ import annotations

from pathlib import Path

from openapi_document import checked_in

from service.api.rest.openapi import build
from service.contracts import WEB_TABLE_FRAGMENTS, graphql_sdl, openapi_yaml, web_table_fragments

ROOT = Path(__file__).resolve().parents[2]


def test_openapi_document_matches_the_code():
    assert (ROOT / "openapi" / "openapi.yaml").read_text() == openapi_yaml(), (
        "openapi/openapi.yaml drifted from the code: run `rulekeeper export-contracts`"
    )


def test_graphql_sdl_matches_the_code():
    assert (ROOT / "schema" / "schema.graphql").read_text() == graphql_sdl(), (
        "schema/schema.graphql drifted from the code: run `rulekeeper export-contracts`"
    )


def test_the_web_table_s_fragments_match_the_schema():
    assert (ROOT / WEB_TABLE_FRAGMENTS).read_text() == web_table_fragments(), (
        f"{WEB_TABLE_FRAGMENTS} drifted from the schema: run `rulekeeper export-contracts`"
    )


def test_every_operation_has_an_operation_id_and_error_responses():
    doc = build()  # the document openapi_yaml() writes out, before it is written
    assert doc["openapi"].startswith("3.1")
    ids = []
    for path, item in doc["paths"].items():
        for method, op in item.items():
            ids.append(op["operationId"])
            assert {"200", "201", "204"} & set(op["responses"]), (method, path)
            if op.get("security") != []:
                assert "401" in op["responses"], (method, path)
    assert len(ids) == len(set(ids))


async def test_served_openapi_is_the_checked_in_document(client):
    r = await client.get("/openapi.json")
    assert r.status_code == 200
    assert r.json() == checked_in()

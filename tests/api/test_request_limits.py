"""Nobody can hurt the table with a request: bodies are limited while they arrive, and JSON, ids and headers
the stores cannot hold are a 4xx that names the field, on SQLite and on PostgreSQL alike."""

from __future__ import annotations

import json

import pytest

from apikit import ROGUE, assert_problem, bearer, new_table

LIMIT = 64 * 1024


async def raw_call(app, path: str, chunks, headers: list[tuple[bytes, bytes]] = ()):
    """Drive the ASGI app directly, counting how much of the body it asked for."""
    sent, read = [], {"chunks": 0}
    chunks = list(chunks)

    async def receive():
        if read["chunks"] < len(chunks):
            read["chunks"] += 1
            return {
                "type": "http.request",
                "body": chunks[read["chunks"] - 1],
                "more_body": read["chunks"] < len(chunks),
            }
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"rulekeeper.test"), (b"content-type", b"application/json"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("rulekeeper.test", 80),
    }
    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body), read["chunks"]


@pytest.mark.parametrize("path", ["/v1/campaigns", "/graphql"])
async def test_a_body_declared_larger_than_the_limit_is_413_before_any_of_it_is_read(app, path):
    status, body, read = await raw_call(app, path, [b"{}"] * 3, [(b"content-length", str(100 * 2**20).encode())])
    assert status == 413 and body["code"] == "payload_too_large"
    assert read == 0


@pytest.mark.parametrize("path", ["/v1/campaigns", "/graphql"])
async def test_a_chunked_body_is_413_as_soon_as_it_passes_the_limit(app, path):
    chunk = b" " * (16 * 1024)
    status, body, read = await raw_call(app, path, [chunk] * 200)  # 3.2 MB, never declared
    assert status == 413 and body["code"] == "payload_too_large"
    assert read <= LIMIT // len(chunk) + 1


async def test_a_graphql_body_over_the_limit_is_also_a_graphql_error_with_a_code(app):
    status, body, _ = await raw_call(app, "/graphql", [b"x"], [(b"content-length", b"10000000")])
    assert status == 413 and body["errors"][0]["extensions"]["code"] == "payload_too_large"


def test_a_websocket_message_over_the_limit_closes_the_socket_as_too_big(embedded_settings):
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from service.app import create_app

    with TestClient(create_app(embedded_settings)) as http:
        with http.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
            ws.send_text(json.dumps({"type": "connection_init", "payload": {"pad": "x" * LIMIT}}))
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
    assert closed.value.code == 1009


async def test_json_nested_deeper_than_the_limit_is_400_not_a_crash(client):
    t = await new_table(client)
    deep = "[" * 1000 + "]" * 1000
    r = await client.post(
        f"{t.base}/actions", content=deep, headers={**bearer(t.gm), "content-type": "application/json"}
    )
    assert_problem(r, 400, "invalid_json", "body")
    r = await client.post(
        f"{t.base}/actions",
        json={
            "action": {
                "type": "gm_note",
                "text": "x",
                "n": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],
            }
        },
        headers=bearer(t.gm),
    )
    assert_problem(r, 400, "invalid_json", "body")


@pytest.mark.parametrize(
    "body, field",
    [
        ({"action": {"type": "gm_note", "text": "the door\u0000"}}, "action.text"),
        ({"action": {"type": "create_encounter", "label": "Gate\u0000"}}, "action.label"),
        ({"action": {"type": "gm_note", "text": "x", "\u0000": 1}}, "action"),
    ],
    ids=["nul-in-a-string", "nul-in-a-label", "nul-in-a-key"],
)
async def test_nul_anywhere_in_a_body_is_422_naming_the_field(client, body, field):
    t = await new_table(client)
    assert_problem(await client.post(f"{t.base}/actions", json=body, headers=bearer(t.gm)), 422, "invalid_input", field)


async def test_nul_in_a_sheet_is_422_naming_the_field(client):
    t = await new_table(client)
    sheet = {**ROGUE, "equipment": {**ROGUE["equipment"], "items": ["lockpicks\u0000", "rope", "flashlight"]}}
    r = await client.post(f"{t.base}/characters", json={"sheet": sheet}, headers=bearer(t.gm))
    assert_problem(r, 422, "invalid_input", "sheet.equipment.items.0")


async def test_a_lone_surrogate_is_422_naming_the_field(client):
    t = await new_table(client)
    raw = '{"action": {"type": "gm_note", "text": "\\ud800"}}'
    r = await client.post(
        f"{t.base}/actions", content=raw, headers={**bearer(t.gm), "content-type": "application/json"}
    )
    assert_problem(r, 422, "invalid_input", "action.text")


async def test_integers_beyond_64_bits_are_422_and_nan_is_400(client):
    t = await new_table(client)
    huge = '{"expression": "1d6", "dice": [' + "9" * 30 + "]}"
    r = await client.post(f"{t.base}/rolls", content=huge, headers={**bearer(t.gm), "content-type": "application/json"})
    assert_problem(r, 422, "invalid_input", "dice.0")
    r = await client.post(
        "/v1/campaigns",
        content='{"name": "x", "system": "stepdice", "options": {"a": NaN}}',
        headers={"content-type": "application/json"},
    )
    assert_problem(r, 400, "invalid_json", "body")


@pytest.mark.parametrize("raw", ["[1, 2]", "null", '"text"', "7"])
async def test_a_body_that_is_not_an_object_is_422(client, raw):
    r = await client.post("/v1/campaigns", content=raw, headers={"content-type": "application/json"})
    assert_problem(r, 422, "invalid_input")


async def test_control_characters_in_a_path_id_are_404_not_a_database_error(client):
    t = await new_table(client)
    assert_problem(await client.get(f"{t.base}/characters/%00", headers=bearer(t.gm)), 404, "not_found")
    r = await client.put(f"{t.base}/characters/a%0ab/player", json={"player_id": None}, headers=bearer(t.gm))
    assert_problem(r, 404, "not_found")


async def test_nul_in_an_id_in_the_body_is_422_not_a_database_error(client):
    t = await new_table(client)
    r = await client.post(f"{t.base}/characters", json={"sheet": ROGUE, "player_id": "\u0000"}, headers=bearer(t.gm))
    assert_problem(r, 422, "invalid_input", "player_id")


async def test_control_characters_in_a_header_are_400_not_a_database_error(client):
    t = await new_table(client)
    r = await client.post(
        f"{t.base}/rolls", json={"expression": "1d6"}, headers={**bearer(t.gm), "Idempotency-Key": "a\x00b"}
    )
    assert_problem(r, 400, "invalid_header", "idempotency-key")


async def test_graphql_body_that_is_not_utf8_is_400_with_a_code(client):
    r = await client.post(
        "/graphql",
        content=b'{"query": "{ systems { id } }", "x": "\xff\xfe"}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400
    assert r.json()["errors"][0]["extensions"]["code"] == "invalid_json"


async def test_graphql_variables_nested_too_deep_are_400_with_a_code(client):
    body = '{"query": "{ systems { id } }", "variables": ' + '{"a": ' * 1000 + "1" + "}" * 1000 + "}"
    r = await client.post("/graphql", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert r.json()["errors"][0]["extensions"]["code"] == "invalid_json"


async def test_graphql_nul_in_a_variable_id_is_refused_with_a_code(client):
    t = await new_table(client)
    q = "query($c: ID!, $i: ID!) { character(campaignId: $c, id: $i) { id } }"
    r = await client.post("/graphql", json={"query": q, "variables": {"c": t.id, "i": "\u0000"}}, headers=bearer(t.gm))
    error = r.json()["errors"][0]
    assert r.status_code == 422 and error["extensions"]["code"] == "invalid_input"
    assert error["extensions"]["field"] == "variables.i"


async def test_graphql_nul_in_a_literal_is_refused_with_a_code(client):
    t = await new_table(client)
    q = '{ character(campaignId: "%s", id: "\\u0000") { id } }' % t.id
    r = await client.post("/graphql", json={"query": q}, headers=bearer(t.gm))
    assert r.json()["errors"][0]["extensions"]["code"] == "invalid_input"
    assert r.json()["data"] is None


@pytest.mark.parametrize("raw", ['"x"', "1", "null"])
async def test_a_graphql_body_that_is_not_an_object_is_400_with_a_code(client, raw):
    r = await client.post("/graphql", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["errors"][0]["extensions"]["code"] == "bad_request"


@pytest.mark.parametrize(
    "message",
    [
        '"x"',
        "null",
        '{"type": "subscribe", "id": "1", "payload": "x"}',
        '{"type": "subscribe", "id": "1", "payload": {"query": 5}}',
        '{"type": "complete", "id": ["a"]}',
    ],
)
def test_a_malformed_websocket_message_closes_the_socket_as_invalid_not_as_a_crash(embedded_settings, message):
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from service.app import create_app

    with TestClient(create_app(embedded_settings)) as http:
        with http.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
            ws.send_json({"type": "connection_init", "payload": {}})
            assert ws.receive_json()["type"] == "connection_ack"
            ws.send_text(message)
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
    assert closed.value.code == 4400

"""A validation reply is the character createCharacter would make, before it has an id: it conforms to the
published document like every other reply (generated fuzzing found the sheet schemas requiring an id)."""

from __future__ import annotations

import jsonschema
import pytest
from apikit import ROGUE, bearer
from openapi_document import checked_in

TRIKUS = {
    "name": "Ola",
    "tier": "beginner",
    "light_sides": [{"text": f"kind {i}"} for i in range(3)],
    "dark_sides": [{"text": "dark", "authored_by": "self"}],
}


@pytest.mark.parametrize("system, sheet", [("stepdice", ROGUE), ("trikus", TRIKUS)])
async def test_a_validation_reply_conforms_to_the_document(client, system, sheet):
    r = await client.post("/v1/campaigns", json={"name": "V", "system": system})
    base, gm = f"/v1/campaigns/{r.json()['campaign']['id']}", r.json()["gm_token"]
    reply = await client.post(f"{base}/characters/validate", json={"sheet": sheet}, headers=bearer(gm))
    assert reply.status_code == 200, reply.text
    validator = jsonschema.Draft202012Validator(
        {"$ref": "#/components/schemas/CharacterValidation", "components": checked_in()["components"]}
    )
    assert [e.message for e in validator.iter_errors(reply.json())] == []
    created = await client.post(f"{base}/characters", json={"sheet": sheet}, headers=bearer(gm))
    assert created.status_code == 201, created.text
    assert created.json()["sheet"] == {**reply.json()["sheet"], "id": created.json()["id"]}

"""HTTP behaviour the OpenAPI document states: 405 with a full Allow, the If-Match formats, and request
bodies that are refused rather than coerced when a value has the wrong JSON type."""

from __future__ import annotations

import orjson
import pytest

from apikit import ROGUE, assert_problem, bearer, new_table
from service.api.rest.openapi import served

DOC = orjson.loads(served())  # the document the service serves, built once per process


def _concrete(path: str) -> str:
    return path.replace("{number}", "1").replace("{campaign_id}", "c").replace("{character_id}", "x")


@pytest.mark.parametrize("path", sorted(DOC["paths"]))
async def test_a_405_lists_every_method_of_its_path(client, path):
    documented = {m.upper() for m in DOC["paths"][path]}
    unused = next(m for m in ("PATCH", "PUT", "POST") if m not in documented)
    r = await client.request(unused, _concrete(path))
    assert_problem(r, 405, "method_not_allowed")
    allowed = {m.strip() for m in r.headers["allow"].split(",")}
    assert allowed - {"HEAD"} == documented
    assert ("HEAD" in allowed) == ("GET" in documented)


async def test_graphql_405_lists_get_and_post(client):
    r = await client.request("PUT", "/graphql")
    assert_problem(r, 405, "method_not_allowed")
    assert {m.strip() for m in r.headers["allow"].split(",")} == {"GET", "HEAD", "POST"}


async def test_both_operations_of_a_shared_path_still_answer(client):
    t = await new_table(client)
    created = await client.post(f"{t.base}/characters", json={"sheet": ROGUE}, headers=bearer(t.gm))
    assert created.status_code == 201, created.text
    listed = await client.get(f"{t.base}/characters", headers=bearer(t.gm))
    assert [c["id"] for c in listed.json()["items"]] == [created.json()["id"]]
    assert (await client.head(f"{t.base}/characters", headers=bearer(t.gm))).status_code == 200


@pytest.mark.parametrize("form", ['"{v}"', 'W/"{v}"', "{v}"])
async def test_if_match_in_each_stated_form_names_the_version(client, form):
    t = await new_table(client)
    version = (await t.state())["version"]
    ok = await t.act({"type": "gm_note", "text": "rain"}, headers={"If-Match": form.format(v=version)})
    assert ok.status_code == 200, ok.text
    stale = await t.act({"type": "gm_note", "text": "again"}, headers={"If-Match": form.format(v=version)})
    assert_problem(stale, 412, "version_mismatch", "If-Match")


@pytest.mark.parametrize("value", ['"0", "1"', "W/0", '"0', "zero", ""])
async def test_if_match_outside_the_stated_format_is_400(client, value):
    t = await new_table(client)
    assert_problem(
        await t.act({"type": "gm_note", "text": "rain"}, headers={"If-Match": value}),
        400,
        "invalid_if_match",
        "If-Match",
    )


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"use_grid": 0}, "options.use_grid"),
        ({"use_talents": "false"}, "options.use_talents"),
        ({"max_helpers_per_test": "2"}, "options.max_helpers_per_test"),
        ({"max_helpers_per_test": True}, "options.max_helpers_per_test"),
    ],
)
async def test_an_option_of_the_wrong_json_type_is_422_not_coerced(client, options, field):
    r = await client.post("/v1/campaigns", json={"name": "x", "system": "stepdice", "options": options})
    assert_problem(r, 422, "invalid_input", field)


async def test_an_integral_number_is_taken_for_the_integer(client):
    r = await client.post(
        "/v1/campaigns", json={"name": "x", "system": "stepdice", "options": {"max_helpers_per_test": 2.0}}
    )
    assert r.status_code == 201, r.text
    assert r.json()["campaign"]["options"]["max_helpers_per_test"] == 2


async def test_an_action_field_of_the_wrong_json_type_is_422_not_coerced(client):
    t = await new_table(client)
    r = await t.act({"type": "gm_note", "text": "the vault code", "visible_to_players": 0})
    assert_problem(r, 422, "invalid_input", "action.gm_note.visible_to_players")


async def test_table_dice_given_as_strings_are_422(client):
    t = await new_table(client)
    rogue = await t.character(ROGUE)
    r = await t.act({"type": "test", "character_id": rogue["id"], "attribute": "dexterity", "base_tn": 6}, dice=["5"])
    assert_problem(r, 422, "invalid_input", "dice.0")

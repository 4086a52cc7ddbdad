"""The page reads the table through GraphQL, every field of the system's state (the fragments export-contracts
writes), and draws it in the rules' own spelling (static/shape.js): that is the table a REST client reads, field for
field, so the page draws what the service keeps and nothing is lost on the way."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from playwright.sync_api import expect
from tablekit import create_campaign, create_character, invite, move, page_url
from test_web_table_stepdice import WARRIOR
from test_web_table_systems import SYSTEMS

READ = """async ([api, query, campaignId, token]) => {
  const { Api } = await import("./static/api.js");
  const { rulesShape } = await import("./static/shape.js");
  const got = await new Api(api, "en").call(query, { campaignId }, token);
  return { version: got.state.version, state: rulesShape(got.state.state) };
}"""


def without_empty_maps(value):
    """GraphQL has no maps: an empty one is an empty list of entries, which reads back as []. Both sides drop
    empty containers, and REST's absent fields are GraphQL's nulls."""
    if isinstance(value, dict):
        kept = {k: without_empty_maps(v) for k, v in value.items()}
        return {k: v for k, v in kept.items() if v not in ({}, [], None)}
    if isinstance(value, list):
        return [without_empty_maps(v) for v in value]
    return value


def tokens(page) -> tuple[str, str]:
    seat = parse_qs(urlsplit(page.url).fragment)
    return seat["campaign"][0], seat["token"][0]


def assert_the_same_table(served: str, query: str, *pages) -> None:
    for page in pages:
        campaign, token = tokens(page)
        drawn = page.evaluate(READ, [served, query, campaign, token])
        rest = httpx.get(f"{served}/v1/campaigns/{campaign}/state", headers={"Authorization": f"Bearer {token}"}).json()
        assert drawn["version"] == rest["version"]
        assert without_empty_maps(drawn["state"]) == without_empty_maps(rest["state"])
        assert not page.errors, page.errors


def test_the_step_dice_table_the_page_reads_over_graphql_is_the_table_rest_serves(served, new_page):
    gm, player = new_page(), new_page()
    create_campaign(gm, page_url(served), system="stepdice", name="Skirmish", fields={"Dice Mode": "table"})
    player.goto(invite(gm, "Ala"))
    create_character(player, WARRIOR)
    move(gm, "create_encounter")
    move(gm, "add_character", {"Character Id": "Brona", "Position": {"X": 0, "Y": 0}})
    move(gm, "add_enemy", {"Enemy Id": "m", "Name": "Goblin", "Kind": "minion", "Position": {"X": 1, "Y": 0}})
    for page in (gm, player):
        expect(page.locator(".card", has_text="Goblin")).to_be_visible()
    assert_the_same_table(served, "StepDiceTable", gm, player)


QUERIES = {
    "trikus": "TrikusTable",
    "danger_pool": "DangerPoolTable",
    "iskra": "IskraTable",
    "action_deck": "ActionDeckTable",
}


@pytest.mark.parametrize("system", QUERIES)
def test_each_system_s_table_the_page_reads_over_graphql_is_the_table_rest_serves(system, served, new_page):
    case = SYSTEMS[system]
    gm, player = new_page(), new_page()
    create_campaign(gm, page_url(served), system=system, name=f"{system} night")
    player.goto(invite(gm, "Ala"))
    create_character(player, case["sheet"])
    expect(gm.locator(".card")).to_have_count(1)
    kind, values = case["move"]
    move(gm if case["by"] == "gm" else player, kind, values, offered=False)
    assert_the_same_table(served, QUERIES[system], gm, player)

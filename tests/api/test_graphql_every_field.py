"""Every field of the GraphQL schema resolves: a query generated from the schema, selecting every field of the
table, the sheets and the events (every member of every union), run as the GM and as each player over tables
the API tests play (the worked examples among them). A field whose resolver returns what its type does not
allow (a map where the schema says a list) fails here, whichever system and move produce it."""

from __future__ import annotations

import logging
import re

import pytest
import test_action_deck_play as deck
import test_danger_pool_play as danger
import test_iskra_play as iskra
import test_stepdice_play as stepdice
import test_trikus_play as trikus
from graphql import (
    GraphQLObjectType,
    GraphQLUnionType,
    get_named_type,
    is_leaf_type,
    is_non_null_type,
    parse,
    print_schema,
    validate,
)

from graphql.validation.rules import overlapping_fields_can_be_merged

from service.api.graphql.schema import make_schema

# Limits out of the way: the generated query is far larger than any client's.
SCHEMA = make_schema(100, 100_000, 10_000_000, 1_000_000_000)


def selection(named, path: tuple[str, ...] = ()) -> str:
    """Every field of `named`, every member of a union; fields that need arguments, and a type inside itself,
    are left out. Fields inside a union member are aliased by the member, so that members whose fields share a
    name but not a type do not conflict."""
    named = get_named_type(named)
    if is_leaf_type(named):
        return ""
    if isinstance(named, GraphQLUnionType):
        members = " ".join(f"... on {m.name} {_fields(m, path, alias=m.name + '_')}" for m in named.types)
        return "{ __typename " + members + " }"
    assert isinstance(named, GraphQLObjectType), named
    return _fields(named, path)


def _fields(named: GraphQLObjectType, path: tuple[str, ...], alias: str = "") -> str:
    parts = ["__typename"]
    for name, field in named.fields.items():
        if any(is_non_null_type(a.type) for a in field.args.values()):
            continue
        inner = get_named_type(field.type)
        if inner.name in path:
            continue
        prefix = f"{alias}{name}: " if alias else ""
        parts.append(f"{prefix}{name} {selection(inner, path + (named.name,))}")
    return "{ " + " ".join(parts) + " }"


def full_query() -> str:
    schema = SCHEMA._schema
    query = schema.query_type.fields
    state = selection(query["state"].type)
    characters = selection(query["characters"].type)
    events = selection(query["events"].type)
    return f"""query($c: ID!) {{ state(campaignId: $c) {state} characters(campaignId: $c) {characters}
      events(campaignId: $c, first: 500) {events} }}"""


QUERY = full_query()


@pytest.fixture(autouse=True)
def large_validation_budget(monkeypatch):
    """The generated query compares far more same-named fields than the service lets a client's (limits.py)."""
    monkeypatch.setattr(overlapping_fields_can_be_merged, "MAX_COMPLEXITY_BUDGET", 10**9)


def test_the_generated_query_selects_every_union_member_and_is_valid():
    assert validate(SCHEMA._schema, parse(QUERY)) == []
    for union in ("SystemState", "CharacterSheet", "EventData"):
        members = SCHEMA._schema.type_map[union].types
        assert all(f"... on {m.name} " in QUERY for m in members), union


def test_the_sdl_has_no_json_scalar_but_untyped_json():
    """Every value a client reads is typed; only `Untyped.json` (what no model describes yet) is raw JSON."""
    sdl = print_schema(SCHEMA._schema)
    uses = re.findall(r"^\s*(\w+)(?:\([^)]*\))?: \[?JSON\b", sdl, flags=re.M)
    assert uses == ["json"], uses
    assert "type Untyped {\n  json: JSON!\n}" in sdl


class Seen:
    """The (campaign, bearer token) pairs a test's REST requests used."""

    PATH = re.compile(r"^/v1/campaigns/([^/]+)/")

    def __init__(self, client) -> None:
        self.pairs: dict[tuple[str, str], None] = {}
        send = client.send

        async def recording(request, **kw):
            match = self.PATH.match(request.url.path)
            auth = request.headers.get("authorization", "")
            if match and auth.lower().startswith("bearer ") and match.group(1) not in ("import",):
                self.pairs[(match.group(1), auth.split(" ", 1)[1])] = None
            return await send(request, **kw)

        client.send = recording


PLAYS = [
    stepdice.test_SD_E4_simple_melee_exchange_through_rest,
    stepdice.test_SD_E6_and_SD_E7_magic_through_rest,
    stepdice.test_players_do_not_see_gm_only_enemy_details,
    stepdice.test_players_cannot_count_hidden_clocks_from_ids_or_counters,
    stepdice.test_a_failed_tests_steps_read_over_graphql_as_one_entry_each,
    trikus.test_TK_E4_team_test_through_rest_in_table_mode,
    trikus.test_gm_does_not_see_dark_sides_under_optional_rule_2,
    trikus.test_hidden_dark_counts_reach_only_the_owner_and_the_gm,
    danger.test_push_marks_progress_for_dice_above_the_danger_maximum,
    danger.test_players_do_not_see_unrevealed_elements,
    iskra.test_focus_points_reduce_damage_after_gm_approval,
    iskra.test_players_do_not_see_npc_health_or_focus,
    deck.test_the_order_and_its_dice_are_shown_to_everyone_when_the_encounter_ends,
    deck.test_players_see_an_npc_test_s_outcome_but_not_its_trait_dice,
    deck.test_surprise_attackers_stay_hidden_from_players_until_revealed,
]


@pytest.mark.parametrize("play", PLAYS, ids=lambda f: f"{f.__module__.removeprefix('test_')}.{f.__name__[5:]}")
async def test_every_field_of_state_sheets_and_events_resolves_after(play, app, client, caplog):
    seen = Seen(client)
    await play(client)
    assert seen.pairs, "the test made no REST request to a campaign"
    services = app.state.services
    viewers = set()
    with caplog.at_level(logging.WARNING, logger="rulekeeper.graphql"):
        for campaign_id, token in seen.pairs:
            result = await SCHEMA.execute(
                QUERY,
                variable_values={"c": campaign_id},
                context_value={"request": None, "response": None, "services": services, "token": token},
            )
            codes = {(e.extensions or {}).get("code") for e in result.errors or []}
            if codes <= {"forbidden", "unauthorized", "not_found"} and result.errors:
                continue  # a token the test showed to be refused
            assert result.errors is None, [(e.message, e.path) for e in result.errors]
            assert result.data["state"]["state"]["__typename"] != "Untyped"
            viewers.add(token)
    assert len(viewers) >= 2, "the GM and at least one player read the table"
    # Nothing fell back to Untyped because a model lags behind its engine.
    assert [r.getMessage() for r in caplog.records if r.name == "rulekeeper.graphql"] == []


def test_an_enum_is_named_after_the_concept_the_rule_system_names():
    """A rule system's `Attribute = Literal[…]` is `StepDiceAttribute` wherever it is used (a test, a failed test, an
    advancement), not `StepDiceAdvancementChosenAttribute` after the first model the schema met."""
    import importlib
    import typing

    from graphql import GraphQLEnumType

    from service.api.systemmodels import MODELS

    enums = {tuple(t.values): name for name, t in SCHEMA._schema.type_map.items() if isinstance(t, GraphQLEnumType)}
    checked = 0
    for system_id, models in MODELS.items():
        module = importlib.import_module(f"service.rules.{system_id}.fields")
        for alias, value in vars(module).items():
            values = typing.get_args(value) if typing.get_origin(value) is typing.Literal else ()
            if (
                alias[:1].isupper()
                and len(values) > 1
                and all(isinstance(v, str) for v in values)
                and values in enums
                and alias != "Sender"
            ):
                assert enums[values] == models.prefix + alias, (alias, enums[values])
                checked += 1
    assert checked >= 8
    assert "StepDiceAttribute" in enums.values() and "StepDiceAdvancementChosenAttribute" not in enums.values()

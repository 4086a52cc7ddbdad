"""The OpenAPI document and the service agree: what the document accepts the service accepts, and what the
service refuses the document does not promise. Checked here without a server; over HTTP in
tests/api/test_http_contract.py and, whole, by tests/contracts/test_schemathesis_cli.py."""

from __future__ import annotations

import re
import typing

import jsonschema_rs
import orjson
import pytest
from pydantic import BaseModel, ValidationError

from service.api.rest.openapi import served
from service.api.rest.operations import OPERATIONS
from service.game.errors import GameError
from service.game.campaigns.records import resolve_options
from service.game.moves.play import parse_if_match
from service.rules.registry import SYSTEMS

DOC = orjson.loads(served())  # the document the service serves, built once per process
SCHEMAS = DOC["components"]["schemas"]
OPS = {
    item["operationId"]: (path, method, item)
    for path, methods in DOC["paths"].items()
    for method, item in methods.items()
}


def validator(name: str) -> jsonschema_rs.Draft202012Validator:
    return jsonschema_rs.Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": DOC["components"]})


def _models(tp, seen: set[type[BaseModel]]) -> set[type[BaseModel]]:
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        if tp not in seen:
            seen.add(tp)
            for field in tp.model_fields.values():
                _models(field.annotation, seen)
    else:
        for arg in typing.get_args(tp):
            _models(arg, seen)
    return seen


def request_models() -> set[type[BaseModel]]:
    seen: set[type[BaseModel]] = set()
    for op in OPERATIONS:
        if op.request is not None:
            _models(op.request, seen)
    for system in SYSTEMS.values():
        for root in (system.Options, system.CharacterInput, system.Action):
            _models(root, seen)
    return seen


def test_every_request_model_validates_strictly():
    """The document says boolean, integer, string: `0`, `"3"` or `true` is refused, never coerced."""
    lax = sorted(f"{m.__module__}.{m.__name__}" for m in request_models() if not m.model_config.get("strict"))
    assert len(request_models()) > 100
    assert lax == []


def _options(kind: str) -> list[tuple[str, str]]:
    out = []
    for system_id, system in sorted(SYSTEMS.items()):
        defaults = system.Options()
        for name in system.Options.model_fields:
            value = getattr(defaults, name)
            if (kind == "bool") == isinstance(value, bool) and isinstance(value, int):
                out.append((system_id, name))
    return out


@pytest.mark.parametrize(("system_id", "name"), _options("bool"))
def test_a_boolean_option_given_0_1_or_a_string_is_refused_naming_it(system_id, name):
    for value in (0, 1, "true"):
        with pytest.raises(GameError) as refused:
            resolve_options(system_id, {name: value})
        assert (refused.value.status, refused.value.field) == (422, f"options.{name}")
        assert not validator(f"{_prefix(system_id)}Options").is_valid({name: value})


@pytest.mark.parametrize(("system_id", "name"), _options("int"))
def test_an_integer_option_given_a_string_or_a_boolean_is_refused_naming_it(system_id, name):
    default = getattr(SYSTEMS[system_id].Options(), name)
    for value in (str(default), True):
        with pytest.raises(GameError) as refused:
            resolve_options(system_id, {name: value})
        assert refused.value.status == 422 and refused.value.field.startswith(f"options.{name}")
        assert not validator(f"{_prefix(system_id)}Options").is_valid({name: value})


def test_an_integral_number_is_the_integer_as_json_schema_says():
    assert validator("StepDiceOptions").is_valid({"max_helpers_per_test": 2.0})
    with pytest.raises(ValidationError):  # the model alone is strict ...
        SYSTEMS["stepdice"].Options.model_validate({"max_helpers_per_test": 2.0})
    from service.api.bodies import parse  # ... the request parser reads JSON numbers as JSON does
    from service.game.inputs import CampaignCreate

    body = parse(CampaignCreate, {"name": "x", "system": "stepdice", "options": {"max_helpers_per_test": 2.0}})
    assert resolve_options("stepdice", body.options)["max_helpers_per_test"] == 2


def _prefix(system_id: str) -> str:
    from service.api.systemmodels import prefix

    return prefix(system_id)


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_a_campaign_takes_the_options_of_its_own_system_only(system_id):
    """The document binds `options` to `system`, as the service does: another system's option is invalid."""
    own = SYSTEMS[system_id].Options().model_dump(mode="json")
    assert validator("CampaignCreate").is_valid({"name": "x", "system": system_id, "options": own})
    for other in sorted(set(SYSTEMS) - {system_id}):
        foreign = {
            k: v
            for k, v in SYSTEMS[other].Options().model_dump(mode="json").items()
            if k not in SYSTEMS[system_id].Options.model_fields
        }
        assert foreign
        assert not validator("CampaignCreate").is_valid({"name": "x", "system": system_id, "options": foreign})
        with pytest.raises(GameError):
            resolve_options(system_id, foreign)


IF_MATCH_SAMPLES = [
    '"3"',
    'W/"3"',
    "3",
    "*",
    '"0"',
    '"3", "4"',
    "W/3",
    '"3',
    "3.0",
    "",
    " ",
    '"-1"',
    "**",
    'W/"3" ',
    '"3"\n',
    "abc",
    '"abc"',
    "12345678901",
]


@pytest.mark.parametrize("value", IF_MATCH_SAMPLES)
def test_if_match_is_accepted_exactly_when_the_document_pattern_matches(value):
    params = OPS["postAction"][2]["parameters"]
    pattern = next(p for p in params if p["name"] == "If-Match")["schema"]["pattern"]
    stated = re.search(pattern, value) is not None and "\n" not in value  # ECMA-262 `$` is the very end
    try:
        parse_if_match(value)
        accepted = True
    except GameError as exc:
        assert (exc.status, exc.code, exc.field) == (400, "invalid_if_match", "If-Match")
        accepted = False
    assert accepted == stated


def _resolve(schema: dict, pointer: str) -> dict | None:
    for part in pointer.strip("/").split("/"):
        while "$ref" in schema:
            schema = SCHEMAS[schema["$ref"].rsplit("/", 1)[1]]
        if part.isdigit() and schema.get("type") == "array":
            schema = schema["items"]
        elif part in schema.get("properties", {}):
            schema = schema["properties"][part]
        else:
            return None
    return schema


def test_every_link_names_real_operations_parameters_and_fields():
    links = 0
    for source_id, (path, _, item) in OPS.items():
        for status, response in item["responses"].items():
            for name, link in response.get("links", {}).items():
                links += 1
                target_path, _, target = OPS[link["operationId"]]
                assert status.startswith("2"), (source_id, name)
                for param, expression in link["parameters"].items():
                    where, _, pname = param.partition(".")
                    declared = {(p["in"], p["name"]) for p in target.get("parameters", [])}
                    assert (where, pname) in declared, (source_id, name, param)
                    if expression.startswith("$request.path."):
                        assert "{" + expression.removeprefix("$request.path.") + "}" in path, (source_id, expression)
                    elif expression.startswith("$response.header."):
                        assert expression.removeprefix("$response.header.") in response.get("headers", {})
                    else:
                        body = response["content"]["application/json"]["schema"]
                        assert _resolve(body, expression.removeprefix("$response.body#")), (source_id, expression)
    assert links >= 20


TEXT_SAMPLES = [
    "rain",
    "  rain  ",
    " ",
    "\r",
    "\x1c",
    "\u3000",
    "\ufeff",
    "\u2000x",
    "x" * 2000,
    "x" * 2001,
    "x" + " " * 2000,
]


@pytest.mark.parametrize("text", TEXT_SAMPLES, ids=range(len(TEXT_SAMPLES)))
def test_a_text_field_is_accepted_exactly_when_the_document_says_then_trimmed(text):
    """Lengths and patterns apply to the text as sent: a blank note is refused by both, a padded one accepted."""
    from service.game.log.moves import action_adapter

    action = {"type": "gm_note", "text": text}
    stated = validator("StepDiceAction").is_valid(action)
    try:
        parsed = action_adapter("stepdice").validate_python(action)
    except ValidationError:
        assert not stated
    else:
        assert stated and parsed.text == text.strip()


@pytest.mark.parametrize(
    ("die", "accepted"), [("d6", True), ("D6", True), ("d12+2", True), (" d6", False), ("d7", False), ("d6\n", False)]
)
def test_a_trait_die_is_matched_as_sent_and_read_in_lower_case(die, accepted):
    from pydantic import TypeAdapter

    from service.rules.action_deck.sheet import TraitDie

    adapter = TypeAdapter(TraitDie)
    assert jsonschema_rs.Draft202012Validator(adapter.json_schema()).is_valid(die) == accepted
    if accepted:
        assert adapter.validate_python(die) == die.lower()
    else:
        with pytest.raises(ValidationError):
            adapter.validate_python(die)

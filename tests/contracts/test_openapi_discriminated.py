"""The OpenAPI document tells a generated client the shape of what it reads: the table by the campaign's
system, an event's `data` by the event's `type`, and the closed set of error codes."""

from __future__ import annotations

import orjson

from service.api.rest.openapi import served
from service.game.log.serviceevents import SERVICE_EVENTS
from service.api.systemmodels import MODELS
from service.game.errorcodes import ERROR_CODES
from service.rules.registry import SYSTEMS

DOC = orjson.loads(served())  # the document the service serves, built once per process
SCHEMAS = DOC["components"]["schemas"]


def ref(name: str) -> str:
    return f"#/components/schemas/{name}"


def test_a_reply_with_a_table_is_discriminated_by_system():
    for name in ("TableState", "ActionResult"):
        union = SCHEMAS[name]
        assert union["discriminator"]["propertyName"] == "system"
        assert set(union["discriminator"]["mapping"]) == set(SYSTEMS)
        for system_id, target in union["discriminator"]["mapping"].items():
            variant = SCHEMAS[target.rsplit("/", 1)[1]]
            assert variant["properties"]["system"]["enum"] == [system_id]
            assert variant["properties"]["state"]["$ref"] == ref(f"{MODELS[system_id].prefix}State")


def test_an_events_data_is_tied_to_its_type_with_an_untyped_fallback():
    union = SCHEMAS["LogEvent"]
    mapping = union["discriminator"]["mapping"]
    assert union["discriminator"]["propertyName"] == "type"
    engine_types = {t for m in MODELS.values() for t in m.events}
    assert engine_types | set(SERVICE_EVENTS) == set(mapping)
    for event_type, target in mapping.items():
        variant = SCHEMAS[target.rsplit("/", 1)[1]]
        assert variant["properties"]["type"]["enum"] == [event_type]
        data = variant["properties"]["data"]
        refs = [data["$ref"]] if "$ref" in data else [d["$ref"] for d in data["anyOf"]]
        expected = {ref(m.events[event_type].__name__) for m in MODELS.values() if event_type in m.events}
        if event_type in SERVICE_EVENTS:
            expected.add(ref(SERVICE_EVENTS[event_type].__name__))
        assert set(refs) == expected, event_type
    untyped = SCHEMAS["LogEventUntyped"]
    assert ref("LogEventUntyped") in [v["$ref"] for v in union["oneOf"]]
    assert set(untyped["properties"]["type"]["not"]["enum"]) == set(mapping)


def test_problem_codes_are_the_published_error_codes():
    assert SCHEMAS["Problem"]["properties"]["code"]["enum"] == list(ERROR_CODES)
    assert SCHEMAS["Refusal"]["properties"]["code"]["enum"] == list(ERROR_CODES)


def _integers(node, path=""):
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "integer" or (isinstance(kind, list) and "integer" in kind):
            yield path, node
        for key, value in node.items():
            yield from _integers(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _integers(value, f"{path}/{i}")


def test_every_limit_the_service_enforces_on_an_integer_is_stated():
    """The service refuses integers outside int64 (service.api.jsoninput) and an Iskra focus adjustment of 0: the
    document says so, so a request it allows is not refused for them."""
    unbounded = [
        p
        for p, n in _integers(SCHEMAS)
        if not ({"minimum", "exclusiveMinimum"} & set(n) and {"maximum", "exclusiveMaximum"} & set(n))
    ]
    assert unbounded == []
    assert SCHEMAS["IskraFocusAdjust"]["properties"]["amount"]["not"] == {"const": 0}

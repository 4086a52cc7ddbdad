"""The OpenAPI 3.1 document, built from the operation table and the pydantic models.

`openapi/openapi.yaml` is this document checked in; a test fails when the two drift.
"""

import copy
import functools
import threading
from typing import Any

import orjson
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from service.api.jsoninput import INT64
from service.api import replies as r
from service.api.rest.links import links_for
from service.api.rest.operations import operations_for
from service.api.rest.systemschemas import REF, all_system_schemas
from service.game.log.serviceevents import SERVICE_EVENTS
from service.api.systemmodels import PER_SYSTEM, prefix
from service.game.errorcodes import ERROR_CODES
from service.game.moves.play import IF_MATCH_PATTERN
from service.rules.registry import SYSTEMS

REQUEST_KINDS = ("action", "character_input")


def _per_system(defs: dict[str, Any], roots: dict[str, dict[str, str]], requests: list[str]) -> None:
    """Put each system's model where a response or request field depends on the campaign's system (the fields
    marked with `per_system(kind)`): anyOf, as the campaign picks the system and two systems may share a shape."""

    def refs(kind: str) -> list[dict[str, Any]]:
        if kind == "event_data":
            names = [n for r in roots.values() for k, n in r.items() if k.startswith("event:")]
            names += [m.__name__ for m in SERVICE_EVENTS.values()]
            untyped = True  # an event type no model describes (yet)
        else:
            # A narrowed document (for fuzzing one system) sends that system's bodies only, but responses such as
            # GET /v1/systems still carry every system's shapes.
            chosen = [roots[sid] for sid in (requests if kind in REQUEST_KINDS else roots)]
            names = [r[kind] for r in chosen if kind in r]
            untyped = len(names) < len(chosen)
        out: list[dict[str, Any]] = [{"$ref": REF.format(model=n)} for n in names]
        if untyped:
            out.append(
                {
                    "type": "object",
                    "additionalProperties": True,
                    "description": "A shape no model describes yet: see the rule system's section in docs/rule-systems.md.",
                }
            )
        return out

    for schema in defs.values():
        for name, prop in list(schema.get("properties", {}).items()):
            kind = prop.pop(PER_SYSTEM, None) if isinstance(prop, dict) else None
            if kind is None:
                continue
            choices = refs(kind)
            typed = choices[0] if len(choices) == 1 else {"anyOf": choices}
            keep = {k: v for k, v in prop.items() if k in ("description", "title")}
            schema["properties"][name] = {**typed, **keep}


def _campaign_create(defs: dict[str, Any], systems: list[str]) -> None:
    """A campaign's options are those of its own system: one variant per system, chosen by `system`, so a
    document-valid body is never an option of another system (which the service refuses)."""
    base = defs.pop("CampaignCreate")
    variants = {}
    for system_id in systems:
        ref = {"$ref": REF.format(model=prefix(system_id) + "Options")}
        variant = copy.deepcopy(base)
        name = f"CampaignCreate{prefix(system_id)}"
        variant["title"] = name
        variant["properties"]["system"] = {**base["properties"]["system"], "enum": [system_id], "type": "string"}
        variant["properties"]["options"] = {**ref, "description": base["properties"]["options"].get("description", "")}
        defs[name] = variant
        variants[system_id] = REF.format(model=name)
    defs["CampaignCreate"] = {
        "description": base.get("description", "A new campaign."),
        "oneOf": [{"$ref": ref} for ref in variants.values()],
        "discriminator": {"propertyName": "system", "mapping": variants},
    }


def _by_system(defs: dict[str, Any], roots: dict[str, dict[str, str]], name: str) -> None:
    """A reply that carries a table (`state`) as one variant per system, told apart by its `system`, so a
    generated client knows the table's shape from the system it reads."""
    base = defs.pop(name)
    variants = {}
    for system_id, names in roots.items():
        variant = copy.deepcopy(base)
        title = f"{name}{prefix(system_id)}"
        variant["title"] = title
        variant["properties"]["system"] = {**base["properties"]["system"], "enum": [system_id], "type": "string"}
        state = (
            {"$ref": REF.format(model=names["state"])}
            if "state" in names
            else {"type": "object", "additionalProperties": True}
        )
        variant["properties"]["state"] = {**state, "description": base["properties"]["state"].get("description", "")}
        defs[title] = variant
        variants[system_id] = REF.format(model=title)
    defs[name] = {
        "description": base.get("description") or f"{name}, by the campaign's rule system.",
        "oneOf": [{"$ref": ref} for ref in variants.values()],
        "discriminator": {"propertyName": "system", "mapping": variants},
    }


def _camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


def _events_by_type(defs: dict[str, Any], roots: dict[str, dict[str, str]]) -> None:
    """An event as one variant per event type, told apart by its `type`, each variant's `data` the payload of that
    type (in whichever system emits it); `LogEventUntyped` keeps any other type (one no model describes yet)
    with an open `data`."""
    payloads: dict[str, list[str]] = {}
    for names in roots.values():
        for key, model in names.items():
            if key.startswith("event:"):
                payloads.setdefault(key.removeprefix("event:"), []).append(model)
    for event_type, payload in SERVICE_EVENTS.items():
        payloads.setdefault(event_type, []).append(payload.__name__)
    base = defs.pop("LogEvent")

    def variant(title: str, type_schema: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
        # A whole copy rather than allOf: generators merge allOf members field by field and give up on `data`.
        out = copy.deepcopy(base)
        out["title"] = title
        out["properties"]["type"] = {**type_schema, "type": "string"}
        out["properties"]["data"] = {**data, "description": base["properties"]["data"].get("description", "")}
        return out

    variants = {}
    for event_type in sorted(payloads):
        models = [{"$ref": REF.format(model=m)} for m in dict.fromkeys(payloads[event_type])]
        title = f"LogEvent{_camel(event_type)}"
        assert title not in defs, title
        defs[title] = variant(title, {"enum": [event_type]}, models[0] if len(models) == 1 else {"anyOf": models})
        variants[event_type] = REF.format(model=title)
    defs["LogEventUntyped"] = variant(
        "LogEventUntyped", {"not": {"enum": sorted(payloads)}}, {"type": "object", "additionalProperties": True}
    )
    defs["LogEventUntyped"]["description"] = "An event of a type no model describes yet: its `data` as is."
    defs["LogEvent"] = {
        "description": "One event of the log; `type` says the shape of `data`.",
        "oneOf": [{"$ref": ref} for ref in variants.values()] + [{"$ref": REF.format(model="LogEventUntyped")}],
        "discriminator": {"propertyName": "type", "mapping": variants},
    }


def _error_codes(defs: dict[str, Any]) -> None:
    """Every code a problem (or a refusal logged with dice) may carry: a closed set a client can switch over."""
    for name in ("Problem", "Refusal"):
        if name in defs:
            defs[name]["properties"]["code"]["enum"] = list(ERROR_CODES)


def _int64(node: Any) -> None:
    """Every integer is bounded by what the service takes (service.api.jsoninput refuses integers outside int64:
    the stores cannot hold them), so a generated request the document allows is never refused for it."""
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "integer" or (isinstance(kind, list) and "integer" in kind):
            if "minimum" not in node and "exclusiveMinimum" not in node:
                node["minimum"] = -INT64
            if "maximum" not in node and "exclusiveMaximum" not in node:
                node["maximum"] = INT64 - 1
        for value in node.values():
            _int64(value)
    elif isinstance(node, list):
        for value in node:
            _int64(value)


def build(systems: list[str] | None = None) -> dict[str, Any]:
    """The document; `systems` narrows the system-specific bodies to those systems (for fuzzing one engine)."""
    systems = systems or list(SYSTEMS)
    operations = operations_for(systems)
    shared: set[type[BaseModel]] = {r.Problem, r.WebhookPayload}
    models = (
        {op.response for op in operations}
        | {op.request for op in operations if op.request and not op.system}
        | shared
        | set(SERVICE_EVENTS.values())
    )
    _, top = models_json_schema([(m, "validation") for m in sorted(models, key=lambda m: m.__name__)], ref_template=REF)
    defs: dict[str, Any] = dict(top.get("$defs", {}))
    system_defs, roots = all_system_schemas(list(SYSTEMS))
    defs.update(system_defs)
    _per_system(defs, roots, systems)
    _campaign_create(defs, systems)
    for name in ("TableState", "ActionResult"):
        _by_system(defs, roots, name)
    _events_by_type(defs, roots)
    _error_codes(defs)
    _int64(defs)
    for name, schema in defs.items():
        schema.setdefault("title", name)

    paths: dict[str, Any] = {}
    for op in operations:
        item: dict[str, Any] = {
            "operationId": op.operation_id,
            "summary": op.summary,
            "tags": [op.tag],
            "responses": _responses(op),
        }
        if op.description:
            item["description"] = op.description
        if op.auth == "none":
            item["security"] = []
        elif op.auth == "operator":
            item["security"] = [{}, {"bearer": []}]
        params = _parameters(op)
        if params:
            item["parameters"] = params
        if op.request is not None:
            item["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": {"$ref": REF.format(model=op.request.__name__)}}},
            }
        paths.setdefault(op.path, {})[op.method.lower()] = item

    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Rulekeeper",
            "version": "1.0.0",
            "description": "Authoritative game-state service for tabletop RPGs: the service rolls every die "
            "and applies every rule. Errors are RFC 9457 problem details with a stable `code`.",
        },
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}],
        "paths": paths,
        "webhooks": _webhooks(),
        "components": {
            "schemas": dict(sorted(defs.items())),
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A campaign token (GM or player), or the operator key.",
                }
            },
        },
    }


_building = threading.Lock()


def served() -> bytes:
    """The whole document as `/openapi.json` serves it, rendered once per process: it depends on code alone (the
    operation table, the models, the registered systems), and building it, nearly all pydantic JSON Schema, takes
    longer than composing the rest of an app (0.4-1.6 s), which every test app and every worker would pay again.
    The service builds it in a thread on first asking: two first askers wait for one build."""
    with _building:
        return _rendered()


@functools.cache
def _rendered() -> bytes:
    return orjson.dumps(build())


def _webhooks() -> dict[str, Any]:
    """What a registered endpoint receives (OpenAPI 3.1 `webhooks`)."""

    def header(name: str, description: str) -> dict[str, Any]:
        return {
            "name": name,
            "in": "header",
            "required": True,
            "schema": {"type": "string"},
            "description": description,
        }

    return {
        "campaignEvent": {
            "post": {
                "operationId": "campaignEvent",
                "tags": ["webhooks"],
                "summary": "One event of the campaign, POSTed to every active webhook whose event types include it",
                "description": "Signed per Standard Webhooks: verify with any Standard Webhooks library and the webhook's "
                "`whsec_` secret. Delivered at least once, in order per webhook: the next event waits until "
                "this one is answered with a 2xx or marked failed. Anything but a 2xx (a redirect too) is "
                "retried with exponential backoff and jitter up to the attempt limit.",
                "parameters": [
                    header(
                        "webhook-id", "The delivery's id; the same on every attempt, so a receiver can drop duplicates."
                    ),
                    header("webhook-timestamp", "Unix seconds when this attempt was signed; reject ones far from now."),
                    header(
                        "webhook-signature",
                        "`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` "
                        "under the secret; space-separated when a rotated secret still signs too.",
                    ),
                ],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": REF.format(model="WebhookPayload")}}},
                },
                "responses": {"2XX": {"description": "Received; any other status is retried."}},
            }
        }
    }


def _parameters(op) -> list[dict[str, Any]]:
    params = []
    for name in _path_names(op.path):
        schema = {"type": "integer", "minimum": 1, "maximum": 2**31 - 1} if name == "number" else {"type": "string"}
        params.append({"name": name, "in": "path", "required": True, "schema": schema})
    for name, desc, schema in op.query:
        params.append({"name": name, "in": "query", "required": False, "description": desc, "schema": schema})
    if op.if_match:
        params.append(
            {
                "name": "If-Match",
                "in": "header",
                "required": False,
                "schema": {"type": "string", "pattern": IF_MATCH_PATTERN},
                "description": 'The ETag you last saw (`"3"`, weak `W/"3"`, or the bare version `3`), or '
                "`*`; 412 when the table has moved on, 400 for any other format.",
            }
        )
    if op.idempotent_key:
        # Outside a campaign there may be no bearer token: the key is then the request's only secret.
        schema = {"type": "string", "maxLength": 200, **({"minLength": 32} if op.auth == "operator" else {})}
        params.append(
            {
                "name": "Idempotency-Key",
                "in": "header",
                "required": False,
                "schema": schema,
                "description": "A retry with the same key returns the first response and changes nothing."
                + (" At least 32 random characters (a UUID will do)." if op.auth == "operator" else ""),
            }
        )
    return params


def _path_names(path: str) -> list[str]:
    return [seg[1:-1] for seg in path.split("/") if seg.startswith("{")]


def _responses(op) -> dict[str, Any]:
    ok: dict[str, Any] = {"description": {200: "OK", 201: "Created", 204: "No Content"}[op.status]}
    if op.status != 204:
        ok["content"] = {"application/json": {"schema": {"$ref": REF.format(model=op.response.__name__)}}}
    if op.etag:
        ok["headers"] = {"ETag": {"schema": {"type": "string"}, "description": "The table's version."}}
    links = links_for(op.operation_id)
    if links:
        ok["links"] = links
    out = {str(op.status): ok}
    # Any operation may be rate limited (service.api.ratelimit).
    for status in sorted(set(op.errors) | {429}):
        out[str(status)] = {
            "description": "Problem",
            "content": {"application/problem+json": {"schema": {"$ref": REF.format(model="Problem")}}},
        }
    out["429"]["headers"] = {
        "Retry-After": {
            "schema": {"type": "integer", "minimum": 1},
            "description": "Seconds until the budget has room again.",
        }
    }
    return out

"""The checked-in API contracts, rendered from code: the drift test and `rulekeeper export-contracts` share this."""

from __future__ import annotations

from pathlib import Path

import yaml


def openapi_yaml() -> str:
    from service.api.rest.openapi import build

    return yaml.safe_dump(build(), sort_keys=False, allow_unicode=True, width=120)


def graphql_sdl() -> str:
    from service.api.graphql.schema import schema

    return schema.as_str() + "\n"


def web_table_fragments() -> str:
    """The web table's fragments of each rule system's table, written from the schema (service/web/tables.py)."""
    from service.api.graphql.schema import schema
    from service.web.tables import table_fragments

    return table_fragments(schema._schema)


WEB_TABLE_FRAGMENTS = Path("service") / "web" / "static" / "graphql" / "tables.graphql"


def write_contracts(root: Path) -> list[Path]:
    out = [
        (root / "openapi" / "openapi.yaml", openapi_yaml()),
        (root / "schema" / "schema.graphql", graphql_sdl()),
        (root / WEB_TABLE_FRAGMENTS, web_table_fragments()),
    ]
    for path, text in out:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return [p for p, _ in out]

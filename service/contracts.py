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


def write_contracts(root: Path) -> list[Path]:
    out = [(root / "openapi" / "openapi.yaml", openapi_yaml()), (root / "schema" / "schema.graphql", graphql_sdl())]
    for path, text in out:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return [p for p, _ in out]

"""The checked-in OpenAPI document (openapi/openapi.yaml, 1.3 MB), read once per test process and only when a test
asks: several modules need it, and PyYAML's pure-Python loader takes seconds over it where its C loader (libyaml,
in PyYAML's wheels) takes a fraction. Callers get the one parsed copy: they read it and must not change it."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml

PATH = Path(__file__).resolve().parents[1] / "openapi" / "openapi.yaml"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text: str) -> Any:
    """YAML as `yaml.safe_load` reads it, with the C loader when PyYAML has one."""
    return yaml.load(text, Loader=_LOADER)  # a safe loader: only faster


@functools.cache
def checked_in() -> dict[str, Any]:
    return load(PATH.read_text())

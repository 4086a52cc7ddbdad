"""A module that defines pydantic models, strawberry types or SQLAlchemy mapped classes has its annotations evaluated
when each class is made: no `from __future__ import annotations` there. Postponed, every field's annotation is a
string, which pydantic, strawberry and SQLAlchemy each evaluate again (typing's ForwardRef compiles it first): about a
tenth of the instructions of importing the app, which every `rulekeeper serve` pays at its start (callgrind, `python
-c "import service.asgi"`: 11.7 against 13.2 billion). A class that names itself, or one defined below it, quotes
that name."""

from __future__ import annotations

import __future__
import importlib
import inspect
import pkgutil

from pydantic import BaseModel
from sqlalchemy.orm import DeclarativeBase

import service


def _modules():
    for info in pkgutil.walk_packages(service.__path__, "service."):
        yield importlib.import_module(info.name)


def _defines_typed_classes(module) -> list[str]:
    """The names of the classes `module` defines whose annotations a library evaluates."""
    found = []
    for name, value in vars(module).items():
        if not inspect.isclass(value) or value.__module__ != module.__name__:
            continue
        if (
            issubclass(value, BaseModel)
            or hasattr(value, "__strawberry_definition__")
            or (issubclass(value, DeclarativeBase) and value is not DeclarativeBase)
        ):
            found.append(name)
    return found


def test_modules_defining_models_types_or_tables_do_not_postpone_annotations():
    postponed = {
        module.__name__: classes
        for module in _modules()
        if getattr(module, "annotations", None) is __future__.annotations
        and (classes := _defines_typed_classes(module))
    }
    assert not postponed, f"`from __future__ import annotations` where these classes are defined: {postponed}"


def test_the_check_finds_a_model_module():
    """The walk reaches the rule systems' models (a check that found no module would pass by itself)."""
    from service.rules.stepdice import events_model

    assert _defines_typed_classes(events_model)

"""Whether a resolved value must be awaited, decided once per class for the pydantic models results are made of.

graphql-core asks of every value it completes (each object, list item and leaf) whether it is awaitable;
strawberry's predicate answers at once for builtins and otherwise asks `hasattr(value, "__await__")`. On a pydantic
model that misses the class and falls into `BaseModel.__getattr__`, which looks through the private attributes and
the extras and then formats an AttributeError, for most values of the web table's read. A model class that does not
define `__await__` and keeps no extras cannot gain one per instance, so the answer for it is kept by class: the web
table's read (bench.py's scenario, served on PostgreSQL + Redis) took 1.54-1.90 ms of the server's CPU against
1.76-2.06 ms before, less in each of six alternating pairs, and 5% fewer instructions (benchmarks/instructions.py)."""

from collections.abc import Awaitable
from typing import Any, TypeGuard

from pydantic import BaseModel
from strawberry.execution import optimized_is_awaitable
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

# The builtins strawberry's predicate answers first; a class met for the first time is added, either way.
_never_by_class: dict[type, bool] = dict.fromkeys((type(None), bool, int, float, str, bytes, list, tuple, dict), True)


def _never(cls: type) -> bool:
    return (
        issubclass(cls, BaseModel)
        and not hasattr(cls, "__await__")
        and "__await__" not in cls.__private_attributes__
        and cls.model_config.get("extra") != "allow"
    )


def is_awaitable(value: Any) -> TypeGuard[Awaitable[Any]]:
    cls = type(value)
    never = _never_by_class.get(cls)
    if never is None:
        never = _never_by_class[cls] = _never(cls)
    return False if never else optimized_is_awaitable(value)


class ExecutionContext(StrawberryGraphQLCoreExecutionContext):
    """strawberry's execution context with the predicate above (strawberry passes its own to every execution;
    the sub-executors graphql-core makes for lists and fragments are copies of this one and keep it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.is_awaitable = is_awaitable

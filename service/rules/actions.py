"""A system's moves as the contracts and the driver use them: one discriminated union on `type`, its
validator, the move types in order, and who may send each (the `sender` class attribute of every model)."""

from typing import Annotated, Any, NamedTuple, Union

from pydantic import BaseModel, Field, TypeAdapter


class ActionSet(NamedTuple):
    union: Any
    adapter: TypeAdapter[Any]
    types: list[str]
    senders: dict[str, str]


def action_set(models: tuple[type[BaseModel], ...]) -> ActionSet:
    # Union[...] of a tuple known only at run time: the `|` operator cannot build it.
    union = Annotated[Union[models], Field(discriminator="type")]  # type: ignore[valid-type]  # noqa: UP007
    types: list[str] = [m.model_fields["type"].annotation.__args__[0] for m in models]  # type: ignore[union-attr]
    return ActionSet(union, TypeAdapter(union), types, {t: m.sender for t, m in zip(types, models)})  # type: ignore[attr-defined]

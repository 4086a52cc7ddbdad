"""A request body checked by its model, the same on both transports: JSON numbers read as JSON has them, and
the first offending field named in a 422."""

from typing import Any

from pydantic import BaseModel, ValidationError

from service.game.errors import from_validation
from service.game.inputs import integral_numbers


def parse(model: type[BaseModel], data: Any) -> BaseModel:
    try:
        # A model may validate itself in steps (a campaign document: service/game/transfer/document.py).
        return getattr(model, "checked", model.model_validate)(integral_numbers(data))
    except ValidationError as exc:
        raise from_validation(exc) from None

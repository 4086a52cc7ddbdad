"""The GraphQL executor's awaitable check, kept per class for pydantic models: what it answers must not change."""

from __future__ import annotations

import asyncio

from pydantic import BaseModel, ConfigDict

from service.api.graphql.awaitable import ExecutionContext, is_awaitable
from service.api.graphql.schema import schema


class Plain(BaseModel):
    value: int = 1


class Extras(BaseModel):
    model_config = ConfigDict(extra="allow")


class Awaits(BaseModel):
    def __await__(self):
        return asyncio.sleep(0).__await__()


async def _coroutine() -> int:
    return 1


def test_builtins_and_models_are_not_awaitable():
    for value in (None, True, 3, 2.5, "s", b"b", [1], (1,), {"a": 1}, Plain(), Plain(value=2)):
        assert is_awaitable(value) is False, value


def test_coroutines_futures_and_models_that_await_are_awaitable():
    coroutine = _coroutine()
    future = asyncio.new_event_loop().create_future()
    try:
        assert is_awaitable(coroutine) is True
        assert is_awaitable(future) is True
        assert is_awaitable(Awaits()) is True
        assert is_awaitable(Awaits()) is True  # the second time, from what was kept for the class
    finally:
        coroutine.close()
        future.get_loop().close()


def test_a_model_keeping_extras_is_asked_each_time():
    assert is_awaitable(Extras(other=1)) is False
    assert is_awaitable(Extras(__await__=lambda: iter(()))) is True


def test_the_schema_executes_with_it():
    assert schema.execution_context_class is ExecutionContext

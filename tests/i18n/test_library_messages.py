"""What libraries word reaches players in their language (service/i18n/validation.py): graphql-core's
validation and syntax errors, pydantic errors without a template of their own, and the GraphQL WebSocket
close reasons; English stays the library's exact wording."""

from __future__ import annotations

import pytest

from service.api.graphql.app import _TranslatedClose
from service.i18n import context, validation
from service.i18n.message import _
from service.i18n.render import render


async def graphql(client, query: str, language: str) -> dict:
    r = await client.post("/graphql", json={"query": query}, headers={"Accept-Language": language})
    return r.json()["errors"][0]


@pytest.mark.parametrize(
    "language, start",
    [
        ("pl", "Nie można pytać o pole 'nosuch' w typie 'Query'."),
        ("ru", "Нельзя запросить поле 'nosuch' у типа 'Query'."),
        ("en", "Cannot query field 'nosuch' on type 'Query'."),
    ],
)
async def test_a_graphql_validation_error_is_in_the_players_language(client, language, start):
    error = await graphql(client, "{ nosuch }", language)
    assert error["message"].startswith(start) and error["extensions"]["code"] == "graphql_validation_failed"


async def test_a_graphql_syntax_error_is_in_the_players_language(client):
    error = await graphql(client, "{ systems ", "ru")
    assert (
        error["message"].startswith("Синтаксическая ошибка: ") and error["extensions"]["code"] == "graphql_parse_failed"
    )


async def test_a_graphql_error_with_no_pattern_of_its_own_still_says_so_in_the_players_language(client):
    error = await graphql(client, "query A { systems { id } } query A { systems { id } }", "pl")
    assert error["message"].startswith("Dokument GraphQL jest nieprawidłowy: There can be only one operation")


@pytest.mark.parametrize(
    "error, polish",
    [
        (
            {"type": "int_parsing", "msg": "Input should be a valid integer, unable to parse string as an integer"},
            "Wartość powinna być liczbą całkowitą; tego tekstu nie da się odczytać jako liczby całkowitej",
        ),
        (
            {"type": "uuid_parsing", "msg": "Input should be a valid UUID, invalid length"},
            "Nieprawidłowa wartość (uuid_parsing): Input should be a valid UUID, invalid length",
        ),
    ],
)
def test_a_pydantic_error_reads_in_the_players_language_even_without_a_template(error, polish):
    message = validation.message(error)
    assert str(message) == error["msg"]  # English: pydantic's own words
    assert render(message, "pl") == polish


class Socket:
    def __init__(self) -> None:
        self.closed: tuple[int, str | None] | None = None

    async def close(self, code: int, reason: str | None = None) -> None:
        self.closed = (code, reason)


@pytest.mark.parametrize(
    "reason, russian",
    [("Unauthorized", "Требуется аутентификация"), ("Subscriber for 7 already exists", "Подписка 7 уже существует")],
)
async def test_websocket_close_reasons_are_in_the_players_language(reason, russian):
    socket = Socket()
    with context.using("ru"):
        await _TranslatedClose(socket).close(code=4401, reason=reason)
    assert socket.closed == (4401, russian)


async def test_a_translated_close_reason_fits_a_close_frame():
    socket = Socket()
    with context.using("ru"):
        await _TranslatedClose(socket).close(
            code=4400,
            reason=_("malformed message: an object with a string type (and id, and a payload with a string query)"),
        )
    code, reason = socket.closed
    assert code == 4400 and len(reason.encode()) <= validation.MAX_CLOSE_REASON_BYTES

"""A message that names a count takes the form its language gives that count (gettext plural forms, the rules
Babel writes from CLDR): 1 kość, 2 kości, 5 kości; 1 кость, 2 кости, 5 костей; 1 die, 2 dice."""

from __future__ import annotations

import pytest

from service.dice.table import TableDice
from service.dice.types import DiceError
from service.i18n.describe import describe
from service.i18n.message import PluralMessage, _n
from service.i18n.render import render


def table_dice_given(count: int) -> PluralMessage:
    dice = TableDice([1] * count)
    for _ in range(count):
        dice.roll(6)
    with pytest.raises(DiceError) as info:
        dice.roll(20, purpose="attack")
    return info.value.detail


@pytest.mark.parametrize(
    "count, english, polish, russian",
    [
        (1, "only 1 table die was given", "podano tylko 1 kość ze stołu", "передана только 1 кость со стола"),
        (2, "only 2 table dice were given", "podano tylko 2 kości ze stołu", "переданы только 2 кости со стола"),
        (5, "only 5 table dice were given", "podano tylko 5 kości ze stołu", "передано только 5 костей со стола"),
        (22, "only 22 table dice were given", "podano tylko 22 kości ze stołu", "переданы только 22 кости со стола"),
        (21, "only 21 table dice were given", "podano tylko 21 kości ze stołu", "передана только 21 кость со стола"),
    ],
)
def test_the_table_dice_a_move_lacks_are_counted_in_each_languages_form(count, english, polish, russian):
    detail = table_dice_given(count)
    assert str(detail).endswith(english)
    assert render(detail, "en").endswith(english)
    assert render(detail, "pl").endswith(polish)
    assert render(detail, "ru").endswith(russian)


def test_a_plural_message_survives_pickling_with_its_count():
    import pickle

    message = _n("{count} die", "{count} dice", 3, count=3)
    again = pickle.loads(pickle.dumps(message))
    assert isinstance(again, PluralMessage) and again.n == 3 and str(again) == "3 dice"


async def test_unused_table_dice_are_counted_in_the_players_language(client):
    r = await client.post("/v1/campaigns", json={"name": "Stół", "system": "stepdice", "dice_mode": "table"})
    gm = {"Authorization": f"Bearer {r.json()['gm_token']}"}
    rolls = f"/v1/campaigns/{r.json()['campaign']['id']}/rolls"
    for faces, polish, russian in (
        [[3, 3, 3], "podano 2 kości ze stołu", "переданы 2 кости со стола"],
        [[3] * 6, "podano 5 kości ze stołu", "передано 5 костей со стола"],
    ):
        for language, expected in (("pl", polish), ("ru", russian)):
            reply = await client.post(
                rolls, json={"expression": "1d6", "dice": faces}, headers={**gm, "Accept-Language": language}
            )
            assert reply.status_code == 422 and reply.json()["code"] == "dice_unused", reply.text
            assert reply.json()["detail"].startswith(expected), reply.json()["detail"]


async def test_the_moves_left_to_undo_are_counted_in_the_players_language(client):
    r = await client.post("/v1/campaigns", json={"name": "Cofnij", "system": "stepdice", "dice_mode": "server"})
    gm = {"Authorization": f"Bearer {r.json()['gm_token']}"}
    base = f"/v1/campaigns/{r.json()['campaign']['id']}"
    for moves, polish, russian in (
        (1, "można cofnąć tylko 1 ruch", "можно отменить только 1 ход"),
        (2, "można cofnąć tylko 2 ruchy", "можно отменить только 2 хода"),
        (5, "można cofnąć tylko 5 ruchów", "можно отменить только 5 ходов"),
    ):
        while True:
            left = await client.post(f"{base}/undo", json={"count": 99}, headers={**gm, "Accept-Language": "en"})
            done = int(left.json()["detail"].split()[1])  # "only N moves can be undone"
            if done >= moves:
                break
            await client.post(f"{base}/actions", json={"action": {"type": "gm_note", "text": "x"}}, headers=gm)
        for language, expected in (("pl", polish), ("ru", russian)):
            reply = await client.post(f"{base}/undo", json={"count": 99}, headers={**gm, "Accept-Language": language})
            assert reply.status_code == 409 and reply.json()["detail"] == expected, reply.text


@pytest.mark.parametrize(
    "n, polish, russian",
    [
        (1, "rozdaje się 1 kartę; wysłano: 3", "раздаётся 1 карта; отправлено: 3"),
        (4, "rozdaje się 4 karty; wysłano: 3", "раздаются 4 карты; отправлено: 3"),
        (5, "rozdaje się 5 kart; wysłano: 3", "раздаётся 5 карт; отправлено: 3"),
    ],
)
def test_cards_dealt_are_counted_in_each_languages_form(n, polish, russian):
    message = _n("{n} card is dealt, {count} were sent", "{n} cards are dealt, {count} were sent", n, n=n, count=3)
    assert render(message, "pl") == polish and render(message, "ru") == russian


@pytest.mark.parametrize(
    "count, polish, russian",
    [
        (1, "Ala ma 1 Ciemną Stronę", "у Ala 1 тёмная сторона"),
        (3, "Ala ma 3 Ciemne Strony", "у Ala 3 тёмные стороны"),
        (5, "Ala ma 5 Ciemnych Stron", "у Ala 5 тёмных сторон"),
        (21, "Ala ma 21 Ciemnych Stron", "у Ala 21 тёмная сторона"),
    ],
)
def test_a_rule_refusal_counts_in_each_languages_form(count, polish, russian):
    message = _n("{name} has {count} dark side", "{name} has {count} dark sides", count, name="Ala", count=count)
    assert render(message, "pl") == polish and render(message, "ru") == russian
    assert str(message) == (f"Ala has {count} dark side" if count == 1 else f"Ala has {count} dark sides")


@pytest.mark.parametrize(
    "rate_of_fire, polish, russian",
    [
        (1, "rifle strzela najwyżej 1 kością", "rifle стреляет не более чем 1 костью"),
        (2, "rifle strzela najwyżej 2 kośćmi", "rifle стреляет не более чем 2 костями"),
        (5, "rifle strzela najwyżej 5 kośćmi", "rifle стреляет не более чем 5 костями"),
    ],
)
async def test_a_weapons_rate_of_fire_is_counted_in_the_players_language(client, rate_of_fire, polish, russian):
    r = await client.post("/v1/campaigns", json={"name": "Ogień", "system": "action_deck"})
    gm = {"Authorization": f"Bearer {r.json()['gm_token']}"}
    base = f"/v1/campaigns/{r.json()['campaign']['id']}"
    sheet = {
        "name": "Ann",
        "kind": "wild_card",
        "attributes": {"agility": "d8"},
        "skills": {"shooting": "d8"},
        "weapons": [{"name": "rifle", "damage": ["d8", "d8"], "rate_of_fire": rate_of_fire}],
    }
    ann = (await client.post(f"{base}/characters", headers=gm, json={"sheet": sheet})).json()["id"]
    shot = {
        "action": {
            "type": "trait_test",
            "character_id": ann,
            "trait": "shooting",
            "weapon": "rifle",
            "dice_count": rate_of_fire + 1,
        }
    }
    for language, expected in (("pl", polish), ("ru", russian)):
        reply = await client.post(f"{base}/actions", json=shot, headers={**gm, "Accept-Language": language})
        assert reply.status_code == 422 and reply.json()["code"] == "rate_of_fire_exceeded", reply.text
        assert reply.json()["detail"] == expected


@pytest.mark.parametrize(
    "limit, polish, russian_limit, russian",
    [
        (1, "treść żądania może mieć najwyżej 1 bajt", 1, "тело запроса не больше 1 байта"),
        (2, "treść żądania może mieć najwyżej 2 bajty", 3, "тело запроса не больше 3 байт"),
        (5, "treść żądania może mieć najwyżej 5 bajtów", 5, "тело запроса не больше 5 байт"),
        (22, "treść żądania może mieć najwyżej 22 bajty", 21, "тело запроса не больше 21 байта"),
    ],
)
def test_a_body_limit_is_counted_in_each_languages_form(limit, polish, russian_limit, russian):
    from service.api.guard import too_large

    assert render(too_large(limit).detail, "pl") == polish
    assert render(too_large(russian_limit).detail, "ru") == russian
    assert str(too_large(1).detail) == "request bodies are limited to 1 byte"
    assert str(too_large(limit + 1).detail) == f"request bodies are limited to {limit + 1} bytes"


@pytest.mark.parametrize(
    "count, russian",
    [
        (1, "Жетон светлой стороны дал 1 кость"),
        (3, "Жетон светлой стороны дал 3 кости"),
        (5, "Жетон светлой стороны дал 5 костей"),
        (21, "Жетон светлой стороны дал 21 кость"),
    ],
)
def test_an_event_description_counts_in_russian(count, russian):
    assert describe("light_die_spent", {"count": count}, "ru") == russian


@pytest.mark.parametrize(
    "wounds, polish, english",
    [
        (1, "Nadchodzi 1 rana", "1 wound incoming"),
        (2, "Nadchodzą 2 rany", "2 wounds incoming"),
        (5, "Nadchodzi 5 ran", "5 wounds incoming"),
        (22, "Nadchodzą 22 rany", "22 wounds incoming"),
    ],
)
def test_an_event_description_counts_in_polish_and_english(wounds, polish, english):
    assert describe("damage_incoming", {"wounds": wounds}, "pl") == polish
    assert describe("damage_incoming", {"wounds": wounds}, "en") == english


def test_a_count_the_readers_view_lacks_reads_as_a_question_mark_in_a_plural_form():
    assert describe("bennies_awarded", {}, "pl") == "Przyznano ? Fuksów"
    assert describe("bennies_awarded", {}, "en") == "? bennies awarded"
    assert describe("bennies_awarded", {"count": 1}, "pl") == "Przyznano 1 Fuksa"


@pytest.mark.parametrize(
    "language, expected",
    [
        ("pl", "name: Tekst powinien mieć co najmniej 1 znak"),
        ("ru", "name: Строка должна содержать не меньше 1 символа"),
    ],
)
async def test_a_librarys_count_takes_the_players_form(client, language, expected):
    reply = await client.post(
        "/v1/campaigns", json={"name": "", "system": "stepdice"}, headers={"Accept-Language": language}
    )
    assert reply.status_code == 422 and reply.json()["detail"] == expected, reply.text
    assert reply.json()["errors"][0]["message"] == "String should have at least 1 character"


@pytest.mark.parametrize(
    "amount, polish, russian",
    [
        (1, "Utracono 1 Serce", "Потеряно 1 сердце"),
        (2, "Utracono 2 Serca", "Потеряно 2 сердца"),
        (5, "Utracono 5 Serc", "Потеряно 5 сердец"),
        (21, "Utracono 21 Serc", "Потеряно 21 сердце"),
    ],
)
def test_hearts_lost_are_counted_in_each_languages_form(amount, polish, russian):
    assert describe("hearts_lost", {"amount": amount}, "pl") == polish
    assert describe("hearts_lost", {"amount": amount}, "ru") == russian

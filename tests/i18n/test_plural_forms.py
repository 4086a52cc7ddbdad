"""A message that names a count takes the form its language gives that count (gettext plural forms, the rules
Babel writes from CLDR): 1 kość, 2 kości, 5 kości; 1 кость, 2 кости, 5 костей; 1 die, 2 dice."""
from __future__ import annotations

import pytest

from service.dice.table import TableDice
from service.dice.types import DiceError
from service.i18n.message import PluralMessage, _n
from service.i18n.render import render


def table_dice_given(count: int) -> PluralMessage:
    dice = TableDice([1] * count)
    for _ in range(count):
        dice.roll(6)
    with pytest.raises(DiceError) as info:
        dice.roll(20, purpose="attack")
    return info.value.detail


@pytest.mark.parametrize("count, english, polish, russian", [
    (1, "only 1 table die was given", "podano tylko 1 kość ze stołu", "передана только 1 кость со стола"),
    (2, "only 2 table dice were given", "podano tylko 2 kości ze stołu", "переданы только 2 кости со стола"),
    (5, "only 5 table dice were given", "podano tylko 5 kości ze stołu", "передано только 5 костей со стола"),
    (22, "only 22 table dice were given", "podano tylko 22 kości ze stołu", "переданы только 22 кости со стола"),
    (21, "only 21 table dice were given", "podano tylko 21 kości ze stołu", "передана только 21 кость со стола"),
])
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
    for faces, polish, russian in ([[3, 3, 3], "podano 2 kości ze stołu", "переданы 2 кости со стола"],
                                   [[3] * 6, "podano 5 kości ze stołu", "передано 5 костей со стола"]):
        for language, expected in (("pl", polish), ("ru", russian)):
            reply = await client.post(rolls, json={"expression": "1d6", "dice": faces},
                                      headers={**gm, "Accept-Language": language})
            assert reply.status_code == 422 and reply.json()["code"] == "dice_unused", reply.text
            assert reply.json()["detail"].startswith(expected), reply.json()["detail"]


async def test_the_moves_left_to_undo_are_counted_in_the_players_language(client):
    r = await client.post("/v1/campaigns", json={"name": "Cofnij", "system": "stepdice", "dice_mode": "server"})
    gm = {"Authorization": f"Bearer {r.json()['gm_token']}"}
    base = f"/v1/campaigns/{r.json()['campaign']['id']}"
    for moves, polish, russian in ((1, "można cofnąć tylko 1 ruch", "можно отменить только 1 ход"),
                                   (2, "można cofnąć tylko 2 ruchy", "можно отменить только 2 хода"),
                                   (5, "można cofnąć tylko 5 ruchów", "можно отменить только 5 ходов")):
        while True:
            left = await client.post(f"{base}/undo", json={"count": 99}, headers={**gm, "Accept-Language": "en"})
            done = int(left.json()["detail"].split()[1])   # "only N moves can be undone"
            if done >= moves:
                break
            await client.post(f"{base}/actions", json={"action": {"type": "gm_note", "text": "x"}}, headers=gm)
        for language, expected in (("pl", polish), ("ru", russian)):
            reply = await client.post(f"{base}/undo", json={"count": 99}, headers={**gm, "Accept-Language": language})
            assert reply.status_code == 409 and reply.json()["detail"] == expected, reply.text


@pytest.mark.parametrize("n, polish, russian", [(1, "rozdaje się 1 kartę; wysłano: 3", "раздаётся 1 карта; отправлено: 3"),
                                                (4, "rozdaje się 4 karty; wysłano: 3", "раздаются 4 карты; отправлено: 3"),
                                                (5, "rozdaje się 5 kart; wysłano: 3", "раздаётся 5 карт; отправлено: 3")])
def test_cards_dealt_are_counted_in_each_languages_form(n, polish, russian):
    message = _n("{n} card is dealt, {count} were sent", "{n} cards are dealt, {count} were sent", n, n=n, count=3)
    assert render(message, "pl") == polish and render(message, "ru") == russian


@pytest.mark.parametrize("count, polish, russian", [(1, "Ala ma 1 Ciemną Stronę", "у Ala 1 тёмная сторона"),
                                                    (3, "Ala ma 3 Ciemne Strony", "у Ala 3 тёмные стороны"),
                                                    (5, "Ala ma 5 Ciemnych Stron", "у Ala 5 тёмных сторон"),
                                                    (21, "Ala ma 21 Ciemnych Stron", "у Ala 21 тёмная сторона")])
def test_a_rule_refusal_counts_in_each_languages_form(count, polish, russian):
    message = _n("{name} has {count} dark side", "{name} has {count} dark sides", count, name="Ala", count=count)
    assert render(message, "pl") == polish and render(message, "ru") == russian
    assert str(message) == (f"Ala has {count} dark side" if count == 1 else f"Ala has {count} dark sides")

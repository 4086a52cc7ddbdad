"""A kept view (service/game/log/views.py) is served only to the same viewer of the same table: same version
and tag, same characters at the same sheet versions, same options, and not older than the live store's TTL."""

from __future__ import annotations

import asyncio

from service.game.log.views import Views
from service.rules.base import Actor
from service.store.records.models import Campaign, Character

GM = Actor(role="gm")
PLAYER = Actor(role="player", player_id="p1", character_ids=frozenset({"c1"}))


def _campaign(version: int = 3, token: str = "tag3", options: dict | None = None) -> Campaign:
    return Campaign(id="camp", table_version=version, table_token=token, options=options or {"grid": True})


def _character(version: int = 1, player: str | None = "p1") -> Character:
    return Character(id="c1", version=version, player_id=player)


class _Counting:
    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self) -> dict:
        self.calls += 1
        return {"table": {"computed": self.calls}}


def _view(
    views: Views,
    compute: _Counting,
    campaign: Campaign | None = None,
    character: Character | None = None,
    viewer: Actor = GM,
    max_age: float = 60,
) -> dict:
    return asyncio.run(views.view(campaign or _campaign(), [character or _character()], viewer, compute, max_age))


def test_a_view_is_computed_once_per_viewer_and_version_and_served_as_a_copy():
    views, compute = Views(), _Counting()
    first = _view(views, compute)
    first["table"]["computed"] = "changed by a caller"
    assert _view(views, compute) == {"table": {"computed": 1}}
    assert _view(views, compute, viewer=PLAYER) == {"table": {"computed": 2}}  # another viewer, its own view
    assert compute.calls == 2


def test_a_new_version_a_new_tag_a_sheet_edit_or_new_options_are_never_served_an_old_view():
    views, compute = Views(), _Counting()
    _view(views, compute)
    changes = [
        dict(campaign=_campaign(version=4, token="tag4")),
        dict(campaign=_campaign(token="other")),
        dict(character=_character(version=2)),
        dict(character=_character(player=None)),
        dict(campaign=_campaign(options={"grid": False})),
    ]
    for n, change in enumerate(changes, start=2):
        assert _view(views, compute, **change) == {"table": {"computed": n}}, change


def test_a_view_older_than_the_live_stores_ttl_is_loaded_again():
    views, compute = Views(), _Counting()
    _view(views, compute, max_age=60)
    assert _view(views, compute, max_age=0) == {"table": {"computed": 2}}

"""A move whose answer is lost on the way (the network drops after the service heard it) is made once: the page
sends each move with an Idempotency-Key and, when no answer comes, sends it again with the same key, so the
service answers what it answered the first time instead of making the move twice (docs/frontend.md, Concurrency).
The page is served from another origin, so the key crosses CORS as a deployed page's would."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import httpx
from playwright.sync_api import Route, expect
from tablekit import create_campaign, move, operation, page_url


def test_a_move_whose_answer_is_lost_is_sent_again_with_its_key_and_made_once(served, page_origin, new_page):
    gm = new_page()
    create_campaign(gm, page_url(page_origin, served), system="stepdice", name="Lost answers")
    keys: list[str | None] = []

    def lose_the_first_answer(route: Route) -> None:
        if operation(route.request)[0] != "Act":
            route.continue_()
            return
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:
            route.fetch()  # the service hears the move and makes it; its answer never reaches the page
            route.abort("connectionreset")
        else:
            route.continue_()

    gm.route("**/graphql", lose_the_first_answer)
    move(gm, "gm_note", {"Text": "the bridge holds"}, offered=False)
    expect(gm.locator(".log > li", has_text="the bridge holds")).to_have_count(1)
    first, again = keys
    assert first and again == first, keys

    # The same words sent again on purpose are a move of their own, with a key of their own.
    move(gm, "gm_note", {"Text": "the bridge holds"})
    expect(gm.locator(".log > li", has_text="the bridge holds")).to_have_count(2)
    assert len(keys) == 3 and keys[2] not in (None, first), keys
    assert not gm.errors, gm.errors


def test_an_invitation_whose_every_answer_is_lost_is_the_same_invitation_when_sent_again(served, page_origin, new_page):
    """The page gives up after its retries and says so; the GM, seeing no link, invites the same name again: the
    same attempt, with the same key, so the service answers the invitation it made and makes no second player."""
    gm = new_page()
    gm_link = create_campaign(gm, page_url(page_origin, served), system="stepdice", name="Lost invitations")
    keys: list[str | None] = []
    made: list[str] = []  # the player the service made, from each answer the page never saw
    lose = True

    def lose_every_answer_at_first(route: Route) -> None:
        if operation(route.request)[0] != "InvitePlayer":
            route.continue_()
            return
        keys.append(route.request.headers.get("idempotency-key"))
        if lose:
            made.append(route.fetch().json()["data"]["invitePlayer"]["player"]["id"])
            route.abort("connectionreset")
        else:
            route.continue_()

    gm.route("**/graphql", lose_every_answer_at_first)
    gm.locator("#invite-name").fill("Ala")
    gm.locator("#invite-name").press("Enter")
    expect(gm.get_by_role("alert")).to_be_visible(timeout=15_000)  # after the page's own retries, 0.3 + 1 + 3 s
    expect(gm.get_by_test_id("join-link")).to_have_count(0)
    lose = False
    gm.locator("#invite-name").press("Enter")
    expect(gm.get_by_test_id("join-link").filter(has_text="Ala")).to_be_visible()

    assert len(keys) == 5 and len(set(keys)) == 1 and keys[0], keys  # four attempts, then the GM's second submit
    assert len(set(made)) == 1, made
    fragment = parse_qs(urlparse(gm_link).fragment)
    campaign = httpx.get(
        f"{served}/v1/campaigns/{fragment['campaign'][0]}",
        headers={"Authorization": f"Bearer {fragment['token'][0]}"},
    ).json()
    assert [p["name"] for p in campaign["players"]] == ["Ala"], campaign["players"]
    assert not gm.errors, gm.errors

"""A move whose answer is lost on the way (the network drops after the service heard it) is made once: the page
sends each move with an Idempotency-Key and, when no answer comes, sends it again with the same key, so the
service answers what it answered the first time instead of making the move twice (docs/frontend.md, Concurrency).
The page is served from another origin, so the key crosses CORS as a deployed page's would."""

from __future__ import annotations

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

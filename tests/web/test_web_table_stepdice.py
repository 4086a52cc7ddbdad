"""Step Dice at the web table, a GM and a player in two browsers: the worked example SD-E4 (a Warrior's d10 rolls
4 against a minion's TN 6 in melee: failure, retaliation, hearts 4/5) played through the page, dice entered at
the table; the encounter's grid, its enemy, the scene's clocks (one kept from the players), hearts and mana read off
the board."""

from __future__ import annotations

import time

from playwright.sync_api import expect
from serve_process import Service
from tablekit import (
    assert_fits_a_phone_and_every_control_is_labelled,
    create_campaign,
    create_character,
    invite,
    move,
    page_url,
)

SECRET = "the goblins wait behind the door"
CLOCK_SECRET = "The roof gives way"
WARRIOR = {
    "Name": "Brona",
    "Role": "warrior",
    "Talents": "Tough, Loud",
    "Weapon": "sword",
    "Items": "rope, torch, flask",
}


# The same warrior on a Polish page, whose forms read in Polish.
WOJOWNIK = {
    "Nazwa": "Brona",
    "Rola": "wojownik",
    "Talenty": "Tough, Loud",
    "Broń": "sword",
    "Przedmioty": "rope, torch, flask",
}


def sit_down(gm, player, url: str, *, language: str = "en", options: dict | None = None) -> None:
    extra = {"Options": options} if options else {}
    if language == "pl":
        create_campaign(
            gm,
            url,
            system="stepdice",
            name="Skirmish",
            fields={"Tryb kości": "przy stole", "Język": "pl", **extra},
            name_label="Nazwa",
        )
    else:
        create_campaign(
            gm, url, system="stepdice", name="Skirmish", fields={"Dice Mode": "table", "Language": language, **extra}
        )
    player.goto(invite(gm, "Ala"))
    create_character(player, WOJOWNIK if language == "pl" else WARRIOR)


def test_SD_E4_simple_melee_exchange_played_at_the_web_table_from_another_origin(
    served, page_origin, new_page, artifacts
):
    gm, player = new_page(), new_page()
    started = time.monotonic()
    sit_down(gm, player, page_url(page_origin, api=served), options={"Time pressure clocks": True})
    expect(player.locator(".status")).to_have_text("Live")
    # Time to the first rendered table: the join link opened again, until the table is drawn (not asserted).
    player.reload()
    player.locator(".state details.whole").wait_for()
    print(f"first table drawn {player.evaluate('performance.now()'):.0f} ms after the join link was opened")
    move(gm, "gm_note", {"Text": SECRET, "Visible To Players": False})
    move(gm, "create_encounter")
    move(gm, "add_character", {"Character Id": "Brona", "Position": {"X": 0, "Y": 0}})
    move(gm, "add_enemy", {"Enemy Id": "m", "Name": "Goblin", "Kind": "minion", "Position": {"X": 1, "Y": 0}})
    # Two clocks of the fight's scene: one the players watch, one the GM keeps to themself (spec 8).
    move(
        gm,
        "create_clock",
        {"Label": "Reinforcements", "Length": 3, "Consequence": "more goblins arrive", "Visible To Players": True},
        offered=False,
    )
    move(gm, "create_clock", {"Label": CLOCK_SECRET, "Length": 2, "Consequence": "the cave collapses"}, offered=False)
    move(gm, "start_encounter")
    # The player's page follows the GM's moves as they are made: no reload.
    expect(player.locator(".log")).to_contain_text("The combat started")
    expect(player.get_by_test_id("grid")).to_have_attribute("aria-label", "Brona (0, 0); Goblin (1, 0)")
    # The Goblin stands on both boards; its TN is the GM's until it is revealed.
    expect(gm.get_by_test_id("encounter").locator(".card.enemy")).to_contain_text("TN 6")
    expect(player.get_by_test_id("encounter").locator(".card.enemy")).to_contain_text("Goblin")
    expect(player.get_by_test_id("encounter").locator(".card.enemy")).not_to_contain_text("TN")
    expect(player.get_by_test_id("clocks")).to_contain_text("Reinforcements")
    expect(player.get_by_test_id("clocks").get_by_role("img")).to_have_attribute("aria-label", "Reinforcements: 0/3")
    expect(gm.get_by_test_id("clocks")).to_contain_text(CLOCK_SECRET)
    expect(player.locator(".card", has_text="Brona")).to_contain_text("Mana 3/3")
    move(player, "begin_turn")
    player.locator("button[data-move=attack]").click()
    assert_fits_a_phone_and_every_control_is_labelled(player)  # the attack's form and its dice are open
    said = move(player, "attack", {"Target Enemy Id": "Goblin", "Attack Type": "melee"}, dice="4")
    assert "d10→4" in said
    move(gm, "resolve_retaliation")
    expect(player.locator(".card", has_text="Brona")).to_contain_text("Hearts 4/5")
    expect(player.locator(".log li").last).to_contain_text("1 Heart lost")
    player.screenshot(path=artifacts / "stepdice-phone.png", full_page=True)
    player.set_viewport_size({"width": 1280, "height": 900})
    player.screenshot(path=artifacts / "stepdice-desktop.png", full_page=True)
    gm.set_viewport_size({"width": 1280, "height": 900})
    gm.screenshot(path=artifacts / "stepdice-desktop-gm.png", full_page=True)
    for secret in (SECRET, CLOCK_SECRET):
        assert secret not in player.content() and secret in gm.content(), secret
    assert not gm.errors and not player.errors, gm.errors + player.errors
    print(f"SD-E4 at the web table: {time.monotonic() - started:.1f} s")


def test_a_polish_session_speaks_polish_on_the_page_and_in_the_log(served, new_page):
    gm, player = new_page(locale="pl-PL"), new_page(locale="pl-PL")
    sit_down(gm, player, page_url(served), language="pl")
    expect(player.locator("h2", has_text="Dziennik zdarzeń")).to_be_visible()
    expect(player.locator(".log")).to_contain_text("Zaproszono gracza Ala")
    # A refusal keeps its code and is explained in Polish; the form is reached by keyboard alone.
    player.locator("#other-move").select_option("create_encounter")
    player.locator("#other-move").focus()
    player.keyboard.press("Tab")
    player.keyboard.press("Enter")
    player.get_by_test_id("move-create_encounter").locator("button[type=submit]").press("Enter")
    refusal = player.locator(".move-form .problem")
    expect(refusal).to_contain_text("gm_only")
    expect(refusal).to_contain_text("tylko MG może wysłać")
    player.get_by_label("Język strony").select_option("en")
    expect(player.locator(".log")).to_contain_text("Player Ala invited")


def test_after_a_restart_of_the_service_the_page_catches_up_without_a_reload(tmp_path, new_page):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path}/rulekeeper.db", "RULEKEEPER_GRACEFUL_SHUTDOWN_SECONDS": "1"}
    service = Service(env, tmp_path / "first.log").ready()
    try:
        gm, player = new_page(), new_page()
        sit_down(gm, player, page_url(service.url))
        move(gm, "gm_note", {"Text": "before the restart"})
        expect(player.locator(".log")).to_contain_text("before the restart")
        service.stop()
        expect(player.locator(".status")).to_have_text("Reconnecting…")
        service = Service(env, tmp_path / "second.log", port=service.port).ready()
        expect(player.locator(".status")).to_have_text("Live", timeout=15_000)
        move(gm, "gm_note", {"Text": "after the restart"})
        expect(player.locator(".log")).to_contain_text("after the restart")
        seqs = [int(s) for s in player.locator(".log > li").evaluate_all("items => items.map(i => i.dataset.seq)")]
        assert seqs == sorted(set(seqs)), seqs
        assert not player.errors, player.errors
    finally:
        service.stop()


def test_after_a_dropped_connection_the_pages_wait_a_random_part_of_the_backoff_so_they_come_back_spread(
    served, new_page
):
    """The wait before each new attempt lies between half of the backoff and all of it, drawn afresh each time: pages
    a restart disconnected together do not all connect again at the same moment."""
    page = new_page()
    page.goto(page_url(served))
    ends, drawn = page.evaluate("""async () => {
        const { reconnectWait } = await import("./static/api.js");
        return [[reconnectWait(4000, 0), reconnectWait(4000, 0.5)], Array.from({ length: 500 }, () => reconnectWait(4000))];
    }""")
    assert ends == [2000, 3000]
    assert all(2000 <= w < 4000 for w in drawn)
    # Spread over the range, not bunched: each quarter of it drew at least a tenth of the waits (about a quarter each).
    quarters = [sum(2000 + 500 * q <= w < 2500 + 500 * q for w in drawn) for q in range(4)]
    assert min(quarters) >= 50, quarters

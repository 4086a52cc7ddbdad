"""d6-only variant (seed §9, spec 4.15): thresholds, clamps, help −1, enemy and tier offsets."""

from __future__ import annotations

from stepdice_support import Table, one


def _v(**options):
    t = Table(variant_d6_only=True, **options)
    t.pc("w", "warrior")  # strength trained (4+)
    t.pc("m", "mage")  # magic trained (4+)
    return t


def test_difficulty_maps_to_threshold_steps():
    t = _v()
    for tn, threshold in ((4, 3), (6, 4), (8, 5), (12, 6)):
        rec = one(
            t.do({"type": "test", "character_id": "w", "attribute": "strength", "base_tn": tn}, [5]), "test_resolved"
        )
        assert rec["threshold"] == threshold


def test_threshold_clamps_and_bands():
    t = _v()
    rec = one(
        t.do(
            {
                "type": "test",
                "character_id": "w",
                "attribute": "dexterity",
                "base_tn": 12,
                "steps": [{"source": "storm", "delta": 2}],
            },
            [6],
        ),
        "test_resolved",
    )
    assert (rec["raw_threshold"], rec["threshold"], rec["band"], rec["outcome"]) == (
        10,
        6,
        "near_impossible",
        "exceptional_success",
    )


def test_exceptional_on_6_toggle_off():
    t = _v(variant_exceptional_on_6=False)
    rec = one(t.do({"type": "test", "character_id": "w", "attribute": "strength", "base_tn": 6}, [6]), "test_resolved")
    assert rec["outcome"] == "success"


def test_help_token_lowers_the_threshold():
    t = _v()
    t.fight({"w": None, "m": None}, [{"enemy_id": "e", "name": "Knight", "kind": "elite"}])
    t.do({"type": "begin_turn", "character_id": "m"})
    t.do({"type": "help", "character_id": "m", "target_character_id": "w", "description": "flanks"})
    assert t.enc["help_tokens"][0]["mode"] == "threshold_minus_1"
    t.do({"type": "end_turn", "character_id": "m"})
    t.do({"type": "begin_turn", "character_id": "w"})
    rec = one(
        t.do({"type": "attack", "character_id": "w", "target_enemy_id": "e", "attack_type": "melee"}, [4]),
        "test_resolved",
    )
    assert (rec["threshold"], rec["outcome"]) == (4, "success")  # trained 4, elite +1, help −1


def test_magic_tiers_map_to_difficulty():
    t = _v()
    rec = one(t.do({"type": "cast", "character_id": "m", "tier": "strong"}, [5]), "test_resolved")
    assert (rec["threshold"], rec["mana_cost"], rec["outcome"]) == (5, 2, "success")


def test_elite_keeps_two_wounds_and_boss_three():
    t = _v()
    t.fight(
        {"w": None}, [{"enemy_id": "e", "name": "K", "kind": "elite"}, {"enemy_id": "b", "name": "B", "kind": "boss"}]
    )
    assert (t.enemy("e")["wounds_max"], t.enemy("b")["wounds_max"]) == (2, 3)


def test_sheet_made_before_the_variant_derives_proficiency():
    t = Table()
    t.pc("w", "warrior")["dice"]["strength"] = "d12"
    t.state["options"]["variant_d6_only"] = True
    rec = one(t.do({"type": "test", "character_id": "w", "attribute": "strength", "base_tn": 6}, [3]), "test_resolved")
    assert (rec["proficiency"], rec["threshold"], rec["outcome"]) == ("master", 3, "success")

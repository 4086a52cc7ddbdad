"""Rules of a single test (seed §3, spec 4.1–4.6): outcomes, bands, Talents, help, repeats."""

from __future__ import annotations

import pytest

from service.dice.table import TableDice
from service.dice.types import DiceError
from service.rules.base import RuleViolation
from service.rules.stepdice import SYSTEM
from stepdice_support import GM, Table, one, player, types


def _t(**options):
    t = Table(**options)
    t.pc("w", "warrior")  # strength d10
    t.pc("r", "rogue")  # dexterity d10
    return t


def _test(**kw):
    return {"type": "test", "character_id": "w", "attribute": "strength", "base_tn": 6, **kw}


def test_outcome_success_at_or_above_tn():
    assert one(_t().do(_test(), [6]), "test_resolved")["outcome"] == "success"


def test_outcome_failure_below_tn_has_no_required_text():
    t = _t()
    assert one(t.do(_test(), [5]), "test_resolved")["outcome"] == "failure"
    assert t.pending is None


def test_natural_one_requires_a_complication_text():
    t = _t()
    assert one(t.do(_test(base_tn=4), [1]), "test_resolved")["outcome"] == "failure_complication"
    assert t.pending["stage"] == "needs_gm_text" and t.pending["text_required"] == "complication"
    t.fails(_test(), "choice_pending")
    ev = t.do({"type": "record_consequence", "pending_id": "t1", "text": "the lever snaps"})
    assert one(ev, "consequence_recorded")["kind"] == "complication" and t.pending is None


def test_record_consequence_is_gm_only():
    t = _t()
    t.do(_test(), [1])
    t.fails({"type": "record_consequence", "text": "x"}, "gm_only", actor=player("w"), status=403)


def test_max_face_is_exceptional_even_below_tn_by_default():
    t = _t()
    t.sheet("w")["dice"]["strength"] = "d6"
    assert one(t.do(_test(base_tn=8), [6]), "test_resolved")["outcome"] == "exceptional_success"


def test_exceptional_requires_tn_toggle():
    t = _t(exceptional_requires_tn=True)
    t.sheet("w")["dice"]["strength"] = "d6"
    assert one(t.do(_test(base_tn=8), [6]), "test_resolved")["outcome"] == "failure"
    assert one(t.do(_test(base_tn=6), [6]), "test_resolved")["outcome"] == "exceptional_success"


def test_near_certain_roll_anyway_only_one_fails():
    t = _t()
    rec = one(t.do(_test(base_tn=4, steps=[{"source": "prepared", "delta": -1}]), [2]), "test_resolved")
    assert (rec["band"], rec["outcome"]) == ("near_certain", "success")


def test_near_certain_skip_roll_succeeds_without_a_die():
    t = _t()
    ev = t.do(_test(base_tn=4, steps=[{"source": "trivial", "delta": -2}], on_near_certain="skip_roll"))
    rec = one(ev, "test_resolved")
    assert (rec["outcome"], rec["skipped_roll"], rec["dice"]) == ("success", True, [])
    assert t.pending is None  # no exceptional benefit without a roll


def test_skip_roll_is_gm_only():
    _t().fails(
        _test(base_tn=4, steps=[{"source": "x", "delta": -1}], on_near_certain="skip_roll"),
        "gm_only",
        actor=player("w"),
    )


def test_skip_roll_ignored_outside_near_certain_band():
    rec = one(_t().do(_test(on_near_certain="skip_roll"), [7]), "test_resolved")
    assert rec["skipped_roll"] is False and rec["outcome"] == "success"


def test_talent_never_gives_an_automatic_success():
    t = _t()
    ev = t.do(_test(base_tn=4, talents=["Scout"], on_near_certain="skip_roll"), [3])
    rec = one(ev, "test_resolved")
    assert rec["band"] == "near_certain" and rec["band_without_talent"] == "normal"
    assert rec["skipped_roll"] is False and rec["skip_roll_denied"] == "talent_never_auto_success"
    assert rec["roll"] == 3


def test_near_impossible_refuse_consumes_nothing():
    t = _t()
    ev = t.do(_test(base_tn=12, steps=[{"source": "no plan", "delta": 1}], on_near_impossible="refuse"))
    assert types(ev) == ["test_refused"]


def test_near_impossible_roll_only_max_face_succeeds():
    t = _t()
    hard = _test(base_tn=12, steps=[{"source": "storm", "delta": 1}])
    assert one(t.do(hard, [9]), "test_resolved")["outcome"] == "failure"
    assert one(t.do(hard, [10]), "test_resolved")["outcome"] == "exceptional_success"


def test_steps_are_summed_with_the_talent():
    rec = one(
        _t().do(
            _test(
                steps=[
                    {"source": "dark", "delta": 1},
                    {"source": "noise", "delta": 1},
                    {"source": "tools", "delta": -1},
                ],
                talents=["Scout"],
            ),
            [5],
        ),
        "test_resolved",
    )
    assert (rec["net_steps"], rec["tn"]) == (0, 6)


def test_talent_is_one_step_easier():
    rec = one(_t().do(_test(talents=["scout"]), [4]), "test_resolved")
    assert (rec["tn"], rec["talents"], rec["outcome"]) == (4, ["Scout"], "success")


def test_unknown_talent():
    _t().fails(_test(talents=["Hacker"]), "unknown_talent", status=422)


def test_max_talents_per_test_default_one():
    _t().fails(_test(talents=["Scout", "Negotiator"]), "too_many_talents")


def test_max_talents_per_test_two():
    rec = one(_t(max_talents_per_test=2).do(_test(base_tn=8, talents=["Scout", "Negotiator"]), [4]), "test_resolved")
    assert rec["tn"] == 4


def test_use_talents_off_rejects_talents():
    t = Table(use_talents=False)
    t.pc("w", "warrior")
    t.fails(_test(talents=["Scout"]), "option_disabled", status=422)


def test_help_out_of_combat_steps_the_die_up():
    rec = one(_t().do(_test(helper_ids=["r"]), [11]), "test_resolved")
    assert (rec["die"], rec["helper_ids"]) == ("d12", ["r"])


def test_cannot_help_d20():
    t = _t()
    t.sheet("w")["dice"]["strength"] = "d20"
    t.fails(_test(helper_ids=["r"]), "cannot_help_d20", status=422)


def test_cannot_help_self():
    _t().fails(_test(helper_ids=["w"]), "cannot_help_self")


def test_downed_helper_cannot_help():
    t = _t()
    t.sheet("r").update(hearts=0, condition="downed")
    err = t.fails(_test(helper_ids=["r"]), "character_downed")
    assert err.field == "helper_ids"


def test_max_helpers_per_test_default_one():
    t = _t()
    t.pc("m", "mage")
    t.fails(_test(helper_ids=["r", "m"]), "too_many_helpers")


def test_max_helpers_per_test_two_steps_twice():
    t = _t(max_helpers_per_test=2)
    t.pc("m", "mage")
    assert one(t.do(_test(helper_ids=["r", "m"]), [20]), "test_resolved")["die"] == "d20"


def test_downed_character_cannot_test():
    t = _t()
    t.sheet("w").update(hearts=0, condition="downed")
    t.fails(_test(), "character_downed", status=409)


def test_dead_character_cannot_test():
    t = _t()
    t.sheet("w").update(hearts=0, condition="dead")
    t.fails(_test(), "character_dead")


def test_unknown_character():
    _t().fails(_test(character_id="nobody"), "unknown_character", status=422)


def test_repeated_test_warns_but_is_not_rejected():
    t = _t()
    t.do({"type": "start_scene"})
    t.do(_test(), [3])
    rec = one(t.do(_test(repeat_justification="the guard left"), [3]), "test_resolved")
    assert rec["warning"]["code"] == "repeated_test" and rec["warning"]["justification"] == "the guard left"
    other = one(t.do(_test(steps=[{"source": "crowbar", "delta": -1}]), [3]), "test_resolved")
    assert other["warning"] is None
    t.do({"type": "start_scene"})
    assert one(t.do(_test(), [7]), "test_resolved")["warning"] is None


def test_auto_success_is_recorded_without_a_roll():
    ev = _t().do({"type": "auto_success", "character_id": "w", "intent": "open the unlocked door"})
    assert one(ev, "auto_success_recorded")["outcome"] == "success"


def test_auto_success_is_gm_only():
    _t().fails({"type": "auto_success", "character_id": "w", "intent": "x"}, "gm_only", actor=player("w"))


def test_player_acts_only_for_own_character():
    _t().fails(_test(), "not_your_character", actor=player("r"), status=403)


def test_planned_complication_is_gm_only():
    _t().fails(_test(planned_complication="alarm"), "gm_only", actor=player("w"))


def test_dice_error_propagates_untouched():
    t = _t()
    with pytest.raises(DiceError) as info:
        SYSTEM.apply(t.state, _test(), GM, TableDice([]))
    assert info.value.code == "dice_required"
    with pytest.raises(DiceError):
        SYSTEM.apply(t.state, _test(), GM, TableDice([11]))  # a d10 cannot show 11


def test_validation_happens_before_any_die_is_rolled():
    t = _t()
    src = TableDice([5])
    with pytest.raises(RuleViolation):
        SYSTEM.apply(t.state, _test(helper_ids=["w"]), GM, src)
    assert src.rolled == []

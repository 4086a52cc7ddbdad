"""The copier every move uses for its private state and its views: a deep copy for JSON-shaped data, as a state read
back from the records would be."""

from __future__ import annotations

import copy
from fractions import Fraction

from service.rules.jsoncopy import json_copy


def test_json_copy_equals_its_input_and_shares_no_container_with_it():
    state = {
        "options": {"a": True, "n": 1.5},
        "characters": {"c1": {"tags": ["x", "y"], "hp": 3, "gone": None}},
        "table": {"seq": {}, "log": [{"k": [1, [2, 3]]}]},
    }
    out = json_copy(state)
    assert out == state
    out["characters"]["c1"]["tags"].append("z")
    out["table"]["log"][0]["k"][1].append(4)
    out["options"]["a"] = False
    assert state == {
        "options": {"a": True, "n": 1.5},
        "characters": {"c1": {"tags": ["x", "y"], "hp": 3, "gone": None}},
        "table": {"seq": {}, "log": [{"k": [1, [2, 3]]}]},
    }


def test_json_copy_deep_copies_what_is_not_json_shaped():
    inner = [1, 2]
    value = {"t": (inner, 3), "s": {1, 2}, "f": Fraction(1, 3)}
    out = json_copy(value)
    assert out == value and type(out["t"]) is tuple and type(out["s"]) is set
    assert out["t"][0] is not inner


def test_a_tuple_among_json_shaped_data_comes_back_as_a_list_as_from_the_records():
    value = {"pair": (1, 2), "log": [{"faces": (3, 4)}]}
    assert json_copy(value) == {"pair": [1, 2], "log": [{"faces": [3, 4]}]}


def test_keys_that_are_not_strings_and_integers_past_64_bits_are_kept():
    value = {1: {"n": 2**70}, "list": [{2: "two"}]}
    out = json_copy(value)
    assert out == value and list(out) == [1, "list"] and out["list"][0] is not value["list"][0]


def test_json_copy_keeps_subclasses_of_dict_as_they_are():
    class Tagged(dict):
        pass

    value = {"x": Tagged(a=[1])}
    out = json_copy(value)
    assert type(out["x"]) is Tagged and out == value and out["x"]["a"] is not value["x"]["a"]


def test_json_copy_of_none_and_scalars_is_the_value():
    for v in (None, 1, 1.5, "s", True):
        assert json_copy(v) is v
    assert json_copy({"a": None}) == copy.deepcopy({"a": None})

"""JSON as the records database, the live store and the sealed replies write it (service/store/jsontext.py)."""

from __future__ import annotations

import json

from service.game.idempotency import _Slot
from service.store.records.db import json_dumps

BIG = 2**70  # past 64 bits: orjson refuses it, json writes it


def test_values_are_written_as_json_writes_them_with_non_string_keys_as_strings():
    value = {"a": [1, 2.5, None, True], 3: "three", "ł": "zażółć"}
    assert json.loads(json_dumps(value)) == json.loads(json.dumps(value))


def test_nan_and_the_infinities_are_written_as_null_which_is_standard_json():
    assert json_dumps([float("nan"), float("inf"), -float("inf")]) == "[null,null,null]"


def test_an_integer_past_64_bits_is_written_not_refused():
    assert json.loads(json_dumps({"n": BIG})) == {"n": BIG}


def test_a_sealed_reply_opens_to_the_reply_even_with_an_integer_past_64_bits():
    slot = _Slot("owner", "key", b"m" * 32, b"s" * 32)
    for reply in ({"version": 3, "events": [{"seq": 1, "data": {"n": 7}}]}, {"n": BIG}):
        assert slot.open(slot.seal(reply)) == reply

"""Bad input is a RuleViolation (4xx), never a crash (5xx): every action type, schema-valid but random, against
states reached by random play, with server and table dice."""

from __future__ import annotations

import random

from property_examples import examples
from pydantic import ValidationError

from action_deck_support import GM, SeededDice, player
from engine_moves import check_awaiting, check_offered, check_one_entry_per_party, check_typed
from service.dice.types import DiceError
from service.rules.action_deck import SYSTEM
from service.rules.action_deck.actions import ADAPTER, MODELS
from service.rules.action_deck.cards import FULL_DECK
from service.rules.base import RuleViolation
from test_action_deck_properties import EVERYONE, PCS, build, candidates

IDS = EVERYONE + ["ghost"]


class RandomTableDice(SeededDice):
    mode = "table"


def value(name: str, t, rnd: random.Random):
    tb = t.state["table"]
    if name in ("character_id", "leader_id", "defender_id"):
        return rnd.choice(IDS)
    if name in ("participants", "member_ids"):
        return rnd.sample(IDS, rnd.randint(1, 4))
    if name == "player_ids":
        return [f"p-{rnd.choice(PCS + ['x'])}"]
    if name == "test_id":
        return rnd.choice(list(tb["tests"]) + ["t999"])
    if name == "opposed_id":
        return rnd.choice(list(tb["opposed"]) + ["o999"])
    if name in ("trait", "defender_trait"):
        return rnd.choice(["fighting", "athletics", "notice", "zzz"])
    if name == "card":
        return rnd.choice(FULL_DECK + ["ZZ"])
    if name == "cards":
        return rnd.sample(FULL_DECK, rnd.randint(0, 7))
    if name in ("actions",):
        return [{"kind": "a"}] * rnd.randint(0, 5)
    if name == "segments":
        return [
            {
                "inches": rnd.choice([0.5, 1, 3, 9]),
                "mode": rnd.choice(["walk", "climb", "crawl", "swim"]),
                "difficult_terrain": rnd.random() < 0.5,
            }
        ]
    if name in ("modifiers", "defender_modifiers"):
        return [{"source": "gm", "value": rnd.randint(-6, 6)}]
    if name in ("weapon",):
        return rnd.choice(["sword", "bow", None])
    if name == "dice":
        return rnd.choice([None, ["d6"], ["d8", "d4"]])
    if name == "surprise":
        a = rnd.sample(IDS, 2)
        return {"attackers": [a[0]], "victims": [a[1]], "notice": [{"character_id": a[1]}]}
    if name == "groups":
        return {"g": rnd.sample(IDS, 2)}
    if name == "players":
        return [{"player_id": f"p-{c}", "character_ids": [c]} for c in rnd.sample(IDS, 2)]
    if name in ("benny_source",):
        return rnd.choice(["auto", "own", "gm_pool"])
    if name in ("paid_by",):
        return rnd.choice(["benny", "ability"])
    if name in ("direction",):
        return rnd.choice(["long", "high"])
    return rnd.choice([None, True, False, 0, 1, 2, 3, -1, 5])


def random_action(t, rnd: random.Random) -> dict | None:
    model = rnd.choice(MODELS)
    data = {"type": model.model_fields["type"].annotation.__args__[0]}
    for name in model.model_fields:
        if name != "type" and rnd.random() < 0.7:
            data[name] = value(name, t, rnd)
    try:
        return ADAPTER.validate_python(data)
    except ValidationError:
        return None


def test_random_actions_never_crash():
    for seed in range(examples(12)):
        rnd = random.Random(seed)
        t = build({})
        for _ in range(250):
            # advance the table with a plausible move, then throw a random one at it
            for action in (rnd.choice(candidates(t, rnd)), random_action(t, rnd)):
                if action is None:
                    continue
                cid = action.get("character_id") if isinstance(action, dict) else getattr(action, "character_id", None)
                actor = player(f"p-{cid}", cid) if cid in PCS and rnd.random() < 0.4 else GM
                dice = (RandomTableDice if rnd.random() < 0.3 else SeededDice)(rnd.randint(0, 10**9))
                offered = check_offered(SYSTEM, t.state, action, actor)
                try:
                    t.state, _events = SYSTEM.apply(t.state, action, actor, dice)
                except (RuleViolation, DiceError):
                    pass
                else:
                    kind = action["type"] if isinstance(action, dict) else action.type
                    assert offered, f"accepted {kind!r} from {actor.role}, which table.offers did not list"
                check_awaiting(SYSTEM, t.state)
                check_one_entry_per_party(t.state)
                check_typed(SYSTEM, t.state)

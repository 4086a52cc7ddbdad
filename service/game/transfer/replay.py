"""An imported document checked against the engine, not believed: the table at version 0 built here from the
campaign's options, every sheet rebuilt by the system's own character validation, every move replayed with
its recorded dice, and the events each move logs compared with the replay's own. The first move that does
not replay or whose events differ ends the import (a 422 naming it); nothing is written before.

Pure and synchronous, linear in the document: the engines copy the state they change, so a state handed on
is never changed again and is kept by reference (for undo targets and snapshots), never copied per move.
The caller runs it off the event loop.
"""

import json
import types
import typing
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from service.game.log.serviceevents import SERVICE_EVENTS
from service.dice import verifiable
from service.dice.types import DiceError, DiceMode, DieRoll, DieVisibility
from service.game.log import events as events_log
from service.game.log import moves as movelog
from service.game.campaigns.records import build_sheet
from service.game.moves.dicesource import dice_events
from service.game.errors import GameError, invalid
from service.game.campaigns.history import MAX_UNDO
from service.game.transfer.document import CampaignDocument, DocEvent
from service.i18n.message import _, _n
from service.rules.base import RuleSystem, RuleViolation
from service.rules.move import ID_SALT, with_id_salt

# Events a document may hold outside every move's range of events: the service's own (invitations, dice
# sessions, free rolls, deadlines, …). A rule system's events only ever come from replaying a move.
DICE_EVENTS = ("dice_rolled", "expression_rolled")


@dataclass
class Replayed:
    """What the replay arrived at: the states to snapshot (by version), the final state, the events to store."""

    initial: dict[str, Any]
    final: dict[str, Any]
    snapshots: dict[int, dict[str, Any]] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)


class _Dice:
    """The recorded dice of one move, handed back as the engine asks for them. The engine says which purpose and
    visibility each die has (the record keeps only the die), so the replay's log groups them as the first did."""

    def __init__(self, dice: list[dict[str, Any]], mode: DiceMode) -> None:
        self._dice = dice
        self._next = 0
        self.mode = mode
        self.rolled: list[DieRoll] = []

    def roll(self, sides: int, *, purpose: str = "", visibility: DieVisibility = "all", **_: Any) -> DieRoll:
        if self._next >= len(self._dice):
            raise movelog.ReplayDiverged(f"the move asks for a d{sides} ({purpose}) it did not roll")
        d = self._dice[self._next]
        if d["sides"] != sides or d["purpose"] != purpose:
            raise movelog.ReplayDiverged(
                f"die {self._next} was a d{d['sides']} for {d['purpose']!r}; the replay "
                f"asks for a d{sides} for {purpose!r}"
            )
        if not 1 <= d["face"] <= sides:
            raise movelog.ReplayDiverged(f"die {self._next} shows {d['face']} on a d{sides}")
        self._next += 1
        die = DieRoll(sides, d["face"], d["source"], d["seq"], purpose, visibility)
        self.rolled.append(die)
        return die

    @property
    def unused(self) -> int:
        return len(self._dice) - self._next


class _Session:
    """The dice session a move's dice came from, as `dice_events` names it."""

    def __init__(self, number: int) -> None:
        self.number = number


def _plain(value: Any) -> Any:
    """JSON as it will be stored and read back (tuples become lists), to compare with the document's."""
    return json.loads(json.dumps(value))


def _without_marker(ev: DocEvent) -> list:
    data, redacted = ev.data, ev.redacted
    if ev.type in DICE_EVENTS:
        data = {k: v for k, v in data.items() if k != "imported"}
        redacted = None if redacted is None else {k: v for k, v in redacted.items() if k != "imported"}
    return [ev.type, data, redacted, ev.visibility]


def diverged(i: int, version: int, detail: str) -> GameError:
    return invalid(
        "import_diverged", _("move {version} does not replay: {detail}", version=version, detail=detail), f"moves.{i}"
    )


def initial_state(doc: CampaignDocument, system: RuleSystem, options: dict[str, Any]) -> dict[str, Any]:
    """Version 0 from the options, with the document's id salt (the ids its moves made depend on it)."""
    table = doc.initial_state.get("table")
    salt = table.get(ID_SALT) if isinstance(table, dict) else None
    if not isinstance(salt, str) or not 16 <= len(salt) <= 64 or not all(c in "0123456789abcdef" for c in salt):
        raise invalid(
            "import_forged",
            _("the initial table carries no id salt of the service's shape"),
            "initial_state.table.id_salt",
        )
    initial = system.initial_state(system.Options.model_validate(options))
    with_id_salt(initial["table"], salt)
    initial = _plain(initial)
    if initial != doc.initial_state:
        raise invalid(
            "import_forged", _("the initial state is not the one the campaign's options make"), "initial_state"
        )
    return initial


def _project(value: Any, tp: Any) -> Any:
    """`value` cut down to what the input type `tp` takes: a sheet repeats its input and adds what the rules
    derive (an ability's source, a die's parsed size); the input model says which is which."""
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        if not isinstance(value, dict):
            return value
        return {k: _project(v, tp.model_fields[k].annotation) for k, v in value.items() if k in tp.model_fields}
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    if typing.get_origin(tp) in (list, tuple) and args and isinstance(value, list):
        return [_project(v, args[0]) for v in value]
    if typing.get_origin(tp) is dict and len(args) == 2 and isinstance(value, dict):
        return {k: _project(v, args[1]) for k, v in value.items()}
    if typing.get_origin(tp) in (typing.Union, types.UnionType) and len(args) == 1:
        return _project(value, args[0])
    return value


def character_input(system_id: str, model: type[BaseModel], sheet: dict[str, Any]) -> dict[str, Any]:
    """The character input a sheet was built from: the sheet's own fields, in the input's spelling."""
    if system_id == "iskra" and isinstance(sheet.get("abilities"), list):  # a species' abilities come with it
        sheet = {
            **sheet,
            "abilities": [a for a in sheet["abilities"] if not isinstance(a, dict) or a.get("source") == "creation"],
        }
    out = _project(sheet, model)
    if system_id == "danger_pool":  # free-text entries get numbered ids: {legend_id, text}
        for name in ("legends", "equipment"):
            if isinstance(out.get(name), list):
                out[name] = [e.get("text") if isinstance(e, dict) else e for e in out[name]]
    if system_id == "action_deck":  # trait dice are parsed into {sides, bonus}; the input spells them "d12+1"
        die = lambda d: f"d{d['sides']}" + (f"+{d['bonus']}" if d.get("bonus") else "")  # noqa: E731
        for trait in ("attributes", "skills"):
            if isinstance(out.get(trait), dict):
                out[trait] = {k: die(v) if isinstance(v, dict) else v for k, v in out[trait].items()}
        if isinstance(out.get("running_die"), int):
            out["running_die"] = f"d{out['running_die']}"
        if isinstance(out.get("weapons"), list):
            out["weapons"] = [
                {**w, "damage": [f"d{d}" if isinstance(d, int) else d for d in w.get("damage", [])]}
                if isinstance(w, dict)
                else w
                for w in out["weapons"]
            ]
    return out


def checked_sheet(
    system: RuleSystem, options: dict[str, Any], sheet: Any, character_id: str, where: str
) -> dict[str, Any]:
    """A sheet createCharacter could have made: its input passes the system's own validation, and everything the
    rules derive from it (hearts, dice, derived scores) is what they derive, not what the document says."""
    if not isinstance(sheet, dict):
        raise invalid("import_invalid", _("a character move's sheet is an object"), where)
    bare = {k: v for k, v in sheet.items() if k != "id"}
    model = system.CharacterInput
    try:
        rebuilt = _plain(build_sheet(system.id, options, character_input(system.id, model, bare)))
    except (KeyError, TypeError, AttributeError):  # a shape no sheet of this system has
        raise invalid(
            "import_forged", _("the sheet is not the one the rule system makes from its own fields"), where
        ) from None
    except GameError as exc:
        raise invalid(
            "import_forged",
            _("the sheet fails the rule system's character validation: {detail}", detail=exc.detail),
            where,
        ) from None
    derived_differ = set(rebuilt) != set(bare) or any(
        rebuilt[k] != bare[k]
        if k not in model.model_fields
        else _project(rebuilt[k], model.model_fields[k].annotation)
        != _project(bare[k], model.model_fields[k].annotation)
        for k in rebuilt
    )
    if derived_differ or sheet.get("id") != character_id:
        raise invalid("import_forged", _("the sheet is not the one the rule system makes from its own fields"), where)
    return sheet


def replay(doc: CampaignDocument, system: RuleSystem, options: dict[str, Any], *, snapshot_every: int) -> Replayed:
    initial = initial_state(doc, system, options)
    mode = doc.campaign.dice_mode
    by_seq = {e.seq: e for e in doc.events}
    characters = {c.id: c for c in doc.characters}
    undo_targets = {m.body.get("target") for m in doc.moves if m.kind == "undo" and type(m.body.get("target")) is int}
    out = Replayed(initial=initial, final=initial)
    states: dict[int, dict[str, Any]] = {0: initial}
    kinds: dict[int, str] = {}
    targets: dict[int, int] = {}
    in_moves: set[int] = set()
    state, last = initial, 0
    for i, m in enumerate(doc.moves):
        if (
            m.first_seq <= last
            or m.last_seq < m.first_seq - 1
            or any(s not in by_seq for s in range(m.first_seq, m.last_seq + 1))
        ):
            raise invalid(
                "import_invalid",
                _("a move's events follow the previous move's, and every one is in the document"),
                f"moves.{i}.first_seq",
            )
        logged = [by_seq[s] for s in range(m.first_seq, m.last_seq + 1)]
        in_moves.update(range(m.first_seq, m.last_seq + 1))
        last = max(last, m.last_seq)
        actor = m.actor.model_dump()
        if m.kind == "character":
            state, events = _character(system, options, state, m, i, characters, logged)
        elif m.kind == "undo":
            state, events = _undo(system, states, kinds, targets, state, m, i)
            targets[m.version] = m.body["target"]
        else:
            state, events = _action(system, mode, state, m, i, logged)
        kinds[m.version] = m.kind
        if len(events) != len(logged) or any(
            _without_marker(ev) != mine
            or not _same_actor(ev.actor_role, actor["role"])
            or ev.actor_player_id != actor["player_id"]
            for ev, mine in zip(logged, events)
        ):
            first = next(
                (ev.seq for ev, mine in zip(logged, events) if _without_marker(ev) != mine),
                m.first_seq + min(len(events), len(logged)),
            )
            raise diverged(i, m.version, _("its events differ from the replay's, from event {seq} on", seq=first))
        if m.version in undo_targets or m.kind == "undo" or m.version % snapshot_every == 0:
            states[m.version] = state
        if m.kind == "undo" or m.version % snapshot_every == 0:
            out.snapshots[m.version] = state
    for i, e in enumerate(doc.events):
        if e.seq not in in_moves:
            _service_event(e, i)
    out.final = state
    out.events = [
        {
            "seq": e.seq,
            "type": e.type,
            "data": _marked(e.type, e.data),
            "redacted": None if e.redacted is None else _marked(e.type, e.redacted),
            "visibility": e.visibility,
            "actor_role": e.actor_role,
            "actor_player_id": e.actor_player_id,
        }
        for e in doc.events
    ]
    if movelog.state_hash(state) != doc.final.state_sha256:
        raise invalid(
            "import_diverged", _("the moves do not arrive at the state the document records"), "final.state_sha256"
        )
    return out


def _marked(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """Dice this server did not roll say so to every reader."""
    return {**data, "imported": True} if kind in DICE_EVENTS else data


def _service_event(e: DocEvent, i: int) -> None:
    model = SERVICE_EVENTS.get(e.type)
    if model is None:
        raise invalid(
            "import_invalid",
            _("a {type} event comes only from a move, and no move logs event {seq}", type=e.type, seq=e.seq),
            f"events.{i}.type",
        )
    for name, value in (("data", e.data), ("redacted", e.redacted)):
        if value is None:
            continue
        try:
            model.model_validate(
                {k: v for k, v in value.items() if k != "imported"} if e.type in DICE_EVENTS else value
            )
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in first["loc"])
            raise invalid(
                "import_invalid",
                _("{field}: {message}", field=where or name, message=first["msg"]),
                f"events.{i}.{name}" + (f".{where}" if where else ""),
            ) from None


def _action(system, mode, state, m, i, logged) -> tuple[dict[str, Any], list[tuple]]:
    raw = m.body.get("action")
    if set(m.body) != {"action"} or not isinstance(raw, dict):
        raise invalid("import_invalid", _("an action move's body holds `action` only"), f"moves.{i}.body")
    try:
        action = movelog.action_adapter(system.id).validate_python(raw)
    except ValidationError as exc:
        raise diverged(
            i,
            m.version,
            _("its action is not one of the rule system's: {exc}", exc=exc.errors(include_url=False)[0]["msg"]),
        ) from None
    dice = _Dice([d.model_dump() for d in m.dice], mode)
    try:
        new_state, events = system.apply(state, action, movelog.actor_from(m.actor.model_dump()), dice)
    except (RuleViolation, DiceError, movelog.ReplayDiverged, KeyError, TypeError, ValueError) as exc:
        raise diverged(i, m.version, str(exc)) from None
    if dice.unused:
        raise diverged(
            i,
            m.version,
            _n(
                "it rolled {count} die the replay does not roll",
                "it rolled {count} dice the replay does not roll",
                dice.unused,
                count=dice.unused,
            ),
        )
    session = None
    if mode == "verifiable" and dice.rolled:
        number = next((e.data.get("dice_session") for e in logged if e.type == "dice_rolled"), None)
        session = _Session(number) if isinstance(number, int) else None
    mine = dice_events(dice.rolled, session, purpose=action.type) + list(events)
    return new_state, [_plain((e.type, e.data, e.redacted, e.visibility)) for e in mine]


def _character(system, options, state, m, i, characters, logged) -> tuple[dict[str, Any], list[tuple]]:
    cid = m.body.get("character_id")
    if set(m.body) != {"character_id", "sheet"} or not isinstance(cid, str) or cid not in characters:
        raise invalid(
            "import_invalid",
            _("a character move's body holds `character_id` (a listed character) and `sheet`"),
            f"moves.{i}.body",
        )
    sheet = checked_sheet(system, options, m.body["sheet"], cid, f"moves.{i}.body.sheet")
    first = logged[0].data if logged else {}
    player = first.get("player_id")
    mine = [
        (
            "character_created",
            {"character_id": cid, "player_id": player if isinstance(player, str) else None, "name": sheet.get("name")},
            None,
            "all",
        )
    ]
    return {**state, "characters": {**state["characters"], cid: sheet}}, [_plain(e) for e in mine]


def _undo(system, states, kinds, targets, state, m, i) -> tuple[dict[str, Any], list[tuple]]:
    target, undone = m.body.get("target"), m.body.get("undone")
    if (
        set(m.body) != {"target", "undone"}
        or type(target) is not int
        or not isinstance(undone, list)
        or not 1 <= len(undone) <= MAX_UNDO
    ):
        raise invalid("import_invalid", _("an undo move's body holds `target` and `undone`"), f"moves.{i}.body")
    # The same walk back as the undo the GM made (service/game/campaigns/history.py): over undo moves to their targets,
    # then over rule moves only.
    at, walked = m.version - 1, []
    for _step in undone:
        while kinds.get(at) == "undo":
            at = targets[at]
        if at == 0 or kinds.get(at) != "action":
            raise diverged(i, m.version, _("it undoes more than the rule moves before it"))
        walked.append(at)
        at -= 1
    if walked != undone or at != target or target not in states:
        raise diverged(i, m.version, _("it does not go back to the version it names"))
    back = states[target]
    blocker = getattr(system, "undo_blocker", None)
    refusal = blocker(back["table"], state["table"]) if blocker else None
    if refusal is not None:
        raise diverged(i, m.version, refusal.detail)
    by = {"role": m.actor.role, "player_id": m.actor.player_id}
    mine = [
        (
            "undone",
            {"undone_versions": undone, "back_to_version": target, "from_version": m.version - 1, "by": by},
            None,
            "all",
        )
    ]
    return back, [_plain(e) for e in mine]


def verify_sessions(doc: CampaignDocument, events: list[dict[str, Any]]) -> dict[int, str]:
    """Each dice session's status on this server: a closed one whose every die recomputes from its revealed seed
    stays closed (else the import is refused); any other is unverifiable, since its seed never left its server."""
    numbers = {d.number for d in doc.dice_sessions}
    rolls: dict[int, list[dict[str, Any]]] = {n: [] for n in numbers}
    for e in events:
        if e["type"] != "dice_rolled":
            continue
        number = e["data"].get("dice_session")
        if number is None:
            continue
        if number not in rolls:
            raise invalid(
                "import_invalid",
                _(
                    "event {seq} names dice session {number}, which the document does not list",
                    seq=e["seq"],
                    number=number,
                ),
                "dice_sessions",
            )
        rolls[number].extend(
            {"seq": d["seq"], "sides": d["sides"], "face": d["face"]} for d in e["data"].get("dice") or []
        )
    status: dict[int, str] = {}
    for i, d in enumerate(doc.dice_sessions):
        if d.status != "closed":
            if d.seed is not None:
                raise invalid(
                    "import_invalid", _("only a closed session's seed is revealed"), f"dice_sessions.{i}.seed"
                )
            status[d.number] = "unverifiable"
            continue
        if d.seed is None:
            raise invalid("import_unverified", _("a closed session carries its seed"), f"dice_sessions.{i}.seed")
        try:
            report = verifiable.verify_rolls(d.seed, d.commitment, d.client_seed, rolls[d.number])
        except ValueError as exc:
            raise invalid("import_unverified", str(exc), f"dice_sessions.{i}") from None
        trailing = max((r["seq"] for r in rolls[d.number] if r["seq"] is not None), default=-1) + 1 < d.counter
        if not report.ok or trailing:
            raise invalid(
                "import_unverified",
                _(
                    "dice session {number} does not verify: its dice do not follow from its revealed seed",
                    number=d.number,
                ),
                f"dice_sessions.{i}",
            )
        status[d.number] = "closed"
    return status


def _same_actor(logged_role: str, move_role: str) -> bool:
    """The turn clock's default moves are recorded with the GM's authority and logged as the clock's."""
    return logged_role == move_role or (logged_role == events_log.CLOCK and move_role == "gm")

"""One move, for every rule system: its steps, named once.

Every system's `apply` is `driver.apply(MOVES, ...)`, with `MOVES` the system's own tables (its `engine.py`):

1. validate  - the action against the system's union of moves (a dict from a client or the move log);
2. context   - a private copy of the state (the caller's is never touched, even by a refused move);
3. authorise - who may send it: a GM move is refused to a player, and a player acts only for characters
               they control (and, where the rules can take a character from its player, still hold);
4. guards    - the system's checks on what may happen now (e.g. a pending step that must be settled first);
5. handler   - the move itself, one function per move type;
6. after     - the rules any move sets off (a state machine going on, a suggestion, a due reveal);
7. awaiting  - whose move it is next (`table.awaiting`, and `table.requests` where a system keeps it).

A refusal at any step raises a RuleViolation; nothing is returned, so nothing of the move is kept.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, TypeAdapter

from service.dice.types import DiceSource
from service.i18n.message import _
from service.rules.base import Actor, Event, RuleViolation, gm_only, not_your_character
from service.rules.move import MoveContext

Handler = Callable[[Any, Any], None]
Guard = Callable[[Any, Any], None]
Rule = Callable[[Any], None]


@dataclass(frozen=True)
class MoveTable:
    """What one rule system gives the driver; everything else about a move is the same for every system."""

    adapter: TypeAdapter[Any]
    context: Callable[[dict[str, Any], Actor, DiceSource | None], MoveContext[Any]]
    handlers: Mapping[str, Handler]
    awaiting: Rule
    guards: Sequence[Guard] = ()
    after: Sequence[Rule] = ()
    # False where a move's owner is named in different fields from move to move (a test's roller, a
    # defender): then each handler checks it, and the driver only keeps GM moves from players.
    owner_check: bool = True
    # Where the rules can take a character out of its player's hands (a betrayer, a character turned to the
    # dark side): the refusal for a player still bound to it, or None while it is theirs.
    taken_over: Callable[[dict[str, Any]], RuleViolation | None] | None = None


def apply(
    table: MoveTable, state: dict[str, Any], action: BaseModel | dict[str, Any], actor: Actor, dice: DiceSource
) -> tuple[dict[str, Any], list[Event]]:
    move = validate(table, action)
    ctx = table.context(state, actor, dice)
    authorise(table, ctx, move)
    for guard in table.guards:
        guard(ctx, move)
    table.handlers[move.type](ctx, move)
    for rule in table.after:
        rule(ctx)
    table.awaiting(ctx)
    return ctx.state, ctx.events


def validate(table: MoveTable, action: BaseModel | dict[str, Any]) -> Any:
    return action if isinstance(action, BaseModel) else table.adapter.validate_python(action)


def authorise(table: MoveTable, ctx: MoveContext[Any], move: Any) -> None:
    """`sender` (a class attribute of every move model): "gm" is the GM only; otherwise the GM, or the player
    controlling the character the move names in `character_id` (a move naming none is checked by its handler)."""
    if type(move).sender == "gm":
        if not ctx.actor.is_gm:
            raise gm_only(_("only the GM may send {type}", type=move.type), field="type")
        return
    cid = getattr(move, "character_id", None)
    if cid is None or not table.owner_check:
        return
    # A system that may take a character over looks it up first: an unknown one is refused as unknown.
    sheet = ctx.sheet(cid) if table.taken_over is not None else None
    if not ctx.actor.controls(cid):
        raise not_your_character(
            _("a player acts only for their own characters, not {cid}", cid=cid), field="character_id"
        )
    if sheet is not None and table.taken_over is not None and not ctx.actor.is_gm:
        refusal = table.taken_over(sheet)
        if refusal is not None:
            raise refusal

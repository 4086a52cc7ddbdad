"""The web table's GraphQL fragments for each rule system's table: every field of its state, written from the
schema (`rulekeeper export-contracts`), so the page draws everything a REST client would see and a field added
to a rule system's model reaches the page without a hand-written line.

The page's own operations (static/graphql/operations.graphql) spread these fragments. Where two members of a
union answer a field of the same name with different types (GraphQL refuses to merge those), the field is
aliased `<field>_<Member>`; the page reads it back under its own name (static/shape.js)."""
from __future__ import annotations

from graphql import (GraphQLObjectType, GraphQLSchema, GraphQLUnionType, get_named_type, is_leaf_type,
                     is_non_null_type)

# The rule systems' table state types, in the order of the SystemState union; each fragment is named after its type.
HEADER = ("# Written by `rulekeeper export-contracts` from schema/schema.graphql (service/web/tables.py): every\n"
          "# field of each rule system's table, as the page's table queries select it. Do not edit.\n")


def _selection(named, path: tuple[str, ...], indent: str) -> str:
    named = get_named_type(named)
    if is_leaf_type(named):
        return ""
    if isinstance(named, GraphQLUnionType):
        clashing = _clashing(named)
        inner = indent + "  "
        members = "".join(f"\n{inner}... on {m.name} {_fields(m, path, inner, clashing, m.name)}" for m in named.types)
        return "{\n" + inner + "__typename" + members + "\n" + indent + "}"
    assert isinstance(named, GraphQLObjectType), named
    return _fields(named, path, indent)


def _clashing(union: GraphQLUnionType) -> set[str]:
    """Field names whose types differ between the union's members."""
    types: dict[str, set[str]] = {}
    for member in union.types:
        for name, field in member.fields.items():
            types.setdefault(name, set()).add(str(field.type))
    return {name for name, seen in types.items() if len(seen) > 1}


def _fields(named: GraphQLObjectType, path: tuple[str, ...], indent: str, clashing: set[str] = frozenset(),
            member: str = "") -> str:
    inner = indent + "  "
    lines = []
    for name, field in named.fields.items():
        if any(is_non_null_type(a.type) for a in field.args.values()):
            continue
        child = get_named_type(field.type)
        if child.name in path:  # a type inside itself: the page draws what one level holds
            continue
        alias = f"{name}_{member}: " if name in clashing else ""
        sub = _selection(child, path + (named.name,), inner)
        lines.append(f"{inner}{alias}{name}{' ' + sub if sub else ''}")
    return "{\n" + "\n".join(lines) + "\n" + indent + "}"


def state_types(schema: GraphQLSchema) -> list[GraphQLObjectType]:
    union = schema.type_map["SystemState"]
    assert isinstance(union, GraphQLUnionType)
    return [t for t in union.types if t.name != "Untyped"]


def table_fragments(schema: GraphQLSchema) -> str:
    parts = [HEADER]
    for state in state_types(schema):
        parts.append(f"\nfragment {state.name} on {state.name} {_fields(state, (), '')}\n")
    return "".join(parts)

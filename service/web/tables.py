"""The web table's GraphQL fragments for each rule system's table: every field of its state, written from the
schema (`rulekeeper export-contracts`), so the page draws everything a REST client would see and a field added
to a rule system's model reaches the page without a hand-written line.

The page's own operations (static/graphql/operations.graphql) spread these fragments, and the page reads the
table in the rules' spelling (static/shape.js turns `heartsMax` back into `hearts_max`). Where that turn would
miss (`variantExceptionalOn6` is `variant_exceptional_on_6`), the field is aliased by its REST name; where two
members of a union answer a field of the same name with different types (GraphQL refuses to merge those), it is
aliased `<name>_<Member>`, which the page reads back under its own name. A value of one of several shapes (an
`int` or `"unlimited"`: an object with a field per shape, one of them set) has each field aliased `<shape>_oneOf`,
which the page reads as the one value set."""

import re

from graphql import GraphQLObjectType, GraphQLSchema, GraphQLUnionType, get_named_type, is_leaf_type, is_non_null_type

# The rule systems' table state types, in the order of the SystemState union; each fragment is named after its type.
HEADER = (
    "# Written by `rulekeeper export-contracts` from schema/schema.graphql (service/web/tables.py): every\n"
    "# field of each rule system's table, as the page's table queries select it. Do not edit.\n"
)


# How service/api/graphql/generate.py describes an object holding a value of one of several shapes.
CHOICE = "One of several shapes: exactly one field is set."


def _selection(named, path: tuple[str, ...], indent: str) -> str:
    named = get_named_type(named)
    if is_leaf_type(named):
        return ""
    if isinstance(named, GraphQLObjectType) and named.description == CHOICE:
        inner = indent + "  "
        return (
            "{\n"
            + "".join(
                f"{inner}{name}_oneOf: {name} {_selection(f.type, path, inner)}".rstrip() + "\n"
                for name, f in named.fields.items()
            )
            + indent
            + "}"
        )
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


def _fields(
    named: GraphQLObjectType,
    path: tuple[str, ...],
    indent: str,
    clashing: frozenset[str] | set[str] = frozenset(),
    member: str = "",
) -> str:
    inner = indent + "  "
    lines = []
    for name, field in named.fields.items():
        if any(is_non_null_type(a.type) for a in field.args.values()):
            continue
        child = get_named_type(field.type)
        if child.name in path:  # a type inside itself: the page draws what one level holds
            continue
        rest = _rest_name(name, field)
        alias = f"{rest}_{member}: " if name in clashing else f"{rest}: " if rest != _snake(name) else ""
        sub = _selection(child, path + (named.name,), inner)
        lines.append(f"{inner}{alias}{name}{' ' + sub if sub else ''}")
    return "{\n" + "\n".join(lines) + "\n" + indent + "}"


def _snake(name: str) -> str:
    """What static/shape.js makes of a field's name."""
    return re.sub(r"[A-Z]", lambda m: "_" + m.group().lower(), name)


def _rest_name(name: str, field) -> str:
    """The field's name in the REST document: the model's, which the schema's field was named from."""
    definition = (field.extensions or {}).get("strawberry-definition")
    python = getattr(definition, "python_name", None) or ""
    python = python.rstrip("_")
    return python if python and python == python.lower() else _snake(name)


def state_types(schema: GraphQLSchema) -> list[GraphQLObjectType]:
    union = schema.type_map["SystemState"]
    assert isinstance(union, GraphQLUnionType)
    return [t for t in union.types if t.name != "Untyped"]


def table_fragments(schema: GraphQLSchema) -> str:
    parts = [HEADER]
    for state in state_types(schema):
        parts.append(f"\nfragment {state.name} on {state.name} {_fields(state, (), '')}\n")
    return "".join(parts)

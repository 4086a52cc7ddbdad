"""What one GraphQL document may ask for: depth, aliases and cost, and literal values the stores can hold.

Checked as a validation rule, so the validation cache (graphql/validated.py) keeps the verdict per document text and a
repeated query pays nothing. The rule class is made once per schema: a new class per request would
make every request a cache miss (the cache key includes the rules).

Depth, aliases and cost are counted in one walk that summarises each fragment once. strawberry's
QueryDepthLimiter and MaxAliasesLimiter re-walk a fragment at every spread: a document of ~150 tokens
in which each of 18 fragments spreads the next one twice took 1.2 s to validate (2^18 walks), and
each added fragment doubles it. Here the same document costs one visit per fragment and is refused
for its (exponentially large) cost.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLObjectType,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    ValidationRule,
    VariableNode,
    get_named_type,
)

from graphql.validation.rules import overlapping_fields_can_be_merged

from service.api.jsoninput import MAX_DEPTH as MAX_VALUE_DEPTH
from service.api.jsoninput import UNSTORABLE
from service.i18n.message import _, _n

# graphql-core's own check that same-named fields can merge compares them in pairs, metered by a budget
# (500,000 units by default: 1.6 s of validation for ~500 repeated `systems { id }`, well inside the token
# limit). Realistic documents spend under 100 units (introspection: 0). The module attribute is
# graphql-core's documented knob and holds for the whole process; an exhausted budget aborts validation
# (code query_too_complex).
overlapping_fields_can_be_merged.MAX_COMPLEXITY_BUDGET = 10_000

# List fields whose size a client chooses: (argument, its default, the largest it may be). A page weighs
# as many as it may return; every other field weighs 1. A variable weighs the largest it may be, so the
# verdict does not depend on the variables (and the validation cache stays valid).
PAGED: dict[tuple[str, str], tuple[str | None, int, int]] = {
    ("Query", "events"): ("first", 100, 500),
    ("Subscription", "campaignEvents"): (None, 100, 100),  # each poll reads up to 100 events
}


@dataclass(frozen=True)
class DocumentLimits:
    max_depth: int
    max_aliases: int
    max_cost: int


@dataclass(frozen=True)
class Summary:
    depth: int = 0
    aliases: int = 0
    cost: int = 0

    def __add__(self, other: Summary) -> Summary:
        return Summary(max(self.depth, other.depth), self.aliases + other.aliases, self.cost + other.cost)


def _weight(parent: str | None, field: FieldNode) -> int:
    spec = PAGED.get((parent or "", field.name.value))
    if spec is None:
        return 1
    argument, default, largest = spec
    for arg in field.arguments or ():
        if arg.name.value == argument:
            if isinstance(arg.value, IntValueNode):
                return max(1, min(int(arg.value.value), largest))
            if isinstance(arg.value, VariableNode):
                return largest
    return default


class _Walk:
    def __init__(self, schema, fragments: dict[str, FragmentDefinitionNode]) -> None:
        self.schema = schema
        self.fragments = fragments
        self.done: dict[str, Summary] = {}

    def selections(self, node: SelectionSetNode | None, parent, expanding: frozenset[str]) -> Summary:
        total = Summary()
        for sel in node.selections if node else ():
            if isinstance(sel, FieldNode):
                name = sel.name.value
                field = parent.fields.get(name) if isinstance(parent, GraphQLObjectType) else None
                child = get_named_type(field.type) if field is not None else None
                inner = self.selections(sel.selection_set, child, expanding)
                # Introspection (__schema, __type) nests deeply by design and is not counted for depth.
                depth = 0 if name.startswith("__") else inner.depth + 1
                total += Summary(
                    depth,
                    inner.aliases + (1 if sel.alias else 0),
                    inner.cost + _weight(getattr(parent, "name", None), sel),
                )
            elif isinstance(sel, InlineFragmentNode):
                typed = self.schema.get_type(sel.type_condition.name.value) if sel.type_condition else parent
                total += self.selections(sel.selection_set, typed, expanding)
            elif isinstance(sel, FragmentSpreadNode):
                total += self.fragment(sel.name.value, expanding)
        return total

    def fragment(self, name: str, expanding: frozenset[str]) -> Summary:
        # A cycle or an unknown fragment is another rule's error (NoFragmentCycles, KnownFragmentNames).
        if name in expanding or name not in self.fragments:
            return Summary()
        if name not in self.done:
            frag = self.fragments[name]
            self.done[name] = self.selections(
                frag.selection_set, self.schema.get_type(frag.type_condition.name.value), expanding | {name}
            )
        return self.done[name]


def _root(schema, op: OperationDefinitionNode):
    return {
        OperationType.QUERY: schema.query_type,
        OperationType.MUTATION: schema.mutation_type,
        OperationType.SUBSCRIPTION: schema.subscription_type,
    }.get(op.operation)


def measure(document, schema, limits: DocumentLimits) -> list[GraphQLError]:
    fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
    walk = _Walk(schema, fragments)
    errors = []
    for op in (d for d in document.definitions if isinstance(d, OperationDefinitionNode)):
        try:
            s = walk.selections(op.selection_set, _root(schema, op), frozenset())
        except RecursionError:
            errors.append(_error("query_too_deep", "the query nests too deeply to be analysed", op))
            continue
        if s.depth > limits.max_depth:
            errors.append(
                _error(
                    "query_too_deep",
                    f"the query nests {s.depth} fields deep; the limit is {limits.max_depth}",
                    op,
                    depth=s.depth,
                    limit=limits.max_depth,
                )
            )
        if s.aliases > limits.max_aliases:
            errors.append(
                _error(
                    "too_many_aliases",
                    f"the query uses {s.aliases} aliases; the limit is {limits.max_aliases}",
                    op,
                    aliases=s.aliases,
                    limit=limits.max_aliases,
                )
            )
        if s.cost > limits.max_cost:
            errors.append(
                _error(
                    "query_too_costly",
                    f"the query would cost {s.cost} (each field 1, a page of events "
                    f"as many as it may return); the limit is {limits.max_cost}",
                    op,
                    cost=s.cost,
                    limit=limits.max_cost,
                )
            )
    return errors


def _error(code: str, message: str, node, **extra) -> GraphQLError:
    return GraphQLError(message, node, extensions={"code": code, "status": 400, **extra})


def document_rule(limits: DocumentLimits) -> type[ValidationRule]:
    """One rule class per set of limits; see the module docstring for why it must be made only once."""

    class DocumentLimitsRule(ValidationRule):
        def __init__(self, context) -> None:
            super().__init__(context)
            self.value_depth = 0
            for error in measure(context.document, context.schema, limits):
                context.report_error(error)

        # Literal arguments reach the stores like variables do: the same characters are refused.
        def enter_string_value(self, node, *_rest) -> None:
            if UNSTORABLE.search(node.value):
                self.report_error(
                    GraphQLError(
                        _("a string may not contain NUL or unpaired surrogates"),
                        node,
                        extensions={"code": "invalid_input", "status": 422},
                    )
                )

        def enter_object_value(self, node, *_rest) -> None:
            self._deeper(node)

        def enter_list_value(self, node, *_rest) -> None:
            self._deeper(node)

        def leave_object_value(self, *_rest) -> None:
            self.value_depth -= 1

        def leave_list_value(self, *_rest) -> None:
            self.value_depth -= 1

        def _deeper(self, node) -> None:
            self.value_depth += 1
            if self.value_depth == MAX_VALUE_DEPTH + 1:
                self.report_error(
                    GraphQLError(
                        _n(
                            "a value nests deeper than {max_value_depth} level",
                            "a value nests deeper than {max_value_depth} levels",
                            MAX_VALUE_DEPTH,
                            max_value_depth=MAX_VALUE_DEPTH,
                        ),
                        node,
                        extensions={"code": "invalid_input", "status": 422},
                    )
                )

    return DocumentLimitsRule

"""Each document's validation verdict, kept per query text.

strawberry's ValidationCache keys its LRU cache by the parsed document. A document is a tree of frozen
dataclasses, whose hash walks the whole tree on every lookup: for the web table's queries (every field of a
system's table, in fragments) that walk was about 6% of the CPU of a request. The parser cache hands out the
same document for the same text and parse options, so the text (whose hash Python computes once per string)
and the options identify the document as well.
"""

from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from strawberry.extensions import SchemaExtension
from strawberry.schema.schema import validate_document

# Shared by every request (the extension is made per request); one entry per document text, schema and rules.
_VERDICTS: OrderedDict[tuple[Any, ...], list[Any]] = OrderedDict()


class ValidationCacheByText(SchemaExtension):
    def __init__(self, maxsize: int = 256) -> None:
        super().__init__()
        self.maxsize = maxsize

    def on_validate(self) -> Iterator[None]:
        ctx = self.execution_context
        schema, document, rules = ctx.schema._schema, ctx.graphql_document, ctx.validation_rules
        assert document is not None  # strawberry validates only what parsed
        if ctx.query is None:  # a document given already parsed: nothing to key it by
            ctx.pre_execution_errors = validate_document(schema, document, rules)
            yield
            return
        key = (id(schema), ctx.query, tuple(sorted(ctx.parse_options.items())), rules)
        verdict = _VERDICTS.get(key)
        if verdict is None:
            verdict = _VERDICTS[key] = validate_document(schema, document, rules)
            while len(_VERDICTS) > self.maxsize:
                _VERDICTS.popitem(last=False)
        else:
            _VERDICTS.move_to_end(key)
        ctx.pre_execution_errors = verdict
        yield

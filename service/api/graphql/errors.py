"""GraphQL errors as clients see them: every one carries `extensions.code`, none carries internal text.

An error raised on purpose (a GameError turned GraphQLError, a limit, a parse or validation error)
keeps its message. Anything else is a bug whose text may hold SQL, parameters or server addresses
(strawberry puts str(exception) in the message): the client gets a fixed message and
`internal_error`, and the real exception goes to the log with its traceback, as REST does.
"""

import logging

import strawberry
from graphql import GraphQLError, GraphQLSyntaxError
from graphql.validation.validate import ValidationAbortedError
from strawberry.extensions import MaskErrors, ParserCache

from service.game.errors import GameError
from service.i18n import validation
from service.i18n.message import _
from service.i18n.render import render

log = logging.getLogger("rulekeeper.errors")

INTERNAL = _("the service failed; this is a bug and has been logged")
# Errors graphql-core words (validation rules, the parser): translated through service/i18n/validation.py.
LIBRARY_WORDED = ("graphql_validation_failed", "graphql_parse_failed")


def is_internal(error: GraphQLError) -> bool:
    """A bug: an exception in a resolver, or an uncoded error while executing (it has a path: a resolved value
    the schema does not allow, such as "Expected Iterable"). The client's own faults are found before
    execution (parse, validation, variables: no path) or raised on purpose with a code."""
    if (error.extensions or {}).get("code"):
        return False
    original = error.original_error
    if original is not None and not isinstance(original, (GraphQLError, GameError)):
        return True
    return error.path is not None and not isinstance(original, GameError)


def _code(error: GraphQLError) -> str:
    if is_internal(error):
        return "internal_error"
    if isinstance(error, GraphQLSyntaxError) or isinstance(error.original_error, GraphQLSyntaxError):
        # MaxTokensLimiter aborts the parse with a syntax error of its own.
        return "query_too_large" if "tokens" in error.message else "graphql_parse_failed"
    if isinstance(error, ValidationAbortedError):  # a validation budget ran out (see graphql/limits.py)
        return "query_too_complex"
    return "graphql_validation_failed"


class ErrorCodes(MaskErrors):
    """MaskErrors' hooks (every result, streamed ones too), used to give each uncoded error its code."""

    def __init__(self) -> None:
        super().__init__(should_mask_error=lambda e: not (e.extensions or {}).get("code"), error_message=INTERNAL)

    def _process_errors(self, errors: list[GraphQLError]) -> list[GraphQLError]:
        """Every message in the request's language. Rendered here, on every result, because a validation
        error comes out of the validation cache (graphql/validated.py) as it was first made, whoever asked first."""
        return [self.anonymise_error(e) if self.should_mask_error(e) else self.translated(e) for e in errors]

    @staticmethod
    def translated(error: GraphQLError) -> GraphQLError:
        message = render(error.message)
        if message == error.message:
            return error
        return GraphQLError(
            message,
            nodes=error.nodes,
            source=error.source,
            positions=error.positions,
            path=error.path,
            original_error=error.original_error,
            extensions=error.extensions,
        )

    def anonymise_error(self, error: GraphQLError) -> GraphQLError:
        code = _code(error)
        message: str
        if code == "internal_error":
            message = INTERNAL
        elif code in LIBRARY_WORDED:
            message = validation.graphql_message(error.message)
        else:
            message = error.message
        return GraphQLError(
            render(message),
            nodes=error.nodes,
            source=error.source,
            positions=error.positions,
            path=error.path,
            original_error=None,
            extensions={**(error.extensions or {}), "code": code},
        )


class ParserCacheReportingErrors(ParserCache):
    """ParserCache parses inside its hook, where a syntax error escapes every extension (ErrorCodes
    included) and reaches the client without a code. On an error this leaves the document unset:
    strawberry then parses again inside its own error handling, and the error takes the normal path."""

    def on_parse(self):
        ctx = self.execution_context
        try:
            ctx.graphql_document = self.cached_parse_document(ctx.query, **ctx.parse_options)
        except GraphQLError:
            pass
        yield


class Schema(strawberry.Schema):
    def process_errors(self, errors, execution_context=None) -> None:
        """Log the bugs with their tracebacks; refused requests are the client's news, not the log's."""
        for error in errors:
            if is_internal(error):
                log.error(
                    "unhandled error in GraphQL at %s: %s",
                    ".".join(map(str, error.path or [])) or "-",
                    error.message,
                    exc_info=error.original_error,
                )

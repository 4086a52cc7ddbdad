"""Texts the service passes on from its libraries (Starlette's status phrases, strawberry's refusals of a
malformed GraphQL request): marked here so the catalogues carry them, and translated where they are rendered
as plain text (service.i18n.render)."""

from service.i18n.message import N_

PHRASES = (
    N_("Not Found"),
    N_("Method Not Allowed"),
    N_("No GraphQL query found in the request"),
    N_("Unable to parse request body as JSON"),
    N_("Unsupported content type"),
    N_("GraphQL only supports GET and POST requests."),
    N_("Batching is not enabled"),
    N_("Too many operations"),
)

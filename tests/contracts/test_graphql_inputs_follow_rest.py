"""Each mutation's `input` is made from its REST operation (issue "one source per contract"): the ids REST takes
in the path, then every field of the REST body's model, so a field added to a request model cannot be missing
from GraphQL. A field GraphQL leaves out is named here, with the reason."""

from __future__ import annotations

import re

import pytest
from graphql import GraphQLInputObjectType, GraphQLNonNull, GraphQLScalarType, Undefined

from service.api.graphql.generate import camel
from service.api.graphql.schema import schema
from service.api.rest.operations import OPERATIONS
from service.game.webhooks.endpoints import SecretRotation

MUTATIONS = schema._schema.mutation_type.fields
# REST's name where GraphQL's differs.
RENAMED = {"postAction": "act"}
# Body fields GraphQL leaves out, by mutation.
SKIPPED = {"act": {"system"}}  # the field of ActionInput that is set names the system
# What GraphQL carries beside the path and the body, by mutation.
EXTRA = {"act": {"ifMatch"}}  # REST's If-Match header
# A REST operation that reads its parameters from the query string: their model.
QUERY_MODELS = {"rotateWebhookSecret": SecretRotation}
WRITES = [op for op in OPERATIONS if op.method != "GET" and op.system is None]


def lower_camel(name: str) -> str:
    out = camel(name)
    return out[:1].lower() + out[1:]


def input_of(mutation: str) -> GraphQLInputObjectType:
    assert mutation in MUTATIONS, f"no GraphQL mutation {mutation}"
    tp = MUTATIONS[mutation].args["input"].type
    assert isinstance(tp, GraphQLNonNull) and isinstance(tp.of_type, GraphQLInputObjectType)
    return tp.of_type


@pytest.mark.parametrize("op", WRITES, ids=lambda op: op.operation_id)
def test_a_mutation_s_input_has_the_rest_path_ids_and_every_body_field(op):
    mutation = RENAMED.get(op.operation_id, op.operation_id)
    gql = input_of(mutation)
    ids = [lower_camel(name) for name in re.findall(r"{(\w+)}", op.path)]
    for name in ids:
        assert name in gql.fields, f"{gql.name} lacks the path's {name}"
        assert str(gql.fields[name].type) == "ID!", (gql.name, name)
    if op.operation_id == "importCampaign":
        # The body is the document itself, which GraphQL takes as one scalar.
        (field,) = gql.fields.values()
        assert isinstance(field.type, GraphQLNonNull) and isinstance(field.type.of_type, GraphQLScalarType)
        assert field.type.of_type.name == "CampaignDocument"
        return
    model = op.request or QUERY_MODELS.get(op.operation_id)
    if op.operation_id in QUERY_MODELS:
        assert [q[0] for q in op.query] == list(model.model_fields)
    origin = gql.extensions["strawberry-definition"].origin
    assert getattr(origin, "body_model", None) is model, f"{gql.name} is not made from {model}"
    body = set() if model is None else set(model.model_fields)
    skipped = SKIPPED.get(mutation, set())
    assert set(origin.skipped) == skipped, f"{gql.name} leaves out {origin.skipped}, this test names {skipped}"
    missing = {name for name in body - skipped if lower_camel(name) not in gql.fields}
    assert not missing, f"{gql.name} lacks {sorted(missing)} of {model.__name__}"
    expected = set(ids) | {lower_camel(name) for name in body - skipped} | EXTRA.get(mutation, set())
    assert set(gql.fields) == expected


@pytest.mark.parametrize("op", WRITES, ids=lambda op: op.operation_id)
def test_a_required_body_field_is_required_and_an_optional_one_may_be_omitted(op):
    model = op.request or QUERY_MODELS.get(op.operation_id)
    if model is None or op.operation_id == "importCampaign":
        return
    gql = input_of(RENAMED.get(op.operation_id, op.operation_id))
    for name, info in model.model_fields.items():
        field = gql.fields.get(lower_camel(name))
        if field is None:
            continue
        defaulted = field.default_value is not Undefined
        if info.is_required():
            assert not defaulted, f"{gql.name}.{name} is required on REST but has a default on GraphQL"
        else:
            assert defaulted or not isinstance(field.type, GraphQLNonNull), (
                f"{gql.name}.{name} has a default on REST but must be sent on GraphQL"
            )


def test_every_mutation_stands_for_a_rest_operation():
    covered = {RENAMED.get(op.operation_id, op.operation_id) for op in WRITES}
    assert set(MUTATIONS) == covered

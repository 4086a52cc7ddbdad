import io
import json

import httpx
import pytest

from service.dice.verifiable import VerifiableDice, commitment, new_seed
from service.dice.verify_cli import run_verify


@pytest.fixture
def document():
    seed = new_seed()
    dice = VerifiableDice(seed, "cli table")
    for sides in (10, 10, 10, 6):
        dice.roll(sides)
    return {
        "seed": seed,
        "commitment": commitment(seed),
        "client_seed": "cli table",
        "rolls": [{"seq": r.seq, "sides": r.sides, "face": r.face} for r in dice.rolled],
        "campaign": "ignored",
    }


def run(argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    code = run_verify(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path, doc):
    path = tmp_path / "session.json"
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    return str(path)


def test_cli_exits_0_on_a_good_document(tmp_path, document):
    code, out, _ = run([write(tmp_path, document)])
    assert code == 0
    assert "dice checked: 4" in out and "commitment:   ok" in out and "OK" in out


def test_cli_exits_1_on_a_tampered_face(tmp_path, document):
    document["rolls"][1]["face"] = document["rolls"][1]["face"] % 10 + 1
    code, out, _ = run([write(tmp_path, document)])
    assert code == 1
    assert "mismatch:     seq 1: d10 shows" in out and "FAILED" in out


def test_cli_exits_1_on_a_gap_and_names_it(tmp_path, document):
    del document["rolls"][1:3]
    code, out, _ = run([write(tmp_path, document)])
    assert code == 1 and "2 seq missing: 1-2" in out


def test_cli_exits_1_on_a_bad_commitment(tmp_path, document):
    document["commitment"] = "ab" * 32
    code, out, _ = run([write(tmp_path, document)])
    assert code == 1 and "DOES NOT MATCH" in out


def test_cli_reads_stdin_and_prints_json(document):
    code, out, _ = run(["-", "--json"], stdin=json.dumps(document))
    report = json.loads(out)
    assert code == 0 and report["ok"] is True and report["count"] == 4


@pytest.mark.parametrize("content", ["not json", "[]", json.dumps({"seed": "xyz", "commitment": "", "rolls": []})])
def test_cli_exits_2_when_the_document_cannot_be_read(tmp_path, content):
    code, out, err = run([write(tmp_path, content)])
    assert code == 2 and out == "" and "cannot verify" in err


def test_cli_exits_2_on_a_missing_file(tmp_path):
    assert run([str(tmp_path / "nope.json")])[0] == 2


def test_cli_fetches_the_document_with_url(document):
    seen = []

    def handler(request):
        seen.append(str(request.url))
        return httpx.Response(200, json=document)

    out = io.StringIO()
    code = run_verify(
        ["--url", "http://rulekeeper.test/sessions/1"], stdout=out, transport=httpx.MockTransport(handler)
    )
    assert code == 0 and seen == ["http://rulekeeper.test/sessions/1"]


def test_cli_exits_2_when_the_service_answers_an_error():
    transport = httpx.MockTransport(lambda request: httpx.Response(404))
    err = io.StringIO()
    assert run_verify(["--url", "http://rulekeeper.test/x"], stderr=err, transport=transport) == 2


def test_cli_needs_a_document_or_a_url():
    assert run([])[0] == 2

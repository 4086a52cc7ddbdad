"""deploy/ can be applied as it is: every kustomization renders (with kubectl's own kustomize), every object
it renders is valid against the Kubernetes schemas, checkov's policies pass (deploy/.checkov.yaml says why
each skipped one is skipped), and what a platform review asks for is there: restrictive security contexts,
probes, graceful termination, a pinned image, a migration Job per release, and no example Secret applied."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from servers import in_ci

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
KUSTOMIZATIONS = ["k8s", "k8s/migrate", "overlays/example", "overlays/example/migrate"]
# The oldest Kubernetes still commonly run, and the newest the validator knows.
KUBERNETES_VERSIONS = ["1.31.0", "1.37.0"]


def tool(name: str, *candidates: Path) -> str:
    """A tool from the test environment; missing, it skips locally and fails under CI (which installs it)."""
    for path in (*candidates, Path(sys.executable).with_name(name)):
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    found = shutil.which(name)
    if found:
        return found
    message = f"{name} is not installed (.ci/run installs it)"
    if in_ci():
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def render(directory: str) -> list[dict]:
    out = subprocess.run(
        [tool("kubectl"), "kustomize", str(DEPLOY / directory)], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return [doc for doc in yaml.safe_load_all(out.stdout) if doc]


@pytest.fixture(scope="module")
def rendered() -> dict[str, list[dict]]:
    return {d: render(d) for d in KUSTOMIZATIONS}


def of_kind(docs: list[dict], kind: str) -> list[dict]:
    return [d for d in docs if d["kind"] == kind]


def pod_specs(docs: list[dict]) -> list[tuple[str, dict]]:
    return [
        (f"{d['kind']}/{d['metadata']['name']}", d["spec"]["template"]["spec"])
        for d in docs
        if d["kind"] in ("Deployment", "Job")
    ]


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_rendered_object_is_valid_against_the_kubernetes_schemas(rendered, version):
    import jsonschema
    import kubernetes_validate

    invalid = []
    for directory, docs in rendered.items():
        assert docs, directory
        for doc in docs:
            try:
                kubernetes_validate.validate(doc, version, strict=True)
            except jsonschema.ValidationError as exc:  # kubernetes_validate's own is a subclass
                invalid.append(
                    f"{directory}: {doc['kind']}/{doc['metadata']['name']}: {exc.message} "
                    f"at {'.'.join(map(str, exc.path))}"
                )
    assert invalid == []


def test_checkov_policies_pass_on_what_the_overlays_render_and_on_the_dockerfile(rendered, tmp_path):
    checkov = tool("checkov", ROOT / ".venv-checkov" / "bin" / "checkov")
    docs = rendered["overlays/example"] + rendered["overlays/example/migrate"]
    (tmp_path / "rendered.yaml").write_text(yaml.safe_dump_all(docs))
    shutil.copy(DEPLOY / "Dockerfile", tmp_path / "Dockerfile")
    out = subprocess.run(
        [checkov, "--directory", str(tmp_path), "--config-file", str(DEPLOY / ".checkov.yaml"), "--output", "json"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    reports = json.loads(out.stdout)
    reports = reports if isinstance(reports, list) else [reports]
    assert {r["check_type"] for r in reports} == {"kubernetes", "dockerfile"}, out.stdout[:500]
    failed = [
        f"{c['check_id']} {c['check_name']} ({c['resource']})" for r in reports for c in r["results"]["failed_checks"]
    ]
    assert failed == [], failed
    assert all(r["summary"]["passed"] > 0 for r in reports)
    assert out.returncode == 0, out.stderr[-2000:]


def test_every_skipped_policy_check_has_its_reason_written_above_it():
    lines = (DEPLOY / ".checkov.yaml").read_text().splitlines()
    skips = [i for i, line in enumerate(lines) if re.match(r"\s*- CKV", line)]
    assert skips
    for i in skips:
        assert lines[i - 1].strip().startswith("#"), f"{lines[i].strip()} is skipped without a reason"


def test_every_container_runs_unprivileged_on_a_read_only_root_with_a_writable_tmp(rendered):
    for directory in ("overlays/example", "overlays/example/migrate"):
        for name, spec in pod_specs(rendered[directory]):
            assert spec["automountServiceAccountToken"] is False, name
            assert spec["securityContext"]["runAsNonRoot"] is True, name
            assert spec["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}, name
            tmp = {v["name"] for v in spec["volumes"] if "emptyDir" in v}
            for c in spec["containers"]:
                sc = c["securityContext"]
                assert sc["allowPrivilegeEscalation"] is False and sc["readOnlyRootFilesystem"] is True, name
                assert sc["capabilities"] == {"drop": ["ALL"]} and sc["runAsUser"] >= 10000, name
                assert sc["seccompProfile"] == {"type": "RuntimeDefault"}, name
                assert any(m["mountPath"] == "/tmp" and m["name"] in tmp for m in c["volumeMounts"]), name
                assert c["resources"]["requests"] and c["resources"]["limits"]["memory"], name


def test_the_service_has_startup_readiness_liveness_and_a_graceful_stop(rendered):
    (deployment,) = of_kind(rendered["overlays/example"], "Deployment")
    spec = deployment["spec"]["template"]["spec"]
    (c,) = spec["containers"]
    assert c["startupProbe"]["httpGet"]["path"] == "/healthz"
    assert c["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert c["readinessProbe"]["httpGet"]["path"] == "/readyz"
    pause = int(c["lifecycle"]["preStop"]["exec"]["command"][-1])
    (config,) = of_kind(rendered["overlays/example"], "ConfigMap")
    drain = int(config["data"]["RULEKEEPER_GRACEFUL_SHUTDOWN_SECONDS"])
    assert spec["terminationGracePeriodSeconds"] > pause + drain
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    assert config["data"]["RULEKEEPER_AUTO_MIGRATE"] == "false"


def test_the_overlay_pins_one_release_for_the_service_and_its_migration_job(rendered):
    images = {
        c["image"]
        for directory in KUSTOMIZATIONS
        for _, spec in pod_specs(rendered[directory])
        for c in spec["containers"]
    }
    assert not [i for i in images if i.endswith(":latest") or ":" not in i.rsplit("/", 1)[-1]], images
    service = {c["image"] for _, s in pod_specs(rendered["overlays/example"]) for c in s["containers"]}
    job = {c["image"] for _, s in pod_specs(rendered["overlays/example/migrate"]) for c in s["containers"]}
    assert len(service) == 1 and service == job
    tag = service.pop().rsplit(":", 1)[1]
    (hpa,) = of_kind(rendered["overlays/example"], "HorizontalPodAutoscaler")
    assert hpa["spec"]["minReplicas"] >= 2
    assert of_kind(rendered["overlays/example"], "NetworkPolicy")
    # One Job per release, named after it, that cleans up after itself.
    (migrate,) = of_kind(rendered["overlays/example/migrate"], "Job")
    assert migrate["metadata"]["name"].endswith("-" + tag.replace(".", "-"))
    assert migrate["spec"]["ttlSecondsAfterFinished"] > 0 and migrate["spec"]["backoffLimit"] >= 1
    assert migrate["spec"]["template"]["spec"]["containers"][0]["args"] == ["migrate"]
    assert of_kind(rendered["overlays/example/migrate"], "NetworkPolicy")


def test_no_kustomization_applies_a_secret_and_the_example_lies_outside_them(rendered):
    for directory, docs in rendered.items():
        assert not of_kind(docs, "Secret"), directory
        assert "CHANGE-ME" not in yaml.safe_dump_all(docs), directory
    example = DEPLOY / "secret.example.yaml"
    assert yaml.safe_load(example.read_text())["kind"] == "Secret"
    assert not any(DEPLOY / d in example.parents for d in KUSTOMIZATIONS)


def test_the_image_installs_only_a_wheel_in_a_final_stage_without_build_tools():
    text = (DEPLOY / "Dockerfile").read_text()
    stages = re.split(r"^FROM ", text, flags=re.M)[1:]
    assert len(stages) == 2, "a build stage and a final stage"
    final = stages[-1]
    assert re.search(r"^USER 10001", final, flags=re.M)
    assert re.search(r"^HEALTHCHECK .*?/healthz", final, flags=re.M | re.S)
    assert "pip install --no-index --find-links /wheels rulekeeper" in final
    assert not re.search(r"apt-get|gcc|build-essential|-e \.|COPY service|COPY alembic", final)
    assert "pip wheel" in stages[0] and "constraints.txt" in stages[0]
    # The build context is the repository root: only what the build stage copies goes in.
    allowed = {
        line[1:].rstrip("/")
        for line in (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
        if line.startswith("!")
    }
    copied = {p for line in re.findall(r"^COPY (?!--from)(.+) \S+$", stages[0], flags=re.M) for p in line.split()}
    assert copied == allowed, (copied, allowed)

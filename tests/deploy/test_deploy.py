"""deploy/ checked as far as this machine allows (no Docker engine, no Kubernetes): every
file is documented, the manifests validate against the Kubernetes schemas, the compose
file is consistent, and the rules and dashboard only name metrics the worker exports."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from contraflow.streams.runtime.observability.metrics import WorkerMetrics
from contraflow.streams.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
OPERATIONS = (ROOT / "docs" / "operations.md").read_text()
K8S_VERSION = "1.30.0"


def deploy_files() -> list[Path]:
    return sorted(p for p in DEPLOY.rglob("*") if p.is_file())


def exported_metric_names() -> set[str]:
    """Every sample name the worker's registry can produce (with _total, _bucket, ...)."""
    names = set()
    for family in WorkerMetrics().registry.collect():
        names.add(family.name)
        names.update(sample.name for sample in family.samples)
        if family.type == "counter":
            names.add(f"{family.name}_total")
        if family.type == "histogram":
            names.update(f"{family.name}_{suffix}" for suffix in ("bucket", "sum", "count"))
    return names


def metric_names_in(expression: str) -> set[str]:
    return set(re.findall(r"\bcontraflow_[a-z_]+", expression))


@pytest.mark.parametrize("path", deploy_files(), ids=lambda p: str(p.relative_to(DEPLOY)))
def test_every_deploy_file_is_referenced_from_the_operations_page(path: Path) -> None:
    assert f"deploy/{path.relative_to(DEPLOY)}" in OPERATIONS


@pytest.mark.parametrize("path", sorted((DEPLOY / "k8s").glob("*.yaml")), ids=lambda p: p.name)
def test_kubernetes_manifests_validate_strictly(path: Path) -> None:
    documents = [d for d in yaml.safe_load_all(path.read_text()) if d]
    assert documents
    for document in documents:
        kubernetes_validate.validate(document, K8S_VERSION, strict=True)
        for container in document.get("spec", {}).get("template", {}).get("spec", {}).get("containers", []):
            for variable in container.get("env", []):
                check_setting_variable(variable["name"], variable["value"])


def check_setting_variable(name: str, value: str) -> None:
    """A CONTRAFLOW_* variable names a real setting, and its value parses."""
    assert name.startswith("CONTRAFLOW_")
    field = name.removeprefix("CONTRAFLOW_").lower()
    assert field in Settings.model_fields, f"{name} is not a setting"
    Settings.model_validate({field: json.loads(value) if value.startswith("[") else value})


def test_config_map_names_only_real_settings() -> None:
    config = next(yaml.safe_load_all((DEPLOY / "k8s" / "config.yaml").read_text()))
    for name, value in config["data"].items():
        if name.startswith("CONTRAFLOW_"):
            check_setting_variable(name, value)


def test_compose_file_is_consistent() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert {"kafka", "weaviate", "prometheus", "grafana"} <= set(services)
    assert "controller" in services["kafka"]["environment"]["KAFKA_PROCESS_ROLES"]  # KRaft, no ZooKeeper
    workers = {name: s for name, s in services.items() if "build" in s}
    assert {name for name in workers} == {"turns", "knowledge", "rates"}
    for name, service in services.items():
        assert "image" in service or "build" in service, name
        assert set(service.get("depends_on", {})) <= set(services), name
        for variable, value in service.get("environment", {}).items():
            if variable.startswith("CONTRAFLOW_"):
                check_setting_variable(variable, str(value))
    for worker in workers.values():
        assert (DEPLOY / worker["build"]["context"] / worker["build"]["dockerfile"]).resolve().is_file()
    for service in ("prometheus", "grafana"):
        for volume in services[service]["volumes"]:
            assert (DEPLOY / volume.split(":")[0]).is_file()
    mounted = {volume.split(":")[1] for volume in services["grafana"]["volumes"]}
    provider = yaml.safe_load((DEPLOY / "grafana" / "provisioning" / "dashboards" / "contraflow.yaml").read_text())
    assert any(m.startswith(provider["providers"][0]["options"]["path"]) and m.endswith(".json") for m in mounted)
    for name, service in services.items():  # a dependency is waited for until it is healthy, and can say so
        for needed, how in service.get("depends_on", {}).items():
            assert how["condition"] == "service_healthy" and "healthcheck" in services[needed], (name, needed)
    scrape = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    targets = {t.split(":")[0] for c in scrape["scrape_configs"] for s in c["static_configs"] for t in s["targets"]}
    assert targets == set(workers)


def test_alert_rules_and_dashboard_name_only_exported_metrics() -> None:
    exported = exported_metric_names()
    rules = yaml.safe_load((DEPLOY / "prometheus" / "rules.yml").read_text())
    expressions = [rule["expr"] for group in rules["groups"] for rule in group["rules"]]
    for rule in (rule for group in rules["groups"] for rule in group["rules"]):
        assert {"alert", "expr", "labels", "annotations"} <= set(rule)
    dashboard = json.loads((DEPLOY / "grafana" / "contraflow-dashboard.json").read_text())
    expressions += [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    named = set().union(*(metric_names_in(e) for e in expressions))
    assert named, "no contraflow metric is used"
    assert named <= exported, f"not exported by the worker: {named - exported}"


@pytest.mark.parametrize("dockerfile", ["Dockerfile", "Dockerfile.cuda"])
def test_images_install_the_package_as_the_readme_does(dockerfile: str) -> None:
    text = (DEPLOY / dockerfile).read_text()
    assert re.search(r"pip install [^\n]*-e '?\.", text)
    assert "COPY pyproject.toml setup.py README.md ./" in text
    for folder in installed_folders():
        assert f"COPY {folder} ./{folder}" in text, f"{dockerfile} does not copy {folder}"


def installed_folders() -> tuple[str, ...]:
    """The folders setup.py installs as contraflow.* (its FOLDERS)."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    [value] = [node.value for node in tree.body if isinstance(node, ast.Assign) and node.targets[0].id == "FOLDERS"]
    return ast.literal_eval(value)

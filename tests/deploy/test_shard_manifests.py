"""deploy/k8s/components/query-shards: query replicas sharded by repository (deploy/SCALING.md).

The component is rendered the way an operator uses it, in an overlay of its own over dev and
over prod (namespace, `resources: [../prod]`, `components: [...]`), validated offline with
kubeconform -strict, and checked against the code: every query container's settings pass
Settings (shard K/S, the URL of each shard), the shards are exactly 0..S-1, the URL of shard k
reaches a Service that selects shard k's pods and no other's, the front-door Service keeps
every shard's pods, and replicas may reach each other to forward.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from query_api.settings import Settings
from streams.runtime.shards import ShardAssignment
from tests.deploy import k8s_tools
from tests.deploy.conftest import K8S
from tests.deploy.test_manifests import WORKLOADS, Doc, container_env, of_kind, pod_spec

COMPONENT = K8S / "components" / "query-shards"
QUERY = {"app.kubernetes.io/name": "repocontext", "app.kubernetes.io/component": "query"}


def sharded_overlay(kustomize: Path, tmp: Path, over: str, namespace: str, extra: str = "") -> str:
    """`kustomize build` of an overlay that adds the component to overlays/<over> (`extra`:
    more of the overlay's kustomization.yaml)."""
    overlay = tmp / f"{over}-sharded"
    overlay.mkdir()
    (overlay / "kustomization.yaml").write_text(
        "apiVersion: kustomize.config.k8s.io/v1beta1\n"
        "kind: Kustomization\n"
        f"namespace: {namespace}\n"
        f"resources:\n  - {os.path.relpath(K8S / 'overlays' / over, overlay)}\n"
        f"components:\n  - {os.path.relpath(COMPONENT, overlay)}\n" + extra
    )
    return k8s_tools.kustomize_build(kustomize, overlay)


@pytest.fixture(scope="module")
def rendered(kustomize: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("shards")
    return {
        "dev": sharded_overlay(kustomize, tmp, "dev", "repocontext-dev"),
        "prod": sharded_overlay(kustomize, tmp, "prod", "repocontext"),
    }


def docs_of(text: str) -> list[Doc]:
    return [d for d in k8s_tools.yaml.safe_load_all(text) if d]


def selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return selector.items() <= labels.items()


@pytest.mark.parametrize("k8s_version", k8s_tools.KUBERNETES_VERSIONS)
@pytest.mark.parametrize("over", ["dev", "prod"])
def test_the_sharded_overlays_validate_offline(
    over: str, k8s_version: str, rendered: dict[str, str], kubeconform_bin: Path
) -> None:
    docs = docs_of(rendered[over])
    locations = k8s_tools.schema_registry({(d["apiVersion"], d["kind"]) for d in docs})
    report = k8s_tools.kubeconform(kubeconform_bin, rendered[over], k8s_version, locations)
    summary = report["summary"]
    assert summary["valid"] == len(docs), summary
    assert (summary["invalid"], summary["errors"], summary["skipped"]) == (0, 0, 0), summary


def query_shards(docs: list[Doc]) -> dict[int, tuple[Doc, Settings]]:
    """Each query StatefulSet's shard index -> (the StatefulSet, its container's Settings)."""
    config_maps = {d["metadata"]["name"]: d.get("data", {}) for d in of_kind(docs, "ConfigMap")}
    out: dict[int, tuple[Doc, Settings]] = {}
    for doc in (d for d in docs if d["kind"] in WORKLOADS):
        labels = doc["spec"]["template"]["metadata"]["labels"]
        if not selects(QUERY, labels):
            continue
        (main,) = pod_spec(doc)["containers"]
        env = container_env(main, config_maps)
        fields: dict[str, Any] = {
            k.removeprefix("REPOCONTEXT_").lower(): v
            for k, v in env.items()
            if k in ("REPOCONTEXT_REPLICA_SHARD", "REPOCONTEXT_SHARD_URLS")
        }
        settings = Settings(**fields)  # the real validation: K/S, one URL per shard
        shard = settings.shard()
        assert shard.count == 2 and shard.index not in out, doc["metadata"]["name"]
        assert labels["repocontext/shard"] == str(shard.index)
        assert doc["spec"]["selector"]["matchLabels"]["repocontext/shard"] == str(shard.index)
        out[shard.index] = (doc, settings)
    return out


@pytest.mark.parametrize("over", ["dev", "prod"])
def test_each_shard_forwards_to_a_service_of_exactly_that_shard(
    over: str, rendered: dict[str, str]
) -> None:
    docs = docs_of(rendered[over])
    shards = query_shards(docs)
    assert sorted(shards) == [0, 1]
    pod_labels = {
        k: doc["spec"]["template"]["metadata"]["labels"] for k, (doc, _) in shards.items()
    }
    services = {d["metadata"]["name"]: d for d in of_kind(docs, "Service")}
    for k, (doc, settings) in shards.items():
        # every replica knows where every shard answers
        for owner in shards:
            url = urlsplit(settings.shard_url(owner) or "")
            service = services[str(url.hostname)]
            assert url.port in {p["port"] for p in service["spec"]["ports"]}
            assert url.path == "/mcp"
            chosen = {
                j
                for j, labels in pod_labels.items()
                if selects(service["spec"]["selector"], labels)
            }
            assert chosen == {owner}, (service["metadata"]["name"], chosen)
        # its own pods: a disruption budget of the shard's own, a group per pod
        budgets = [
            b
            for b in of_kind(docs, "PodDisruptionBudget")
            if selects(b["spec"]["selector"]["matchLabels"], pod_labels[k])
        ]
        assert len(budgets) == 1, [b["metadata"]["name"] for b in budgets]
        (main,) = pod_spec(doc)["containers"]
        (rid,) = [e for e in main["env"] if e["name"] == "REPOCONTEXT_REPLICA_ID"]
        assert rid["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name"
    # the front door keeps serving every shard's pods (a wrong one forwards)
    front = services["repocontext-query"]
    assert all(selects(front["spec"]["selector"], labels) for labels in pod_labels.values())
    assert {d["metadata"].get("namespace") for d in docs if d["kind"] != "Namespace"} == {
        "repocontext-dev" if over == "dev" else "repocontext"
    }


@pytest.mark.parametrize("over", ["dev", "prod"])
def test_shards_share_the_image_and_may_reach_each_other(
    over: str, rendered: dict[str, str]
) -> None:
    docs = docs_of(rendered[over])
    shards = query_shards(docs)
    images = {c["image"] for doc, _ in shards.values() for c in pod_spec(doc)["containers"]}
    images |= {c["image"] for doc, _ in shards.values() for c in pod_spec(doc)["initContainers"]}
    assert len(images) == 1 and next(iter(images)).startswith("repocontext:"), images
    labels = shards[0][0]["spec"]["template"]["metadata"]["labels"]
    forwarding = [
        p
        for p in of_kind(docs, "NetworkPolicy")
        if "Egress" in p["spec"]["policyTypes"]
        and selects(p["spec"]["podSelector"].get("matchLabels", {"-": "-"}), labels)
        for rule in p["spec"].get("egress", [])
        for peer in rule.get("to", [])
        if selects(peer.get("podSelector", {}).get("matchLabels", {"-": "-"}), labels)
        and {"port": 8080, "protocol": "TCP"} in rule["ports"]
    ]
    assert forwarding, "no NetworkPolicy lets a replica reach another shard's replicas on 8080"


SHARD_SETTINGS = ("REPOCONTEXT_REPLICA_SHARD", "REPOCONTEXT_SHARD_URLS")


def without_shard_identity(doc: Doc) -> Doc:
    """A query StatefulSet or PodDisruptionBudget less what makes it one shard: its name,
    governing Service, shard label and shard settings."""
    spec = copy.deepcopy(doc["spec"])
    spec.pop("serviceName", None)
    spec["selector"]["matchLabels"].pop("repocontext/shard", None)
    if "template" in spec:
        spec["template"]["metadata"]["labels"].pop("repocontext/shard", None)
        for container in spec["template"]["spec"]["containers"]:
            env = [e for e in container.get("env", []) if e["name"] not in SHARD_SETTINGS]
            container["env"] = env
    labels = {
        k: v for k, v in doc["metadata"].get("labels", {}).items() if k != "repocontext/shard"
    }
    return {"metadata": {**doc["metadata"], "name": None, "labels": labels}, "spec": spec}


@pytest.mark.parametrize("over", ["dev", "prod"])
@pytest.mark.parametrize("kind", ["StatefulSet", "PodDisruptionBudget"])
def test_every_shard_gets_the_environment_overlays_patches(
    over: str, kind: str, rendered: dict[str, str], documents: dict[str, list[Doc]]
) -> None:
    """Each shard is the environment overlay's query replicas (prod: 3 replicas, larger
    resources and volumes, spread over nodes) with only its shard identity changed."""
    (unsharded,) = [
        d for d in of_kind(documents[over], kind) if d["metadata"]["name"] == "repocontext-query"
    ]
    shards = [
        d
        for d in of_kind(docs_of(rendered[over]), kind)
        if d["metadata"]["name"].startswith("repocontext-query")
    ]
    assert sorted(d["metadata"]["name"] for d in shards) == [
        "repocontext-query",
        "repocontext-query-shard-1",
    ]
    for shard in shards:
        assert without_shard_identity(shard) == without_shard_identity(unsharded), shard[
            "metadata"
        ]["name"]


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("name: 'repocontext-query.*'", {"repocontext-query": 5, "repocontext-query-shard-1": 5}),
        (
            "labelSelector: 'app.kubernetes.io/component=query'",
            {"repocontext-query": 5, "repocontext-query-shard-1": 5},
        ),
        (
            "labelSelector: 'app.kubernetes.io/component=query,repocontext/shard=1'",
            {"repocontext-query": 3, "repocontext-query-shard-1": 5},
        ),
    ],
)
def test_a_patch_in_the_sharded_overlay_reaches_the_shards_it_targets(
    target: str, expected: dict[str, int], kustomize: Path, tmp_path: Path
) -> None:
    """The sharded overlay's own patches run after the component; the targets that
    deploy/DISTRIBUTED.md gives (a name pattern, the query label, one shard's label) reach
    every shard or exactly the one."""
    extra = (
        "patches:\n"
        f"  - target: {{kind: StatefulSet, {target}}}\n"
        "    patch: |\n"
        "      - {op: replace, path: /spec/replicas, value: 5}\n"
    )
    docs = docs_of(sharded_overlay(kustomize, tmp_path, "prod", "repocontext", extra))
    replicas = {
        d["metadata"]["name"]: d["spec"]["replicas"]
        for d in of_kind(docs, "StatefulSet")
        if d["metadata"]["name"].startswith("repocontext-query")
    }
    assert replicas == expected


def test_the_component_keeps_the_shard_arithmetic_of_the_code() -> None:
    """S = 2 divides the record topics' partitions (the code refuses any S that does not)."""
    assert ShardAssignment.parse("1/2") == ShardAssignment(1, 2)

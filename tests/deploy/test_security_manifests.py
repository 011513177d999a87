"""The secured data plane in deploy/k8s (deploy/DISTRIBUTED.md, "Security"): Kafka users with the
ACLs of streams/component_acls.py, every process logged in as its own, a TLS+SCRAM listener
only, the Qdrant API key and git credentials from Secrets, NetworkPolicies, pinned images."""

from __future__ import annotations

import pytest

from streams.component_acls import component_access
from tests.deploy.conftest import OVERLAYS
from tests.deploy.test_manifests import (
    WORKLOADS,
    Doc,
    container_env,
    containers,
    of_kind,
    one,
    ours,
    pod_spec,
)

# the component each workload runs as (its KafkaUser is repocontext-<component>)
COMPONENT_OF = {
    "repocontext-worker": "worker",
    "repocontext-vectors": "vectors",
    "repocontext-query": "query",
    "repocontext-source-django": "git-source",
}


def workloads(docs: list[Doc]) -> list[Doc]:
    return [d for d in docs if d["kind"] in WORKLOADS]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_kafka_users_hold_exactly_the_derived_acls(
    overlay: str, documents: dict[str, list[Doc]]
) -> None:
    users = {u["metadata"]["name"]: u for u in of_kind(documents[overlay], "KafkaUser")}
    assert set(users) == {f"repocontext-{c.component}" for c in component_access()}
    for access in component_access():
        spec = users[f"repocontext-{access.component}"]["spec"]
        assert spec["authentication"] == {"type": "scram-sha-512"}
        assert spec["authorization"]["type"] == "simple"
        granted = {
            (a["resource"]["type"], a["resource"]["name"], a["resource"]["patternType"], op)
            for a in spec["authorization"]["acls"]
            for op in a["operations"]
        }
        derived = {(a.resource_type, a.name, a.pattern, a.operation) for a in access.acls()}
        assert granted == derived, access.component


def test_only_git_sources_write_code_and_only_replicas_write_memory_commands() -> None:
    """The rule of streams/component_acls.py, stated against the derived lists."""
    writes = {c.component: set(c.writes) for c in component_access()}
    assert {c for c, w in writes.items() if "repocontext.files.v1" in w} == {"git-source"}
    assert {c for c, w in writes.items() if "repocontext.memory.commands.v1" in w} == {"query"}
    assert {c for c, w in writes.items() if "repocontext.memory.v1" in w} == {"worker"}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_broker_takes_only_authenticated_tls_clients(
    overlay: str, documents: dict[str, list[Doc]]
) -> None:
    kafka = one(documents[overlay], "Kafka", "repocontext")["spec"]
    for listener in kafka["kafka"]["listeners"]:
        assert listener["tls"] is True, listener["name"]
        assert listener["authentication"]["type"] == "scram-sha-512", listener["name"]
        (peers,) = listener["networkPolicyPeers"]
        assert peers["podSelector"]["matchLabels"] == {"app.kubernetes.io/name": "repocontext"}
    assert kafka["kafka"]["authorization"]["type"] == "simple"
    assert "userOperator" in kafka["entityOperator"]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_process_logs_in_as_its_own_user_from_its_secret(
    overlay: str, documents: dict[str, list[Doc]]
) -> None:
    docs = documents[overlay]
    config_maps = {d["metadata"]["name"]: d.get("data", {}) for d in of_kind(docs, "ConfigMap")}
    seen = set()
    for doc in workloads(docs):
        name = doc["metadata"]["name"]
        volumes = {v["name"]: v for v in pod_spec(doc).get("volumes", [])}
        for c in (c for c in containers(doc) if ours(c)):
            env = container_env(c, config_maps)
            user = f"repocontext-{COMPONENT_OF[name]}"
            assert env["REPOCONTEXT_KAFKA_SASL_USERNAME"] == user, (name, c["name"])
            assert env["REPOCONTEXT_KAFKA_SASL_PASSWORD"] == f"{user}/password"
            assert env["REPOCONTEXT_KAFKA_SASL_MECHANISM"] == "SCRAM-SHA-512"
            ca_file = env["REPOCONTEXT_KAFKA_SSL_CA_FILE"]
            (mount,) = [m for m in c["volumeMounts"] if ca_file.startswith(m["mountPath"] + "/")]
            ca = volumes[mount["name"]]["secret"]
            assert ca["secretName"] == "repocontext-cluster-ca-cert"
            assert ca["items"] == [{"key": "ca.crt", "path": ca_file.rsplit("/", 1)[1]}]
            seen.add(COMPONENT_OF[name])
    assert seen == {c.component for c in component_access()}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_qdrant_and_its_clients_share_an_api_key_secret(
    overlay: str, documents: dict[str, list[Doc]]
) -> None:
    docs = documents[overlay]
    config_maps = {d["metadata"]["name"]: d.get("data", {}) for d in of_kind(docs, "ConfigMap")}
    (server,) = one(docs, "StatefulSet", "repocontext-qdrant")["spec"]["template"]["spec"][
        "containers"
    ]
    key = container_env(server, config_maps)["QDRANT__SERVICE__API_KEY"]
    for name in ("repocontext-query", "repocontext-vectors"):
        doc = next(d for d in workloads(docs) if d["metadata"]["name"] == name)
        (main,) = pod_spec(doc)["containers"]
        assert container_env(main, config_maps)["REPOCONTEXT_QDRANT_API_KEY"] == key, name
    secret_name = key.split("/")[0]
    if overlay == "dev":  # generated for a throwaway cluster; production creates its own
        assert any(s["metadata"]["name"] == secret_name for s in of_kind(docs, "Secret"))


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_git_credentials_come_from_an_optional_secret(
    overlay: str, documents: dict[str, list[Doc]]
) -> None:
    source = one(documents[overlay], "Deployment", "repocontext-source-")
    (main,) = pod_spec(source)["containers"]
    refs = {e["name"]: e["valueFrom"]["secretKeyRef"] for e in main["env"] if "valueFrom" in e}
    for var, key in (
        ("REPOCONTEXT_GIT_USERNAME", "username"),
        ("REPOCONTEXT_GIT_PASSWORD", "password"),
    ):
        assert refs[var]["key"] == key and refs[var]["optional"] is True
    assert all("@" not in a for a in main["args"])  # no credentials in the URL


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_network_policies_isolate_every_pod_and_admit_only_qdrants_clients(
    overlay: str, documents: dict[str, list[Doc]]
) -> None:
    policies = {
        p["metadata"]["name"]: p["spec"] for p in of_kind(documents[overlay], "NetworkPolicy")
    }
    deny = policies["repocontext-default-deny"]
    assert deny["policyTypes"] == ["Ingress", "Egress"] and "ingress" not in deny
    (expr,) = deny["podSelector"]["matchExpressions"]
    assert expr["key"] == "app.kubernetes.io/name" and set(expr["values"]) == {
        "repocontext",
        "qdrant",
    }
    pods = [d["spec"]["template"]["metadata"]["labels"] for d in workloads(documents[overlay])]
    assert all(labels["app.kubernetes.io/name"] in expr["values"] for labels in pods)
    (rule,) = policies["repocontext-qdrant-ingress"]["ingress"]
    (peer,) = rule["from"]
    assert set(peer["podSelector"]["matchExpressions"][0]["values"]) == {"query", "vectors"}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_image_is_pinned_by_tag(overlay: str, documents: dict[str, list[Doc]]) -> None:
    for doc in workloads(documents[overlay]):
        for c in containers(doc):
            _, _, tag = str(c["image"]).rpartition(":")
            assert ":" in c["image"] and tag and tag != "latest", (
                doc["metadata"]["name"],
                c["image"],
            )

"""deploy/k8s and skaffold.yaml: every overlay renders, validates offline against the Kubernetes
and Strimzi schemas, and agrees with the code it deploys (topic catalogue, settings, CLI,
image)."""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from query_api.access.auth import AuthConfigError, TokenTable
from query_api.settings import Settings
from repocontext import cli, commands
from schemas.topics import CATALOGUE
from streams.eventlog import compaction as cp
from streams.eventlog.kafka import kafka_topic_configs, parse_kafka_url
from tests.deploy import dockerfile, k8s_tools
from tests.deploy.conftest import K8S, OVERLAYS, ROOT

Doc = dict[str, Any]
WORKLOADS = ("Deployment", "StatefulSet")
IMAGE = "repocontext"  # the skaffold artifact and the name the manifests use


def of_kind(docs: list[Doc], kind: str) -> list[Doc]:
    return [d for d in docs if d["kind"] == kind]


def one(docs: list[Doc], kind: str, name_prefix: str) -> Doc:
    found = [d for d in of_kind(docs, kind) if d["metadata"]["name"].startswith(name_prefix)]
    assert len(found) == 1, f"{kind} {name_prefix}*: {[d['metadata']['name'] for d in found]}"
    return found[0]


def pod_spec(doc: Doc) -> Doc:
    spec: Doc = doc["spec"]["template"]["spec"]
    return spec


def containers(doc: Doc) -> list[Doc]:
    spec = pod_spec(doc)
    return [*spec.get("initContainers", []), *spec["containers"]]


def ours(container: Doc) -> bool:
    """Runs the repocontext image (at whatever tag the manifests pin)."""
    return str(container["image"]).split(":")[0] == IMAGE


def container_env(container: Doc, config_maps: dict[str, dict[str, str]]) -> dict[str, str]:
    """What a container's environment holds: its ConfigMaps, then its own entries, a Secret's
    value read as `<secret>/<key>` and a field reference as `<field>`."""
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        env.update(config_maps[source["configMapRef"]["name"]])  # must exist
    for item in container.get("env", []):
        ref = item.get("valueFrom", {})
        if "secretKeyRef" in ref:
            env[item["name"]] = f"{ref['secretKeyRef']['name']}/{ref['secretKeyRef']['key']}"
        elif "fieldRef" in ref:
            env[item["name"]] = ref["fieldRef"]["fieldPath"].replace(".", "-")
        else:
            env[item["name"]] = item["value"]
    return env


def image_stage() -> dockerfile.Stage:
    return dockerfile.stages(ROOT / "deploy" / "Dockerfile")[1][-1]


def test_dev_and_prod_overlays_exist() -> None:
    assert set(OVERLAYS) == {"dev", "prod"}


@pytest.mark.parametrize("k8s_version", k8s_tools.KUBERNETES_VERSIONS)
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_overlay_validates_against_the_schemas_offline(
    overlay: str,
    k8s_version: str,
    renders: dict[str, str],
    documents: dict[str, list[Doc]],
    kubeconform_bin: Path,
) -> None:
    docs = documents[overlay]
    kinds = {(d["apiVersion"], d["kind"]) for d in docs}
    locations = k8s_tools.schema_registry(kinds)
    report = k8s_tools.kubeconform(kubeconform_bin, renders[overlay], k8s_version, locations)
    summary = report["summary"]
    assert summary["valid"] == len(docs), summary
    assert (summary["invalid"], summary["errors"], summary["skipped"]) == (0, 0, 0), summary
    # the Strimzi and Prometheus Operator kinds were checked against the CRDs, not skipped
    assert {"Kafka", "KafkaNodePool", "KafkaTopic", "PodMonitor", "PrometheusRule"} <= {
        k for _, k in kinds
    }


def test_schema_validation_catches_a_typo(
    documents: dict[str, list[Doc]], kubeconform_bin: Path
) -> None:
    """The validation is not vacuous: a misspelt field in a KafkaTopic and in a Deployment
    each fail it."""
    docs = documents["dev"]
    topic = json.loads(json.dumps(of_kind(docs, "KafkaTopic")[0]))
    topic["spec"]["partition"] = topic["spec"].pop("partitions")
    deployment = json.loads(json.dumps(of_kind(docs, "Deployment")[0]))
    pod_spec(deployment)["containers"][0]["imagePulPolicy"] = "Always"
    for bad in (topic, deployment):
        locations = k8s_tools.schema_registry([(bad["apiVersion"], bad["kind"])])
        with pytest.raises(AssertionError):
            k8s_tools.kubeconform(
                kubeconform_bin, json.dumps(bad), k8s_tools.KUBERNETES_VERSIONS[-1], locations
            )


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_kafka_topics_match_the_catalogue(overlay: str, documents: dict[str, list[Doc]]) -> None:
    docs = documents[overlay]
    kafka = one(docs, "Kafka", "repocontext")
    config = one(docs, "ConfigMap", "repocontext-config")["data"]
    bootstrap, options = parse_kafka_url(config["REPOCONTEXT_LOG_URL"])
    (listener,) = kafka["spec"]["kafka"]["listeners"]  # the port the clients dial
    assert bootstrap == f"{kafka['metadata']['name']}-kafka-bootstrap:{listener['port']}"
    assert "prefix" not in options  # the KafkaTopic names carry no prefix
    replication = int(options.get("replication_factor", "1"))
    brokers = sum(
        p["spec"]["replicas"]
        for p in of_kind(docs, "KafkaNodePool")
        if "broker" in p["spec"]["roles"]
    )
    assert replication <= brokers
    topics = {t["spec"]["topicName"]: t for t in of_kind(docs, "KafkaTopic")}
    assert sorted(topics) == sorted(s.name for s in CATALOGUE)
    for spec in CATALOGUE:
        topic = topics[spec.name]
        assert topic["metadata"]["labels"]["strimzi.io/cluster"] == kafka["metadata"]["name"]
        assert topic["spec"]["partitions"] == spec.partitions, spec.name
        # what `repocontext topics` would create, so neither side ever reports a mismatch
        assert topic["spec"]["replicas"] == replication, spec.name
        wanted = kafka_topic_configs(cp.TopicConfig.of(spec), cp.DEFAULT_TOMBSTONE_RETENTION_MS, {})
        assert {k: str(v) for k, v in topic["spec"]["config"].items()} == wanted, spec.name
        if spec.retention_ms is None:  # memory (and every compacted topic) never expires
            assert str(topic["spec"]["config"]["retention.ms"]) == "-1", spec.name


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_workloads_are_hardened_and_bounded(overlay: str, documents: dict[str, list[Doc]]) -> None:
    stage = image_stage()
    uid = int(stage.all("USER")[-1].split(":")[0])
    data_dir = stage.env()["REPOCONTEXT_DATA_DIR"]
    workloads = [d for d in documents[overlay] if d["kind"] in WORKLOADS]
    assert {d["metadata"]["name"] for d in workloads} >= {
        "repocontext-worker",
        "repocontext-vectors",
        "repocontext-query",
        "repocontext-qdrant",
    }
    assert any(d["metadata"]["name"].startswith("repocontext-source-") for d in workloads)
    for doc in workloads:
        spec = pod_spec(doc)
        name = doc["metadata"]["name"]
        assert spec["securityContext"]["runAsNonRoot"] is True, name
        assert spec["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault", name
        assert spec["automountServiceAccountToken"] is False, name
        mounts_ok = {v["name"] for v in spec.get("volumes", [])} | {
            t["metadata"]["name"] for t in doc["spec"].get("volumeClaimTemplates", [])
        }
        for c in containers(doc):
            where = f"{name}/{c['name']}"
            for kind in ("requests", "limits"):
                assert {"cpu", "memory"} <= set(c["resources"][kind]), where
            sc = c["securityContext"]
            assert sc["readOnlyRootFilesystem"] is True, where
            assert sc["allowPrivilegeEscalation"] is False, where
            assert sc["capabilities"]["drop"] == ["ALL"], where
            assert {m["name"] for m in c.get("volumeMounts", [])} <= mounts_ok, where
            if ours(c):  # the read-only root leaves /data and /tmp writable
                paths = {m["mountPath"] for m in c["volumeMounts"]}
                assert {data_dir, "/tmp"} <= paths, where
                assert spec["securityContext"]["runAsUser"] == uid, where


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_query_replicas_serve_mcp_with_health_probes(
    overlay: str, documents: dict[str, list[Doc]]
) -> None:
    docs = documents[overlay]
    query = one(docs, "StatefulSet", "repocontext-query")
    service = one(docs, "Service", "repocontext-query")
    labels = query["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()
    assert query["spec"]["selector"]["matchLabels"].items() <= labels.items()
    (c,) = pod_spec(query)["containers"]
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    (svc_port,) = service["spec"]["ports"]
    assert svc_port["name"] == "mcp" and svc_port["targetPort"] in ports
    assert c["livenessProbe"]["httpGet"]["path"] == "/health/live"
    assert c["readinessProbe"]["httpGet"]["path"] == "/health/ready"
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        assert c[probe]["httpGet"]["port"] in ports, probe
    args = c["args"]
    assert args[0] == "query" and ports[svc_port["targetPort"]] == int(
        args[args.index("--port") + 1]
    )
    pdb = one(docs, "PodDisruptionBudget", "repocontext-query")
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    # views on a persistent volume per pod: a restarted pod resumes instead of replaying
    assert query["spec"]["serviceName"] == service["metadata"]["name"]
    (claim,) = query["spec"]["volumeClaimTemplates"]
    (data,) = [m for m in c["volumeMounts"] if m["name"] == claim["metadata"]["name"]]
    assert data["mountPath"] == image_stage().env()["REPOCONTEXT_DATA_DIR"]
    assert "data" not in {v["name"] for v in pod_spec(query).get("volumes", [])}
    # each replica's consumer group is named by its stable pod name (views.<name>)
    (replica_id,) = [e for e in c["env"] if e["name"] == "REPOCONTEXT_REPLICA_ID"]
    assert replica_id["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name"
    assert "replica_id" in Settings.model_fields


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_process_is_probed_and_scraped(overlay: str, documents: dict[str, list[Doc]]) -> None:
    """Workers, the vector worker, git sources and replicas each serve /health/* and /metrics
    on a named port that their probes use and the PodMonitor scrapes."""
    docs = documents[overlay]
    monitor = one(docs, "PodMonitor", "repocontext")
    scraped = {e["port"]: e["path"] for e in monitor["spec"]["podMetricsEndpoints"]}
    probed = set()
    for doc in (d for d in docs if d["kind"] in WORKLOADS):
        for c in pod_spec(doc)["containers"]:
            if not ours(c):
                continue
            where = f"{doc['metadata']['name']}/{c['name']}"
            ports = {p["name"]: p["containerPort"] for p in c["ports"]}
            (name,) = [n for n in ports if scraped.get(n) == "/metrics"]
            flag = "--port" if c["args"][0] == "query" else "--metrics-port"
            assert int(c["args"][c["args"].index(flag) + 1]) == ports[name], where
            for probe, path in (
                ("startupProbe", "/health/live"),
                ("livenessProbe", "/health/live"),
                ("readinessProbe", "/health/ready"),
            ):
                assert c[probe]["httpGet"] == {"path": path, "port": name}, (where, probe)
                assert c[probe].get("timeoutSeconds", 1) >= 1, (where, probe)
            probed.add(c["args"][0])
    assert probed == {"worker", "query", "git-source"}
    assert labels_match(monitor["spec"]["selector"]["matchLabels"], docs)


def labels_match(selector: dict[str, str], docs: list[Doc]) -> bool:
    """The selector picks every pod that runs a repocontext process."""
    mine = [d for d in docs if d["kind"] in WORKLOADS and any(ours(c) for c in containers(d))]
    pods = [d["spec"]["template"]["metadata"]["labels"] for d in mine]
    return bool(pods) and all(selector.items() <= labels.items() for labels in pods)


def test_alerts_cover_lag_dead_letters_and_readiness(documents: dict[str, list[Doc]]) -> None:
    """The PrometheusRule alerts on what an SRE is paged for, with metrics the processes
    export (query_api/server/lag_metrics.py)."""
    rule = one(documents["prod"], "PrometheusRule", "repocontext")
    rules = [r for g in rule["spec"]["groups"] for r in g["rules"]]
    exported = (ROOT / "query_api" / "server" / "lag_metrics.py").read_text()
    used = set()
    for r in rules:
        for metric in re.findall(r"repocontext_[a-z_]+", r["expr"]):
            used.add(metric)
            assert f'"{metric.removesuffix("_total")}"' in exported, (r["alert"], metric)
        assert r["labels"]["severity"] in {"warning", "critical"}, r["alert"]
        assert r["annotations"]["summary"], r["alert"]
    assert {
        "repocontext_consumer_lag_events",
        "repocontext_dead_letters_total",
        "repocontext_ready",
        "repocontext_replica_lag_seconds",
        "repocontext_embedding_backlog_events",
    } <= used


def _expand(arg: str, env: dict[str, str]) -> str:
    """Kubernetes' $(VAR) expansion of container args."""
    return re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", lambda m: env[m.group(1)], arg)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_process_starts_with_the_real_cli_and_settings(
    overlay: str, documents: dict[str, list[Doc]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each repocontext container's args and environment go through the real argument parser
    and Settings; only the subcommand's body is replaced, to capture what it would get."""
    docs = documents[overlay]
    config_maps = {d["metadata"]["name"]: d.get("data", {}) for d in of_kind(docs, "ConfigMap")}
    secrets = {d["metadata"]["name"]: d for d in of_kind(docs, "Secret")}
    qdrant = one(docs, "Service", "repocontext-qdrant")
    seen: dict[str, tuple[argparse.Namespace, Settings]] = {}
    started: set[str] = set()

    async def capture(args: argparse.Namespace, settings: Settings, path: Path | None) -> int:
        seen[args.command] = (args, settings)
        return 0

    for name in ("topics", "worker", "query", "git_source"):
        monkeypatch.setattr(commands, f"cmd_{name}", capture)
    for doc in (d for d in docs if d["kind"] in WORKLOADS):
        volumes = {v["name"]: v for v in pod_spec(doc).get("volumes", [])}
        for c in containers(doc):
            if not ours(c):
                continue
            env = {**image_stage().env(), **container_env(c, config_maps)}
            unknown = {
                k.removeprefix("REPOCONTEXT_").lower() for k in env if k.startswith("REPOCONTEXT_")
            } - set(Settings.model_fields)
            assert not unknown, f"settings that do not exist: {unknown}"
            for key in [k for k in os.environ if k.startswith("REPOCONTEXT_")]:
                monkeypatch.delenv(key)
            for key, value in env.items():
                monkeypatch.setenv(key, value)
            seen.clear()
            assert cli.main([_expand(a, env) for a in c["args"]]) == 0, c["args"]
            ((command, (args, settings)),) = seen.items()
            started.add(command)
            assert settings.data_dir == Path(env["REPOCONTEXT_DATA_DIR"])
            assert settings.resolved_log_url().startswith("kafka://")
            qdrant_url = urlsplit(settings.qdrant_url or "")
            assert qdrant_url.hostname == qdrant["metadata"]["name"]
            assert qdrant_url.port in {p["port"] for p in qdrant["spec"]["ports"]}
            if command == "query":  # the token file is the mounted Secret's key
                assert settings.auth_file is not None
                (mount,) = [
                    m
                    for m in c["volumeMounts"]
                    if settings.auth_file.parent == Path(m["mountPath"])
                ]
                secret = secrets[volumes[mount["name"]]["secret"]["secretName"]]
                assert settings.auth_file.name in secret["data"]
            if command == "git-source":
                assert args.repo_id and args.url.startswith("https://")
    assert started == {"topics", "worker", "query", "git-source"}


@pytest.mark.parametrize("where", ["base", *(f"overlays/{o}" for o in OVERLAYS)])
def test_token_files_hold_digests_only(where: str) -> None:
    """Token files live in git, so they hold SHA-256 digests, never tokens. The dev one lets
    the documented dev token read everything; the others define none yet, which the server
    refuses to start with (fail closed) until an operator adds digests."""
    tokens = K8S / where / "tokens.json"
    entries = json.loads(tokens.read_text())["tokens"]
    assert all("sha256" in t and "token" not in t for t in entries)
    if where == "overlays/dev":
        table = TokenTable.load(tokens)
        principal = table.authenticate("Bearer dev-token")
        assert principal is not None and principal.may("any-repo", "read")
        assert not principal.may("any-repo", "write")
        assert table.authenticate("Bearer wrong") is None
    else:
        assert entries == []
        with pytest.raises(AuthConfigError, match="defines no tokens"):
            TokenTable.load(tokens)


def test_skaffold_builds_the_image_and_deploys_each_overlay(
    kustomize: Path, documents: dict[str, list[Doc]]
) -> None:
    config = k8s_tools.yaml.safe_load((ROOT / "skaffold.yaml").read_text())
    assert config["kind"] == "Config" and config["apiVersion"].startswith("skaffold/v4")
    (artifact,) = config["build"]["artifacts"]
    assert artifact["image"] == IMAGE
    assert (ROOT / artifact["context"] / artifact["docker"]["dockerfile"]).is_file()
    profiles = {p["name"]: p for p in config["profiles"]}
    assert set(profiles) == {"dev", "prod"}
    assert config["manifests"] == profiles["dev"]["manifests"]  # plain `skaffold dev` = dev
    for name, profile in profiles.items():
        (path,) = profile["manifests"]["kustomize"]["paths"]
        assert (ROOT / path).resolve() == (K8S / "overlays" / name).resolve()
        docs = documents[name]
        images = {
            c["image"].split(":")[0] for d in docs if d["kind"] in WORKLOADS for c in containers(d)
        }
        assert IMAGE in images
        (forward,) = profile["portForward"]
        service = one(docs, "Service", forward["resourceName"])
        assert forward["resourceType"] == "service"
        assert forward["namespace"] == service["metadata"]["namespace"]
        assert forward["port"] in {p["port"] for p in service["spec"]["ports"]}
        assert forward["address"] == "127.0.0.1"  # the MCP endpoint stays on loopback


def test_base_renders_on_its_own(kustomize: Path) -> None:
    docs = [
        d
        for d in k8s_tools.yaml.safe_load_all(k8s_tools.kustomize_build(kustomize, K8S / "base"))
        if d
    ]
    assert all("namespace" not in d["metadata"] for d in docs)  # overlays choose it
    assert {"Kafka", "KafkaNodePool", "KafkaTopic", "StatefulSet", "Deployment", "Service"} <= {
        d["kind"] for d in docs
    }


def patch_targets(overlay: Path) -> list[tuple[str, str | None]]:
    """(kind, name) of each patch of an overlay: its `target`, or the patch file's own object."""
    kustomization = k8s_tools.yaml.safe_load((overlay / "kustomization.yaml").read_text())
    found: list[tuple[str, str | None]] = []
    for patch in kustomization.get("patches", []):
        if "target" in patch:
            found.append((patch["target"]["kind"], patch["target"].get("name")))
            continue
        for doc in k8s_tools.yaml.safe_load_all((overlay / patch["path"]).read_text()):
            found.append((doc["kind"], doc["metadata"]["name"]))
    return found


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_patch_of_an_overlay_reaches_a_resource(overlay: str, kustomize: Path) -> None:
    """kustomize applies a patch whose target matches nothing without a word (dev's replica
    count once targeted a Deployment while the query replicas are a StatefulSet)."""
    base = k8s_tools.yaml.safe_load_all(k8s_tools.kustomize_build(kustomize, K8S / "base"))
    present = {(d["kind"], d["metadata"]["name"]) for d in base if d}
    targets = patch_targets(K8S / "overlays" / overlay)
    assert targets
    for kind, name in targets:
        assert any(k == kind and name in (None, n) for k, n in present), (kind, name)

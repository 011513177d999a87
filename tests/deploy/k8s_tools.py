"""Offline Kubernetes tooling for the deploy tests: kustomize, kubeconform and their schemas.

Everything comes from package registries and is cached, so only the first run on a machine
downloads anything and no run fetches a schema from the web (kubeconform's default):
- kustomize and kubeconform: `go install` from the Go module proxy (GOTOOLCHAIN=local) into
  the cache; Go's module cache makes a rebuild cheap.
- Kubernetes schemas: the `kubernetes-validate` wheel from PyPI ships every kind's JSON schema
  (strict, with `$ref`s into a shared `_definitions.json`); each kind the manifests use is
  rewritten as a standalone schema in kubeconform's layout.
- Strimzi CRDs: the `io.strimzi:api` test jar on Maven Central ships the generated CRDs;
  their `openAPIV3Schema` becomes a strict JSON schema in the CRDs-catalog layout.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

# PyYAML arrives with huggingface-hub; imported by name so mypy needs no stubs package
yaml: Any = importlib.import_module("yaml")

KUSTOMIZE = ("sigs.k8s.io/kustomize/kustomize/v5", "v5.8.2")  # v5.8.3 needs Go 1.27
KUBECONFORM = ("github.com/yannh/kubeconform/cmd/kubeconform", "v0.8.0")
K8S_SCHEMAS = ("kubernetes-validate", "1.37.0")
STRIMZI_VERSION = "0.49.0"  # the first with kafka.strimzi.io/v1; supports Kafka 4.1.1
STRIMZI_CRDS = (
    "040-Crd-kafka.yaml",
    "043-Crd-kafkatopic.yaml",
    "044-Crd-kafkauser.yaml",
    "045-Crd-kafkanodepool.yaml",
)
# the schemas' stamp: a cache written for another CRD list is rewritten
STRIMZI_STAMP = f"{STRIMZI_VERSION} {' '.join(STRIMZI_CRDS)}"
# The alerting rules (PrometheusRule) and scrape targets (PodMonitor) are prometheus-operator
# kinds; its Go module (from the Go module proxy, like kustomize) ships the generated CRDs.
PROMETHEUS_OPERATOR = ("github.com/prometheus-operator/prometheus-operator", "v0.85.0")
MONITORING_CRDS = (
    "monitoring.coreos.com_prometheusrules.yaml",
    "monitoring.coreos.com_podmonitors.yaml",
)
CRD_GROUPS = (".strimzi.io/", "monitoring.coreos.com/")
# the oldest Kubernetes Strimzi 0.49 supports and the newest the schema wheel has
KUBERNETES_VERSIONS = ("1.30.0", "1.37.0")
SCHEMA_DIR = "kubernetes_validate/kubernetes-json-schema"
INSTALL_TIMEOUT_S = 900


class ToolError(RuntimeError):
    """A tool or schema could not be installed; the message says what is missing."""


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    root = Path(base) / "repocontext-deploy-tests"
    root.mkdir(parents=True, exist_ok=True)
    return root


def _run(cmd: list[str], *, env: Mapping[str, str] | None = None, what: str) -> None:
    proc = subprocess.run(
        cmd, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, env=env, check=False
    )
    if proc.returncode != 0:
        raise ToolError(f"{what} failed ({proc.returncode}):\n{proc.stderr[-4000:]}")


def go_tool(module: str, version: str) -> Path:
    """The binary of `module@version`, built once into the cache with the machine's Go."""
    name = module.rstrip("/").split("/")[-1]
    if name.startswith("v") and name[1:].isdigit():  # .../kustomize/v5 -> kustomize
        name = module.rstrip("/").split("/")[-2]
    gobin = cache_root() / "bin" / f"{name}-{version}"
    binary = gobin / name
    if binary.exists():
        return binary
    go = shutil.which("go") or shutil.which("go", path="/usr/local/go/bin")
    if go is None:
        raise ToolError(f"`go` is not on PATH: the deploy tests build {module} with it")
    staging = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=cache_root()))
    env = {**os.environ, "GOBIN": str(staging), "GOTOOLCHAIN": "local", "CGO_ENABLED": "0"}
    try:
        _run([go, "install", f"{module}@{version}"], env=env, what=f"go install {module}@{version}")
        gobin.parent.mkdir(parents=True, exist_ok=True)
        if not binary.exists():  # another run may have finished first
            staging.replace(gobin)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return binary


def _kubernetes_validate_dir() -> Path:
    """The schema folder of kubernetes-validate: the installed package if it is the pinned
    version, else the wheel from PyPI unpacked into the cache."""
    name, version = K8S_SCHEMAS
    try:
        installed = importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        installed = None
    spec = importlib.util.find_spec("kubernetes_validate") if installed == version else None
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations))) / "kubernetes-json-schema"
    unpacked = cache_root() / f"{name}-{version}"
    marker = unpacked / ".complete"
    if not marker.exists():
        with tempfile.TemporaryDirectory(dir=cache_root()) as tmp:
            _run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--no-deps",
                    "--only-binary=:all:",
                    "--disable-pip-version-check",
                    "-q",
                    "-d",
                    tmp,
                    f"{name}=={version}",
                ],
                what=f"pip download {name}=={version}",
            )
            wheel = next(Path(tmp).glob("*.whl"))
            wanted = tuple(f"{SCHEMA_DIR}/v{v}-local-strict/" for v in KUBERNETES_VERSIONS)
            with zipfile.ZipFile(wheel) as zf:
                zf.extractall(unpacked, [m for m in zf.namelist() if m.startswith(wanted)])
        marker.write_text(version)
    return unpacked / SCHEMA_DIR


def _strimzi_crds() -> list[dict[str, Any]]:
    """Strimzi's generated CRDs (v1 API) from the io.strimzi:api test jar on Maven Central."""
    jar_dir = cache_root() / f"strimzi-{STRIMZI_VERSION}"
    jar = jar_dir / f"api-{STRIMZI_VERSION}-tests.jar"
    if not jar.exists():
        mvn = shutil.which("mvn")
        if mvn is None:
            raise ToolError("`mvn` is not on PATH: the deploy tests fetch Strimzi's CRDs with it")
        _run(
            [
                mvn,
                "-q",
                "-B",
                "dependency:copy",
                f"-Dartifact=io.strimzi:api:{STRIMZI_VERSION}:jar:tests",
                f"-DoutputDirectory={jar_dir}",
                "-Dmdep.overWriteReleases=true",
            ],
            what=f"mvn dependency:copy io.strimzi:api:{STRIMZI_VERSION}:jar:tests",
        )
    with zipfile.ZipFile(jar) as zf:
        return [yaml.safe_load(zf.read(f"crds/v1/{name}")) for name in STRIMZI_CRDS]


def _monitoring_crds() -> list[dict[str, Any]]:
    """prometheus-operator's generated CRDs, from its Go module (`go mod download`)."""
    go = shutil.which("go") or shutil.which("go", path="/usr/local/go/bin")
    if go is None:
        raise ToolError("`go` is not on PATH: the deploy tests fetch prometheus-operator's CRDs")
    module, version = PROMETHEUS_OPERATOR
    proc = subprocess.run(
        [go, "mod", "download", "-json", f"{module}@{version}"],
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT_S,
        env={**os.environ, "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod"},
        cwd=cache_root(),
        check=False,
    )
    found = json.loads(proc.stdout or "{}")
    if proc.returncode != 0 or "Dir" not in found:
        raise ToolError(f"go mod download {module}@{version} failed: {found or proc.stderr}")
    crds = Path(found["Dir"]) / "example" / "prometheus-operator-crd"
    return [yaml.safe_load((crds / name).read_text()) for name in MONITORING_CRDS]


def _write_crds(out: Path, crds: list[dict[str, Any]], stamp: str) -> None:
    """Each CRD version's openAPIV3Schema as a strict JSON schema in the CRDs-catalog layout."""
    for crd in crds:
        group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
        for v in crd["spec"]["versions"]:
            schema = _strict(v["schema"]["openAPIV3Schema"])
            schema["$schema"] = "http://json-schema.org/draft-07/schema#"
            _write_json(out / group / f"{kind.lower()}_{v['name']}.json", schema)
    (out / ".complete").write_text(stamp)


def _strict(node: Any) -> Any:
    """openAPIV3Schema -> JSON schema: closed objects (a typo is an error, as kubeconform
    -strict does for built-in kinds) and int-or-string as a union."""
    if isinstance(node, list):
        return [_strict(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _strict(v) for k, v in node.items()}
    if out.pop("x-kubernetes-int-or-string", False):
        out.pop("type", None)
        out["anyOf"] = [{"type": "integer"}, {"type": "string"}]
    if (
        "properties" in out
        and "additionalProperties" not in out
        and not out.get("x-kubernetes-preserve-unknown-fields")
    ):
        out["additionalProperties"] = False
    return out


def _closure(defs: Mapping[str, Any], root: Any) -> dict[str, Any]:
    """The definitions `root` reaches through `$ref`, rewritten to point inside the file."""
    found: dict[str, Any] = {}

    def rewrite(node: Any) -> Any:
        if isinstance(node, list):
            return [rewrite(n) for n in node]
        if not isinstance(node, dict):
            return node
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and "#/$defs/" in value:
                name = value.split("#/$defs/", 1)[1]
                if name not in found:
                    found[name] = {}
                    found[name] = rewrite(defs[name])
                out[key] = f"#/$defs/{name}"
            else:
                out[key] = rewrite(value)
        return out

    return {**rewrite(root), "$defs": found}


def kind_suffix(api_version: str) -> str:
    """kubeconform's {{ .KindSuffix }}: `-apps-v1` for apps/v1, `-v1` for v1."""
    group, _, version = api_version.rpartition("/")
    return f"-{group.split('.')[0].lower()}-{version}" if group else f"-{version}"


def schema_registry(kinds: Iterable[tuple[str, str]]) -> list[str]:
    """kubeconform `-schema-location` values that answer for every (apiVersion, kind) given:
    built-in kinds from the Kubernetes schemas, Strimzi kinds from its CRDs. Idempotent."""
    root = cache_root() / "schemas"
    # versioned folders: a new pin never reads schemas converted from an old one
    k8s_root = root / f"kubernetes-validate-{K8S_SCHEMAS[1]}"
    crd_root = root / f"strimzi-{STRIMZI_VERSION}"
    monitoring_root = root / f"prometheus-operator-{PROMETHEUS_OPERATOR[1]}"
    kinds = sorted(set(kinds))
    builtin = [(a, k) for a, k in kinds if not any(g in a for g in CRD_GROUPS)]
    source = None
    for version in KUBERNETES_VERSIONS:
        out_dir = k8s_root / f"v{version}-standalone-strict"
        for api_version, kind in builtin:
            name = f"{kind.lower()}{kind_suffix(api_version)}.json"
            if (out_dir / name).exists():
                continue
            source = source or _kubernetes_validate_dir()
            src = source / f"v{version}-local-strict"
            if not (src / name).exists():
                raise ToolError(f"no Kubernetes {version} schema for {api_version} {kind}")
            defs = json.loads((src / "_definitions.json").read_text())["$defs"]
            schema = _closure(defs, json.loads((src / name).read_text()))
            schema.pop("$id", None)
            _write_json(out_dir / name, schema)
    stamp = crd_root / ".complete"
    strimzi_stale = not stamp.exists() or stamp.read_text() != STRIMZI_STAMP
    if any(".strimzi.io/" in a for a, _ in kinds) and strimzi_stale:
        _write_crds(crd_root, _strimzi_crds(), STRIMZI_STAMP)
    monitoring = any("monitoring.coreos.com/" in a for a, _ in kinds)
    if monitoring and not (monitoring_root / ".complete").exists():
        _write_crds(monitoring_root, _monitoring_crds(), PROMETHEUS_OPERATOR[1])
    layout = "{{ .Group }}/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json"
    return [
        str(k8s_root),  # + /{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/...
        f"{crd_root}/{layout}",
        f"{monitoring_root}/{layout}",
    ]


def _write_json(path: Path, doc: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc))
    tmp.replace(path)


def kustomize_build(kustomize: Path, path: Path) -> str:
    proc = subprocess.run(
        [str(kustomize), "build", str(path)], capture_output=True, text=True, timeout=120
    )
    if proc.returncode != 0:
        raise AssertionError(f"kustomize build {path} failed:\n{proc.stderr}")
    return proc.stdout


def kubeconform(binary: Path, rendered: str, k8s_version: str, locations: list[str]) -> Any:
    """kubeconform's JSON report of `rendered` (strict, no missing schema allowed, offline)."""
    cmd = [
        str(binary),
        "-strict",
        "-summary",
        "-output",
        "json",
        "-kubernetes-version",
        k8s_version,
    ]
    for location in locations:
        cmd += ["-schema-location", location]
    proc = subprocess.run([*cmd, "-"], input=rendered, capture_output=True, text=True, timeout=120)
    report = json.loads(proc.stdout)
    if proc.returncode != 0:
        raise AssertionError(json.dumps(report.get("resources", report), indent=1)[:6000])
    return report

"""Session fixtures of the deploy tests: the tools (installed once, cached) and the renders."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.deploy import k8s_tools

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
OVERLAYS = sorted(p.name for p in (K8S / "overlays").iterdir() if p.is_dir())


@pytest.fixture(scope="session")
def kustomize() -> Path:
    return k8s_tools.go_tool(*k8s_tools.KUSTOMIZE)


@pytest.fixture(scope="session")
def kubeconform_bin() -> Path:
    return k8s_tools.go_tool(*k8s_tools.KUBECONFORM)


@pytest.fixture(scope="session")
def renders(kustomize: Path) -> dict[str, str]:
    """`kustomize build` of every overlay, by overlay name."""
    return {
        name: k8s_tools.kustomize_build(kustomize, K8S / "overlays" / name) for name in OVERLAYS
    }


@pytest.fixture(scope="session")
def documents(renders: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    return {
        name: [d for d in k8s_tools.yaml.safe_load_all(text) if d] for name, text in renders.items()
    }

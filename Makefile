# payjudge: two commands set everything up on a fresh machine.
#   make run    -- virtualenv, install, compile the engines, migrate a SQLite file, start the daemon
#   make test   -- virtualenv, install with test extras, the lint gate, compile the engines, then
#                  the whole suite on the compiled engines and the engines' own tests on the sources
#   make lint   -- ruff (lint and format check) and mypy, as configured in pyproject.toml
#   make native -- compile the pure engines with mypyc (tools/build_native.py; nothing to do
#                  when the build is current). Without a build payjudge runs them from source.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
DATA   ?= data

.PHONY: run test lint venv native bench clean soak

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

native: venv
	$(BIN)/python tools/build_native.py

# the suite on the compiled engines, then the engines' tests again on their sources
# (PAYJUDGE_PURE=1): both are payjudge, and both must give the same answers
test: lint native
	$(BIN)/python -m pytest
	PAYJUDGE_PURE=1 $(BIN)/python -m pytest -q tests/rules tests/payola

# a machine without a C compiler still runs the judge: from the sources, only slower
run: venv
	$(BIN)/python tools/build_native.py || echo "make run: the engines run from their sources (no build)"
	PAYJUDGE_DATA_DIR=$${PAYJUDGE_DATA_DIR:-$(DATA)} $(BIN)/payjudge db upgrade
	PAYJUDGE_DATA_DIR=$${PAYJUDGE_DATA_DIR:-$(DATA)} $(BIN)/payjudge serve

$(VENV)/.stamp-bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $@

bench: $(VENV)/.stamp-bench native
	$(BIN)/python benchmarks/adjudicate.py
	$(BIN)/python benchmarks/differential.py
	$(BIN)/python benchmarks/auction.py
	$(BIN)/python benchmarks/mail_throughput.py

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .ruff_cache payjudge/_compiled

# the game simulator's long run (docs/simulator.md): a thousand seeded games by mail, every
# promise checked after every message and phase; prints games, phases, messages and failures
SOAK_GAMES ?= 1000
SOAK_SEED  ?= 1000
SOAK_YEARS ?= 3
soak: venv
	$(BIN)/python tools/simulate.py --games $(SOAK_GAMES) --seed $(SOAK_SEED) --years $(SOAK_YEARS)

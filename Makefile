# payjudge: two commands set everything up on a fresh machine.
#   make run    -- virtualenv, install, migrate a SQLite file, start the daemon: on the compiled
#                  engines when a current build is there (`make native`), else on the sources.
#                  It never compiles, so the judge answers within a minute on a fresh clone.
#   make test   -- virtualenv with the test extras, the lint gate, then at the same time the
#                  whole suite on the sources (PAYJUDGE_PURE=1, $(JOBS) pytest-xdist workers) and
#                  the engines' compile (`make native`, log in build/native.log); then the
#                  engines' tests (tests/rules, tests/payola) again on the compiled build, and
#                  tests/test_native_agreement.py: the build answers every case as the sources
#   make check  -- the edit loop, about a minute: the lint gate, the pure engines' tests on
#                  the sources and the simulator's CI seeds (tests/sim), on $(JOBS) workers
#   make lint   -- ruff (lint and format check) and mypy, as configured in pyproject.toml
#   make native -- compile the pure engines with mypyc (tools/build_native.py; nothing to do
#                  when the build is current): the engines then run about twice as fast.
#                  Without a build payjudge runs them from source, with the same answers.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
DATA   ?= data
# pytest-xdist workers: one per core of the 2-core machines the targets are measured on;
# an idle worker takes tests queued for the other (worksteal), so a long test near the end
# does not leave one core idle while the other works through its queue
JOBS   ?= 2
XDIST  := -n $(JOBS) --dist worksteal

.PHONY: run test check lint venv native bench clean soak

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

# The compile (a minute or more of processor time) runs beside the suite rather than before
# it, and the suite runs on the sources, so nothing waits for it; then the engines' tests
# run once more on what it built. A failed build fails `make test`: CI has a compiler.
test: lint
	@mkdir -p build
	@echo "make test: compiling the engines in the background (build/native.log)"
	@$(BIN)/python tools/build_native.py > build/native.log 2>&1 & build=$$!; \
	PAYJUDGE_PURE=1 $(BIN)/python -m pytest $(XDIST) --ignore=tests/test_native_agreement.py; suite=$$?; \
	wait $$build; native=$$?; \
	if [ $$native -ne 0 ]; then cat build/native.log; echo "make test: the engines did not compile"; fi; \
	[ $$suite -eq 0 ] && [ $$native -eq 0 ]
	PAYJUDGE_REQUIRE_NATIVE=1 $(BIN)/python -m pytest $(XDIST) -q tests/rules tests/payola tests/test_native_agreement.py

check: lint
	PAYJUDGE_PURE=1 $(BIN)/python -m pytest $(XDIST) -q tests/rules tests/payola tests/sim

# no compile here: the judge starts on the sources (or on a current build of `make native`)
run: venv
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

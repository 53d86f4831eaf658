# The two commands of the README work on a fresh machine with only Python and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEPS := pyproject.toml setup.py core/store/_rowcheck.c
# `make run PORT=8080 HOST=0.0.0.0` serves elsewhere than 127.0.0.1:8000.
PORT ?= 8000
HOST ?= 127.0.0.1
# setuptools' note on editable installs (it always prints one) is information, not a problem.
QUIET_BUILD := PYTHONWARNINGS=ignore::UserWarning:setuptools.command.editable_wheel

.PHONY: run test test-long bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run: $(BIN)/python $(DEPS)
	$(QUIET_BUILD) $(BIN)/python -m pip install --quiet -e '.[http,terminal]'
	@touch $@

$(VENV)/.test: $(BIN)/python $(DEPS)
	$(QUIET_BUILD) $(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@ $(VENV)/.run

$(VENV)/.bench: $(BIN)/python $(DEPS)
	$(QUIET_BUILD) $(BIN)/python -m pip install --quiet -e '.[bench]'
	@touch $@ $(VENV)/.run

run: $(VENV)/.run
	$(BIN)/gamehall serve --db gamehall.db --host $(HOST) --port $(PORT)

test: $(VENV)/.test
	$(BIN)/python -m pytest -m "not long"

# The long runs: full fuzzing, kill tests, every game in the browser, bot strength.
test-long: $(VENV)/.test
	$(BIN)/python -m pytest -m long

# CURVES=1 also measures the cost curves and draws them (bench/curves-*.png): a few minutes more.
bench: $(VENV)/.bench
	$(BIN)/python -m bench $(if $(CURVES),--curves)

clean:
	rm -rf $(VENV) build *.egg-info gamehall.db gamehall.db-wal gamehall.db-shm core/store/_rowcheck*.so

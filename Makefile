# Two set-up commands: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test test-slow bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[web,sim]'
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

# make run ARGS='--port 8001 --db tables.db' passes options to parlour serve.
run: $(VENV)/.installed
	$(BIN)/parlour serve $(ARGS)

# The browser tests drive the system Chromium (Debian's package); install it when it is missing.
CHROMIUM ?= /usr/bin/chromium
$(CHROMIUM):
	@as_root=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	$$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium || ($$as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q && $$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium)

test: $(VENV)/.installed-test | $(CHROMIUM)
	$(BIN)/python -m pytest -n 2 -q src tests

test-slow: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n 2 -q -m slow tests

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/bench_playouts.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info

# Two set-up commands: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test test-slow bench clean native train-psalter-row train-decktet-golf

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip 'setuptools>=77'

# The native kernels (a C extension, optional): rebuilt whenever a C source changes. Without a
# compiler the build is skipped and parlour plays on its pure-Python engine (PARLOUR_NATIVE=0
# skips it too). `parlour doctor` says which engine plays.
NATIVE_SOURCES := setup.py $(wildcard src/parlour/native/csrc/*.c src/parlour/native/csrc/*.h)
$(VENV)/.native: $(NATIVE_SOURCES) | $(VENV)/.installed
	@$(BIN)/python -c "import setuptools, sys; sys.exit(int(setuptools.__version__.split('.')[0]) < 77)" || \
		$(BIN)/python -m pip install --quiet 'setuptools>=77'
	@$(BIN)/python setup.py --quiet build_ext --inplace 2>&1 | grep -v -e '^running' -e 'Beta' -e '^ ' -e '^$$' ; \
		$(BIN)/parlour --version | tail -1
	touch $@

native: $(VENV)/.native

$(VENV)/.installed: pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[web,sim]'
	touch $@

$(VENV)/.installed-test: pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

# make run ARGS='--port 8001 --db tables.db' passes options to parlour serve.
run: $(VENV)/.installed $(VENV)/.native
	$(BIN)/parlour serve $(ARGS)

# The browser tests drive the system Chromium (Debian's package); install it when it is missing.
CHROMIUM ?= /usr/bin/chromium
$(CHROMIUM):
	@as_root=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	$$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium || ($$as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q && $$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium)

test: $(VENV)/.installed-test $(VENV)/.native | $(CHROMIUM)
	$(BIN)/python -m pytest -n 2 -q src tests

test-slow: $(VENV)/.installed-test $(VENV)/.native
	$(BIN)/python -m pytest -n 2 -q -m slow tests

bench: $(VENV)/.installed $(VENV)/.native
	$(BIN)/python benchmarks/bench_playouts.py

# The worked example of docs/research.md: PPO in numpy (python -m parlour.envs.ppo), a few minutes
# on one core each. The run goes to runs/ppo-GAME/ (policy.npz, curve.csv, curve.png); the curve is
# copied to docs/research/. TRAIN_ARGS='--seed 1' passes more options.
TRAIN_psalter-row := --steps 600000 --eval-every 20
TRAIN_decktet-golf := --steps 250000 --eval-every 12
train-psalter-row train-decktet-golf: train-%: $(VENV)/.installed-test $(VENV)/.native
	OPENBLAS_NUM_THREADS=1 nice -n 10 $(BIN)/python -m parlour.envs.ppo $* $(TRAIN_$*) --out runs/ppo-$* $(TRAIN_ARGS)
	mkdir -p docs/research && cp runs/ppo-$*/curve.png docs/research/ppo-$*.png

clean:
	rm -rf $(VENV) build dist src/*.egg-info src/parlour/native/*.so

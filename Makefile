# One entry point for every task. `make demo` and `make test` work on a fresh Debian machine.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
export PATH := $(abspath $(BIN)):$(PATH)

.PHONY: setup browser demo test test-fast lint js-test nbval lite serve-lite export bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

setup: $(BIN)/python  ## editable install with every test and dev tool
	$(BIN)/python -m pip install -q -e ".[dev]"

browser:  ## Debian's chromium for the end-to-end tests (needs root or sudo)
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }

demo: setup  ## open JupyterLab on the tutorial notebook
	$(BIN)/python -m jupyter lab notebooks/01-play.ipynb $$([ "$$(id -u)" = 0 ] && echo --allow-root)

lint: setup  ## ruff, mypy --strict, the layer contract (import-linter) and the private-name check
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python scripts/check_private_names.py

js-test:
	node --test js/

nbval: setup
	$(BIN)/python -m pytest --nbval-lax notebooks/ -p no:cacheprovider -q

test: setup browser lint js-test  ## the whole suite: lint, types, JS, unit, property, notebooks, browsers
	$(BIN)/python -m pytest tests/ --nbval-lax notebooks/ -q

test-fast: setup  ## everything but the browser tests
	$(BIN)/python -m pytest tests/ -q -m "not browser"

lite: setup  ## build the offline JupyterLite site into dist/lite/
	$(BIN)/python scripts/build_lite.py

serve-lite:  ## serve dist/lite/ on 127.0.0.1:8000 (PORT=8001 make serve-lite for another port)
	$(BIN)/python scripts/serve_lite.py --port $(or $(PORT),8000)

export: setup  ## static HTML pages of the notebooks with widget state, into dist/html/
	$(BIN)/python scripts/export_html.py

bench: setup  ## every benchmark, printed
	$(BIN)/python -m benchmarks

clean:
	rm -rf dist build .pytest_cache .mypy_cache .ruff_cache

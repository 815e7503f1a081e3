# One entry point for every task. `make demo` and `make test` work on a fresh Debian machine.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
export PATH := $(abspath $(BIN)):$(PATH)

.PHONY: setup browser demo test test-fast test-lowest test-compiled compiled lint js js-deps js-test js-typecheck js-watch nbval lite serve-lite serve-class export bench bench-check golden clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

setup: $(BIN)/python  ## editable install with every test and dev tool (the `dev` dependency group)
	$(BIN)/python -m pip install -q -e . --group dev
	@echo "make setup: $(VENV) runs the pure-Python modules (editable); make compiled builds the mypyc ones into $(COMPILED)"

COMPILED := .venv-compiled
$(COMPILED)/bin/python:
	$(PY) -m venv $(COMPILED)
	$(COMPILED)/bin/python -m pip install -q --upgrade pip
	$(COMPILED)/bin/python -m pip install -q --group compile "hatchling>=1.27" build pytest ms-toollib markdown-it-py

compiled: $(COMPILED)/bin/python  ## the solver compiled with mypyc into .venv-compiled (a wheel built from an sdist), or the pure one, said so
	rm -rf build/compiled
	$(COMPILED)/bin/python -m build -q --sdist --no-isolation -o build/compiled .
	$(COMPILED)/bin/python -m pip install -q --no-build-isolation build/compiled/ipyminesweeper-*.tar.gz  # its dependencies
	IPYMINESWEEPER_COMPILE=auto $(COMPILED)/bin/python -m pip install -q --no-build-isolation --force-reinstall \
	  --no-deps build/compiled/ipyminesweeper-*.tar.gz
	$(COMPILED)/bin/python -m ipyminesweeper --version

test-compiled: compiled  ## the engine, solver, strategy and golden-moves tests against the compiled build
	@if $(COMPILED)/bin/python -m ipyminesweeper --version | grep -q "pure Python"; then \
	  echo "test-compiled: no compiled build here (no working C compiler): skipped"; else \
	  $(COMPILED)/bin/python -m pytest tests/engine tests/solver tests/strategies tests/golden -q -p no:cacheprovider; fi

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

js-deps:  ## esbuild, tsc and @anywidget/types into js/node_modules (npm ci: the versions of js/package-lock.json)
	cd js && npm ci --no-audit --no-fund --silent

js: setup js-deps  ## rebuild the front end: the constants table from Python, then esbuild -> src/ipyminesweeper/static/
	$(BIN)/python scripts/export_constants.py
	cd js && node build.mjs

js-test: js-deps  ## node tests of the pure JS, and a check that the committed bundle is current
	node --test js/

js-typecheck: js-deps  ## tsc checks the JSDoc types of js/ (with @anywidget/types)
	cd js && npx --no-install tsc -p tsconfig.json

nbval: setup
	$(BIN)/python -m pytest --nbval-lax notebooks/ -p no:cacheprovider -q

test: setup browser lint js-test js-typecheck test-lowest test-compiled  ## the whole suite: lint, types, JS, unit, property, notebooks, browsers, lowest versions, the compiled build
	$(BIN)/python -m pytest tests/ --nbval-lax notebooks/ -q

test-fast: setup  ## everything but the browser tests
	$(BIN)/python -m pytest tests/ -q -m "not browser"

LOWEST := .venv-lowest
test-lowest:  ## the Python tests (no browser) with the lowest supported anywidget, ipywidgets, traitlets and hypothesis
	[ -x $(LOWEST)/bin/python ] || $(PY) -m venv $(LOWEST)
	$(LOWEST)/bin/python -m pip install -q --upgrade pip
	$(LOWEST)/bin/python -m pip install -q --group lowest
	$(LOWEST)/bin/python -m pip install -q --no-deps -e .
	$(LOWEST)/bin/python -c "import anywidget, ipywidgets, traitlets; print('lowest:', 'anywidget', anywidget.__version__, 'ipywidgets', ipywidgets.__version__, 'traitlets', traitlets.__version__)"
	$(LOWEST)/bin/python -m pytest tests/engine tests/widget tests/exercises/test_exercise_api.py -q -m "not browser" -p no:cacheprovider -W ignore::DeprecationWarning

js-watch:  ## rebuild static/ whenever js/ changes; with ANYWIDGET_HMR=1 the open widgets reload it
	$(BIN)/python -m watchfiles --filter all "node js/build.mjs --dev" js

lite: setup  ## build the offline JupyterLite site into dist/lite/
	$(BIN)/python scripts/build_lite.py

serve-lite: lite  ## serve dist/lite/ on 127.0.0.1:8000 (PORT=8001 make serve-lite for another port)
	@echo "open http://127.0.0.1:$(or $(PORT),8000)/lab/index.html?path=01-play.ipynb"
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory dist/lite $(or $(PORT),8000)

HANDIN ?= handin
serve-class: lite  ## serve dist/lite to the classroom network, hand-ins into handin/ (CLASS_CODE=..., PORT=...)
	$(BIN)/python -m ipyminesweeper.exercises serve --site dist/lite --handin $(HANDIN) \
	  --port $(or $(PORT),8000) $(if $(CLASS_CODE),--class-code $(CLASS_CODE))

export: setup  ## static HTML pages of the notebooks with widget state, into dist/html/
	$(BIN)/python scripts/export_html.py

bench: setup  ## every benchmark, printed; their figures go to benchmarks/figures.json (commit, machine, load)
	$(BIN)/python -m benchmarks

bench-check: setup  ## the engine and solver figures against the committed benchmarks/figures.json (>25% worse: exit 1)
	$(BIN)/python -m benchmarks.figures check

golden: setup  ## regenerate tests/golden/moves.jsonl.xz after a change of play meant to be (say why in the commit body)
	$(BIN)/python scripts/dump_moves.py --golden

clean:
	rm -rf dist build .pytest_cache .mypy_cache .ruff_cache

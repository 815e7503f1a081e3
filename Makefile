# One entry point for every task. `make demo` and `make test` work on a fresh Debian machine: they need
# Python 3.10+ and make, and install what else they need from Debian (node and npm, chromium, Orca) with
# apt-get.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
DEMO_VENV ?= .venv-demo
APT_GET ?= apt-get
export PATH := $(abspath $(BIN)):$(PATH)

.PHONY: setup browser orca node demo test test-fast test-lowest test-hypothesis test-compiled compiled course lint notebooks js js-deps js-test js-typecheck js-watch nbval lite serve-lite class-site serve-class export bench bench-check golden clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# git's clean filter for notebooks/*.ipynb (.gitattributes): commits and diffs see their committed form
NOTEBOOK_FILTER = git rev-parse --git-dir >/dev/null 2>&1 && \
	git config filter.notebook.clean "python3 scripts/normalize_notebooks.py --filter" || true

setup: $(BIN)/python  ## editable install with every test and dev tool (the `dev` dependency group)
	$(BIN)/python -m pip install -q -e . --group dev
	@$(NOTEBOOK_FILTER)
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
	  why=$$($(COMPILED)/bin/python -c 'import hatch_build; print(hatch_build.compiler_problem() or "")'); \
	  if [ -z "$$why" ]; then \
	    echo "test-compiled: a C compiler works here, yet the build is pure Python: the mypyc build failed"; exit 1; fi; \
	  echo "test-compiled: $$why: the pure build only, compiled tests skipped"; else \
	  $(COMPILED)/bin/python -m pytest tests/engine tests/solver tests/strategies tests/golden -q -p no:cacheprovider; fi

browser:  ## Debian's chromium for the end-to-end tests, where missing (needs root or sudo)
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO $(APT_GET) update -qq && $$SUDO $(APT_GET) install -y -qq chromium; }

# tests/browser/test_orca.py: a real screen reader (Orca) on a virtual screen, speaking through
# speech-dispatcher and espeak-ng into ALSA's null device; xdotool types its keys (orca_desktop.PACKAGES).
ORCA_PACKAGES := xvfb dbus-x11 at-spi2-core orca speech-dispatcher speech-dispatcher-espeak-ng espeak-ng xdotool openbox
orca:  ## Debian's Orca, Xvfb, speech-dispatcher, xdotool, ... for the screen-reader test, where missing (needs root or sudo)
	@missing=$$(for p in $(ORCA_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	[ -z "$$missing" ] || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO $(APT_GET) update -qq && $$SUDO $(APT_GET) install -y -qq --no-install-recommends $$missing; }

# Node's own packages (NodeSource's nodejs) bring npm and conflict with Debian's npm: install npm only if
# it is still missing once node is there.
node:  ## Debian's nodejs and npm for the JS tests and builds, where missing (needs root or sudo)
	@command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO $(APT_GET) update -qq && \
	  { command -v node >/dev/null 2>&1 || $$SUDO $(APT_GET) install -y -qq nodejs; } && \
	  { command -v npm >/dev/null 2>&1 || $$SUDO $(APT_GET) install -y -qq npm; }; }

DEMO_URL := /lab/tree/notebooks/01-play.ipynb
demo:  ## the package and JupyterLab only, in .venv-demo; JupyterLab opens (and prints a URL to) 01-play
	[ -x $(DEMO_VENV)/bin/python ] || $(PY) -m venv $(DEMO_VENV)
	$(DEMO_VENV)/bin/python -m pip install -q --upgrade pip
	$(DEMO_VENV)/bin/python -m pip install -q -e . --group demo
	@$(NOTEBOOK_FILTER)
	@echo "JupyterLab opens notebooks/01-play.ipynb: the http://...$(DEMO_URL)?token=... line below"
	$(DEMO_VENV)/bin/python -m jupyter lab --LabApp.default_url=$(DEMO_URL) \
	  --config=scripts/jupyter_demo_config.py $$([ "$$(id -u)" = 0 ] && echo --allow-root)

TEST_FOLDERS = $(sort $(patsubst %/,%,$(dir $(wildcard tests/*/*.py))))

lint: setup  ## ruff, mypy --strict, the layer contract (import-linter), the private-name check, notebooks' form
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/mypy tests/*.py
	@# one run per folder of tests: each has its own conftest.py and helpers imported by bare name
	@for folder in $(TEST_FOLDERS); do echo "mypy $$folder"; MYPYPATH=$$folder $(BIN)/mypy $$folder || exit 1; done
	$(BIN)/lint-imports
	$(BIN)/python scripts/check_private_names.py
	$(BIN)/python scripts/normalize_notebooks.py --check

js-deps: node  ## esbuild, tsc and @anywidget/types into js/node_modules (npm ci: the versions of js/package-lock.json)
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

test: setup browser orca node lint js-test js-typecheck test-lowest test-hypothesis test-compiled course  ## the whole suite: lint, types, JS, unit, property, notebooks (and the answer key), browsers, lowest versions, the compiled build
	$(BIN)/python -m pytest tests/ --nbval-lax notebooks/ dist/course/teacher/ -q --durations=30

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

# The exercises' checks and the notebooks that use them, with the lowest Hypothesis the package supports
# and the newest on the registry: the examples tried and every verdict must not depend on its version.
HYPOTHESIS_lowest := hypothesis==6.100.0
HYPOTHESIS_newest := --upgrade hypothesis
EXERCISE_TESTS := $(wildcard tests/exercises/test_exercise_*.py) tests/exercises/test_check_limits.py
CHECKED_NOTEBOOKS := $(filter-out notebooks/01-play.ipynb,$(wildcard notebooks/*.ipynb))
test-hypothesis: test-hypothesis-lowest test-hypothesis-newest
test-hypothesis-%:  ## (lowest or newest) the exercises' tests and notebooks 02-06 with that Hypothesis
	[ -x .venv-hypothesis-$*/bin/python ] || $(PY) -m venv .venv-hypothesis-$*
	.venv-hypothesis-$*/bin/python -m pip install -q --upgrade pip
	.venv-hypothesis-$*/bin/python -m pip install -q -e . pytest nbval ipykernel
	.venv-hypothesis-$*/bin/python -m pip install -q $(HYPOTHESIS_$*)
	.venv-hypothesis-$*/bin/python -c "import hypothesis; print('$*: hypothesis', hypothesis.__version__)"
	.venv-hypothesis-$*/bin/python -m pytest $(EXERCISE_TESTS) --nbval-lax $(CHECKED_NOTEBOOKS) -q -p no:cacheprovider

course: setup  ## the student's, the teacher's and the grader's editions of the notebooks, into dist/course/
	$(BIN)/python -m ipyminesweeper.classroom course notebooks dist/course

js-watch:  ## rebuild static/ whenever js/ changes; with ANYWIDGET_HMR=1 the open widgets reload it
	$(BIN)/python -m watchfiles --filter all "node js/build.mjs --dev" js

lite: setup node  ## build the offline JupyterLite site into dist/lite/
	$(BIN)/python scripts/build_lite.py

serve-lite: lite  ## serve dist/lite/ on 127.0.0.1:8000 (PORT=8001 make serve-lite for another port)
	@echo "open http://127.0.0.1:$(or $(PORT),8000)/lab/index.html?path=01-play.ipynb"
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory dist/lite $(or $(PORT),8000)

class-site: course node  ## the offline site with the students' edition (no solutions), into dist/class/
	$(BIN)/python scripts/build_lite.py --output dist/class --notebooks dist/course/student

HANDIN ?= handin
serve-class: class-site  ## serve dist/class to the classroom network, hand-ins into handin/ (CLASS_CODE=..., PORT=...)
	$(BIN)/python -m ipyminesweeper.classroom serve --site dist/class --handin $(HANDIN) \
	  --port $(or $(PORT),8000) $(if $(CLASS_CODE),--class-code $(CLASS_CODE))

export: setup node  ## static HTML pages of the notebooks with widget state, into dist/html/
	$(BIN)/python scripts/export_html.py

bench: setup  ## every benchmark, printed; their figures go to benchmarks/figures.json (commit, machine, load)
	$(BIN)/python -m benchmarks

bench-check: setup  ## the engine and solver figures against the committed benchmarks/figures.json (>25% worse: exit 1)
	$(BIN)/python -m benchmarks.figures check

golden: setup  ## regenerate tests/golden/moves.jsonl.xz after a change of play meant to be (say why in the commit body)
	$(BIN)/python scripts/dump_moves.py --golden

notebooks: setup  ## save the notebooks in their committed form (scripts/normalize_notebooks.py)
	$(BIN)/python scripts/normalize_notebooks.py

clean:
	rm -rf dist build .pytest_cache .mypy_cache .ruff_cache .venv-hypothesis-*

# `make run` and `make test` work on a fresh machine: they create .venv on first use.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: run test test-fast lint format bench clean rules-doc

# Compiled modules (and pytest's rewritten test modules) are cached in __pycache__, ignored
# by git, even where the environment sets PYTHONDONTWRITEBYTECODE: otherwise every run, and
# every pytest-xdist worker within it, compiles the whole tree again.
unexport PYTHONDONTWRITEBYTECODE

$(BIN)/lockin: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@# The first load of the rule registry compiles its regexes into a cache that every later
	@# command reads (bot/engine/precompiled.py): paid here, with the install, not by a scan.
	$(BIN)/lockin rules cuda.kernel > /dev/null
	@touch $@

run: $(BIN)/lockin
	$(BIN)/lockin scan examples/repo
	$(BIN)/lockin diff examples/change/before examples/change/after; \
	  status=$$?; echo "lockin diff exited $$status (1 = adds non-portable code without a decision)"; \
	  test $$status -le 1

test: lint
	$(BIN)/pytest -q

# Everything but the tests marked slow (about a second or more each), scale (Redis, worker
# processes) and browser (headless Chromium), on every core: the loop to run while working.
test-fast: $(BIN)/lockin
	$(BIN)/pytest -q -n auto -m "not slow and not scale and not browser"

lint: $(BIN)/lockin
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy bot

format: $(BIN)/lockin
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# docs/rules.md is generated from the rule files; tests/cli/test_rules_cli.py fails when stale.
rules-doc: $(BIN)/lockin
	$(BIN)/python -m bot.render.rules_page docs/rules.md

bench: $(BIN)/lockin
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis
	find bot tests bench -name __pycache__ -prune -exec rm -rf {} +

# bohnteach — run the site and the tests from a bare Debian machine with Python 3.11.
#
#   make serve   the Voilà site on http://127.0.0.1:8866 (PORT=..., PUBLIC=1)
#   make test    every test, including the browser tests in Debian's chromium
#   make static  the whole site as static files in STATIC_OUT (Voici; see README)
#
# The virtualenv lives in .venv; stamp files keep repeated runs fast, and are
# renewed whenever pyproject.toml changes.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 8866
PUBLIC ?=
PYTEST_ARGS ?=
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_ENV := env DEBIAN_FRONTEND=noninteractive

RUN_STAMP := $(VENV)/.bohnteach-run.stamp
TEST_STAMP := $(VENV)/.bohnteach-test.stamp
STATIC_STAMP := $(VENV)/.bohnteach-static.stamp
STATIC_OUT ?= _site

.PHONY: serve test static install install-test chromium npm clean

serve: $(RUN_STAMP)
	$(BIN)/bohnteach serve --port $(PORT) $(if $(PUBLIC),--public)

test: $(TEST_STAMP) $(STATIC_STAMP) chromium npm
	$(BIN)/python -m pytest $(PYTEST_ARGS)

install: $(RUN_STAMP)
install-test: $(TEST_STAMP)

# A venv with pip. Debian's own python3 needs the python3-venv package for that.
$(BIN)/python:
	@if ! $(PYTHON) -m venv $(VENV); then \
	  echo "python3 -m venv failed; installing Debian's python3-venv"; \
	  rm -rf $(VENV); \
	  $(SUDO) apt-get update; \
	  $(SUDO) $(APT_ENV) apt-get install -y python3-venv; \
	  $(PYTHON) -m venv $(VENV); \
	fi

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -e '.[test]'
	touch $@ $(RUN_STAMP)

static: $(STATIC_STAMP) npm
	$(BIN)/bohnteach build-static $(STATIC_OUT)

# The static site's build tools (pyproject's [static] extra) beside whatever else is in
# the venv; `make test` needs them for tests/test_static_site.py.
$(STATIC_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -e '.[static]'
	touch $@

# build-static fetches Pyodide's core from the npm registry with `npm pack`.
npm:
	@if ! command -v npm >/dev/null; then \
	  echo "installing Debian's npm"; \
	  $(SUDO) apt-get update; \
	  $(SUDO) $(APT_ENV) apt-get install -y npm; \
	fi

chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
	  echo "installing Debian's chromium"; \
	  $(SUDO) apt-get update; \
	  $(SUDO) $(APT_ENV) apt-get install -y chromium; \
	fi

clean:
	rm -rf $(VENV) .pytest_cache $(STATIC_OUT)

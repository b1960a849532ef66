# bohnteach — run the site and the tests from a bare Debian machine with Python 3.11.
#
#   make serve   the Voilà site on http://127.0.0.1:8866 (PORT=..., PUBLIC=1)
#   make test    every test, including the browser tests in Debian's chromium and the
#                static site's (built once, cached in ~/.cache/bohnteach-static)
#   make static  the whole site as static files in STATIC_OUT (Voici; docs/static-site.md)
#   make cluster the site behind HAProxy on one machine, to try: PostgreSQL, SERVERS servers
#                (default 2), the balancer on http://127.0.0.1:8080/bohnanza/ (CLUSTER_PORT=...;
#                docs/operations.md, deploy/)
#   make fast    the optional mypyc build of the engine (.compiled/), used only with
#                BOHNTEACH_COMPILED=1 (benchmarks/engine.py measures it); make
#                test updates it and runs the input contract's tests in it too
#
# The virtualenv lives in .venv; every install is constrained by requirements.lock (the
# exact versions of the whole environment: runtime, tests and all extras). Stamp files keep
# repeated runs fast, and are renewed whenever pyproject.toml or the lock changes.
#
#   make lock            re-resolve requirements.lock from pyproject.toml (keeps the pins
#                        that still fit; UPGRADE=1 takes the newest versions) -
#                        docs/upgrading.md, "How to upgrade on purpose"
#   make upgrade-check   the upgrade drill: the adapted packages at the newest versions their
#                        ranges allow, in a throwaway venv; what broke (docs/upstream.md)

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

LOCK := requirements.lock
# uv only resolves the lock (make lock); installs use pip. Installed from PyPI into the venv.
UV_VERSION := 0.13.9
UPGRADE ?=
LOCK_ARGS := pip compile pyproject.toml --all-extras --python-version 3.11 \
  --python-platform x86_64-manylinux_2_28 -o $(LOCK)

RUN_STAMP := $(VENV)/.bohnteach-run.stamp
TEST_STAMP := $(VENV)/.bohnteach-test.stamp
STATIC_STAMP := $(VENV)/.bohnteach-static.stamp
FAST_STAMP := $(VENV)/.bohnteach-fast.stamp
STATIC_OUT ?= _site

.PHONY: serve test test-static static install install-test lock upgrade-check chromium npm compiler \
  postgresql haproxy cluster clean fast i18n-extract i18n-update

serve: $(RUN_STAMP)
	$(BIN)/bohnteach serve --port $(PORT) $(if $(PUBLIC),--public)

test: $(TEST_STAMP) $(STATIC_STAMP) $(FAST_STAMP) chromium npm compiler postgresql haproxy
	$(BIN)/python -m bohnteach._compiled update
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# Only the static site's tests (tests/test_static_site.py, also part of `make test`): the
# site built once (cached by a hash of its inputs) and every page opened in chromium.
test-static: $(TEST_STAMP) $(STATIC_STAMP) chromium npm
	$(BIN)/python -m pytest tests/test_static_site.py $(PYTEST_ARGS)

# The translation catalogues (docs/translating.md): i18n-extract writes the templates
# bohnteach/locale/*.pot from the German texts; i18n-update merges them into every
# language's .po (a changed German text marks its translation fuzzy). Babel: [test] extra.
i18n-extract: $(TEST_STAMP)
	$(BIN)/python -m bohnteach.catalogues extract

i18n-update: $(TEST_STAMP)
	$(BIN)/python -m bohnteach.catalogues update

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

# The site needs the extras [site] (Voilà, the fork server) and [klasse] (the class room).
$(RUN_STAMP): pyproject.toml $(LOCK) | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -c $(LOCK) -e '.[site,klasse]'
	$(BIN)/python -m pip check
	touch $@

$(TEST_STAMP): pyproject.toml $(LOCK) | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -c $(LOCK) -e '.[test,site,klasse]'
	$(BIN)/python -m pip check
	touch $@ $(RUN_STAMP)

# Re-resolve the lock on purpose; then run `make test` and the probe (docs/upgrading.md).
lock: | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q 'uv==$(UV_VERSION)'
	$(BIN)/uv $(LOCK_ARGS) $(if $(UPGRADE),--upgrade) \
	  --custom-compile-command "make lock (= uv==$(UV_VERSION) $(LOCK_ARGS))"

# The upgrade drill (docs/upstream.md): a throwaway venv with the newest versions that
# pyproject's [tool.bohnteach.upgrade] ranges allow, the pins of the adapted packages lifted
# (uv's --override); then the adapters' self-checks and a fast part of the suite. Prints
# what broke; the project's own venv and lock stay as they are.
UPGRADE_VENV := $(or $(UPGRADE_VENV),$(shell mktemp -d -u /tmp/bohnteach-upgrade-XXXXXX))
UPGRADE_TESTS ?= tests/test_upstream_checks.py tests/test_upstream_boundary.py tests/test_serve.py tests/test_admission.py
upgrade-check: | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q 'uv==$(UV_VERSION)'
	$(BIN)/python -c 'import tomllib; r = tomllib.load(open("pyproject.toml", "rb"))["tool"]["bohnteach"]["upgrade"]; print("\n".join(n + v for n, v in r.items()))' > $(UPGRADE_VENV).ranges
	$(BIN)/uv venv -q --python $(PYTHON) $(UPGRADE_VENV)
	$(BIN)/uv pip install -q --python $(UPGRADE_VENV)/bin/python --override $(UPGRADE_VENV).ranges \
	  -e '.[test,site,klasse,static]'
	@echo "== the adapted packages, newest in range:"
	@$(BIN)/uv pip list -q --python $(UPGRADE_VENV)/bin/python 2>/dev/null \
	  | grep -iE "^($$(cut -d'>' -f1 $(UPGRADE_VENV).ranges | sed 's/[-_]/[-_]/g' | paste -sd'|')) " || true
	@echo "== self-checks:"
	@$(UPGRADE_VENV)/bin/python -m bohnteach.upstream || echo "(self-checks failed: above)"
	@echo "== tests: $(UPGRADE_TESTS) (servers start even where the checks refuse, to show what else breaks)"
	@cd $(UPGRADE_VENV) && BOHNTEACH_UPSTREAM_CHECKED=1 $(UPGRADE_VENV)/bin/python -m pytest -q -p no:cacheprovider \
	  --rootdir=$(CURDIR) -c $(CURDIR)/pyproject.toml $(addprefix $(CURDIR)/,$(UPGRADE_TESTS)) \
	  || echo "(tests failed: above)"
	rm -rf $(UPGRADE_VENV) $(UPGRADE_VENV).ranges

static: $(STATIC_STAMP) npm
	$(BIN)/bohnteach build-static $(STATIC_OUT)

# The static site's build tools (pyproject's [static] extra) beside whatever else is in
# the venv; `make test` needs them for tests/test_static_site.py.
$(STATIC_STAMP): pyproject.toml $(LOCK) | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -c $(LOCK) -e '.[static]'
	touch $@

# mypyc (the [fast] extra) compiles the hot modules into .compiled/; pure Python stays the
# default, the build is imported only with BOHNTEACH_COMPILED=1 and only while it is current.
# `make test` updates the build too, so that tests/test_compiled_build.py checks it.
fast: $(FAST_STAMP) compiler
	$(BIN)/python -m bohnteach._compiled build

$(FAST_STAMP): pyproject.toml $(LOCK) $(RUN_STAMP)
	$(BIN)/python -m pip install --disable-pip-version-check -q -c $(LOCK) -e '.[fast]'
	touch $@

# build-static fetches Pyodide's core from the npm registry with `npm pack` and runs it in
# Node to byte-compile the browser's wheels (Debian's npm brings nodejs).
npm:
	@if ! command -v npm >/dev/null; then \
	  echo "installing Debian's npm"; \
	  $(SUDO) apt-get update; \
	  $(SUDO) $(APT_ENV) apt-get install -y npm; \
	fi

# mypyc needs a C compiler and Python's headers.
compiler:
	@if ! command -v cc >/dev/null || [ ! -f "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ]; then \
	  echo "installing Debian's gcc and python3-dev (for make fast)"; \
	  $(SUDO) apt-get update; \
	  $(SUDO) $(APT_ENV) apt-get install -y gcc python3-dev; \
	fi

chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
	  echo "installing Debian's chromium"; \
	  $(SUDO) apt-get update; \
	  $(SUDO) $(APT_ENV) apt-get install -y chromium; \
	fi

# The class store's tests (tests/test_classroom_store.py) start a throwaway PostgreSQL server
# of their own (tests/pg_cluster.py: initdb + pg_ctl, as nobody when run as root); Debian's
# package brings the binaries (its own cluster is not used).
postgresql:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  echo "installing Debian's postgresql (for the class store's tests)"; \
	  $(SUDO) apt-get update; \
	  $(SUDO) $(APT_ENV) apt-get install -y postgresql; \
	fi

# Several servers behind Debian's HAProxy (tests/test_cluster_browser.py, `make cluster`,
# benchmarks/load.py --cluster); the package's own service stays off.
haproxy:
	@if ! command -v haproxy >/dev/null && [ ! -x /usr/sbin/haproxy ]; then \
	  echo "installing Debian's haproxy (for the balancer's tests and make cluster)"; \
	  $(SUDO) apt-get update; \
	  $(SUDO) $(APT_ENV) apt-get install -y haproxy; \
	fi

SERVERS ?= 2
CLUSTER_PORT ?= 8080
cluster: $(RUN_STAMP) postgresql haproxy
	$(BIN)/bohnteach cluster --server $(SERVERS) --port $(CLUSTER_PORT)

clean:
	rm -rf $(VENV) .pytest_cache $(STATIC_OUT) .compiled

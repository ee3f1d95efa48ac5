# Two commands for a fresh machine: `make run` serves the product, `make test`
# lints, then runs the whole suite. Both install what they need into .venv first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The browser tests drive Debian's Chromium (Playwright without its own browser download).
CHROMIUM := /usr/bin/chromium
# The scale-out tests run two web processes sharing Debian's Redis as their channel layer.
REDIS := /usr/bin/redis-server
# The browser tests install axe-core from npm into var/cache (tests/e2e/accessibility.py).
NPM := /usr/bin/npm

# Where PYTHONDONTWRITEBYTECODE is set, nothing Python compiles on import is kept: the product's own
# modules are compiled here (a second or two), so the many processes `serve` and the suite start
# do not each compile them again. Packages are compiled at install.
BYTECODE := $(PY) -m compileall -q -j 0 agentsite chat database_pool llm rag

.PHONY: run test install

install: $(STAMP)

# LightGBM's library (the learned file ranking's trees) links to the OpenMP runtime, Debian's libgomp1.
$(STAMP): pyproject.toml
	PATH="$$PATH:/usr/sbin:/sbin" ldconfig -p | grep -q libgomp.so.1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libgomp1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	# uv resolves what pip would and installs it several times faster (a fresh install: about 35 s
	# against pip's 115 s here), compiling the packages' bytecode as pip does.
	$(PY) -m pip install --quiet --disable-pip-version-check 'uv>=0.9,<1'
	$(VENV)/bin/uv pip install --quiet --compile-bytecode --python $(PY) -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BYTECODE)
	$(PY) manage.py serve

$(CHROMIUM):
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver

$(REDIS):
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server

$(NPM):
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm

test: $(STAMP) $(CHROMIUM) $(REDIS) $(NPM)
	$(VENV)/bin/ruff check .
	$(BYTECODE) tests
	$(PY) -m pytest --numprocesses 2 --dist worksteal

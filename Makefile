# Everything runs from .venv, built on first use from requirements-dev.txt (the
# service's requirements.txt and the tools), so a fresh clone needs nothing but
# python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: venv run migrate static messages gettext test chromium browser-deps spamassassin

venv: $(VENV)/.installed

# The stamp is newer than the requirements only after a complete install, so
# an interrupted install is retried and a changed requirements file reinstalls.
$(VENV)/.installed: requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -r requirements-dev.txt
	touch $@

migrate: venv
	$(BIN)/python manage.py migrate

# The German catalogue (locale/de/LC_MESSAGES/django.po), compiled for Django;
# rebuilt whenever a .po is newer than its .mo.
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/django.po))
messages: $(CATALOGUES)

locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po | venv gettext
	$(BIN)/python manage.py compilemessages -v 0 -l $* --ignore=.venv --ignore=var

# compilemessages and makemessages need GNU gettext (Debian's package).
gettext:
	@command -v msgfmt >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; }

# Static files into var/static, served by WhiteNoise as in production.
static: venv
	$(BIN)/python manage.py collectstatic --noinput -v 0

# Web, Celery worker and beat together (Procfile.dev); Ctrl-C stops all three.
run: migrate static messages
	$(BIN)/honcho start -f Procfile.dev

# Four pytest-xdist workers on this 2-core machine: with two, a third of the
# CPU sat idle while tests waited on Chromium, Celery workers and servers
# (README, "Tests"). Each has its own VAR_DIR, Redis databases and
# test database (tests/parallel.py); Redis's 16 databases allow five.
# Heavy tests go out first (tests/conftest.py). PYTEST_WORKERS=0 runs the
# suite in one process, as a plain `.venv/bin/python -m pytest` does.
PYTEST_WORKERS ?= 4
test: venv messages chromium browser-deps spamassassin
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadgroup

# SpamAssassin scores one email of each kind in each language
# (tests/mail/test_spam_scores.py), with its local rules only: Debian's package,
# without the daemon and the rule compiler it recommends.
spamassassin:
	@command -v spamassassin >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends spamassassin >/dev/null; }

# The browser tests drive Debian's Chromium (Playwright cannot download its own
# browser here): its headless shell, and the full browser for the one test
# that holds the two alike. make test installs them (apt-get, as root); where
# that cannot be done, the browser tests skip and say so.
chromium:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromium-headless-shell ]; then \
		echo "Chromium: $$(/usr/bin/chromium --version 2>/dev/null), and its headless shell"; \
	else { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null; } \
		|| echo "Chromium could not be installed (apt-get, as root): the browser tests will skip"; fi

# axe-core, which the accessibility tests inject into pages, pinned in
# package.json and package-lock.json, installed into node_modules/. Without
# npm this says so and goes on: those tests then skip with the reason (and
# fail under VERSAILLES_REQUIRE_BROWSER=1, as CI runs them).
browser-deps: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --loglevel=error && touch $@; \
	else echo "npm is missing: the accessibility tests will skip (apt-get install npm to run them)"; fi

# Locust and whatever else only the benches use (bench/load.py).
.PHONY: bench-deps
bench-deps: venv
	$(BIN)/python -m pip install -r bench/requirements.txt

# Everything runs from .venv, built from requirements.txt on first use, so a
# fresh clone needs nothing but python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: venv run migrate test

venv: $(VENV)/.installed

# The stamp is newer than requirements.txt only after a complete install, so
# an interrupted install is retried and a changed requirements.txt reinstalls.
$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -r requirements.txt
	touch $@

migrate: venv
	$(BIN)/python manage.py migrate

# Web, Celery worker and beat together (Procfile.dev); Ctrl-C stops all three.
run: migrate
	$(BIN)/honcho start -f Procfile.dev

test: venv
	$(BIN)/python -m pytest

# Lantern: `make run` to try it, `make test` to check it. See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# Empty: scripts/install.sh takes the newest Python >= 3.11 it finds (set it to choose one).
PYTHON_BOOTSTRAP ?=
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: help install run test check-system services worker bench prod load messages

help:
	@echo "make run       install (when needed), migrate, load demo data, serve on 127.0.0.1:$(PORT)"
	@echo "make test      ruff (lint and format), the import contracts, mypy on the engine, then the whole pytest suite"
	@echo "               (first scripts/check_system.sh: the Debian packages it needs, if missing;"
	@echo "               PYTEST_ARGS='-m \"not live\"': pytest's options, e.g. what .ci/run runs apart)"
	@echo "make services  install and start PostgreSQL and Redis on 127.0.0.1, print the URLs"
	@echo "make worker    a Celery worker (export REDIS_URL first)"
	@echo "make bench     run every bench/*.py (QUICK=1: small sizes, only to see each runs to its end;"
	@echo "               make test does that too)"
	@echo "make messages  the ja and ru catalogs (locale/) brought up to date with the marked"
	@echo "               strings and compiled (needs GNU gettext); then translate what is new"
	@echo "make prod      production on this machine: gunicorn, a Celery worker, an analysis worker and"
	@echo "               beat, DEBUG off, PostgreSQL and Redis on loopback, JSON logs; Ctrl-C stops all"
	@echo "               (docs/operations.md)"
	@echo "make load      the load test (bench/load/): seeds, runs make prod, wrk, checks ratings"

install:
	@VENV="$(VENV)" PYTHON_BOOTSTRAP="$(PYTHON_BOOTSTRAP)" scripts/install.sh

run: install
	$(PY) manage.py migrate --no-input
	$(PY) manage.py seed_demo
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

# First what the machine needs beyond Python (scripts/check_system.sh names what is missing).
test: check-system install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest $(PYTEST_ARGS)

check-system:
	@scripts/check_system.sh

messages:
	$(PY) -m config.catalogs

services:
	@source scripts/services.sh && services_install && services_start && services_create_database \
		&& echo && echo "PostgreSQL and Redis are running on 127.0.0.1. Use them with:" && services_urls

worker: install
	$(VENV)/bin/celery -A config worker --loglevel=INFO

prod: install
	@scripts/prod.sh

load: install
	@bench/load/run.sh

bench: install
	@shopt -s nullglob; scripts=(bench/*.py); \
	if [ $${#scripts[@]} -eq 0 ]; then echo "no benchmarks in bench/ yet"; exit 0; fi; \
	status=0; for script in "$${scripts[@]}"; do \
		echo "== $$script"; "$(PY)" "$$script" $(if $(QUICK),--quick) || { echo "!! $$script failed"; status=1; }; \
	done; exit $$status

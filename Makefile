# Lantern: `make run` to try it, `make test` to check it. See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON_BOOTSTRAP ?= python3.11
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: help run test lint services worker bench install migrate seed

help:
	@echo "make run       install (when needed), migrate, load demo data, serve on 127.0.0.1:$(PORT)"
	@echo "make test      ruff, then the whole pytest suite"
	@echo "make services  install and start PostgreSQL and Redis on 127.0.0.1"
	@echo "make worker    a Celery worker (needs REDIS_URL)"
	@echo "make bench     run every bench/*.py"

test:
	$(VENV)/bin/ruff check .
	$(VENV)/bin/pytest

bench:
	@for script in bench/*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

"""gunicorn's settings file (config/gunicorn.py), as `make prod` loads it."""

import gc
import runpy
from pathlib import Path

import config

GUNICORN_SETTINGS = Path(config.__file__).with_name("gunicorn.py")


def test_a_worker_freezes_its_start_up_objects():
    settings = runpy.run_path(str(GUNICORN_SETTINGS))
    assert settings["wsgi_app"] == "config.wsgi:application"
    gc.unfreeze()
    try:
        settings["post_worker_init"](worker=None)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()

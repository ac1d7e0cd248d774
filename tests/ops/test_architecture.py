"""The architecture, held by tools (``make test`` runs them first, this suite again so that
a plain pytest run catches a break too):

- import-linter (``[tool.importlinter]`` in pyproject.toml): the engine imports no Django
  and no app; no import cycle inside an app; the apps in layers, each importing only the
  apps below it (only the URL tree, the composition root, is excused); the apps use the
  engine through its package (``engine.__all__``), never a game's package, a core module
  or an AI module; inside the engine, the AI above the games, the games above the core;
- mypy on ``engine/`` (``[tool.mypy]``);
- the routes' convention, checked here: each app's pages in ``<app>/urls.py``, its API
  in ``<app>/api_urls.py``, each mounted once by config/urls.py, and no route hidden by
  one mounted before it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver, include, path
from django.urls.resolvers import RegexPattern, RoutePattern

import config.urls

BIN = Path(sys.executable).parent


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=600
    )


def test_import_contracts_hold() -> None:
    result = _run([str(BIN / "lint-imports"), "--no-cache"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_the_engine_type_checks(tmp_path: Path) -> None:
    result = _run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path)])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success" in result.stdout


def _project_apps() -> list[str]:
    """The apps of this repository (not Django's or a library's)."""
    return [
        app
        for app in settings.INSTALLED_APPS
        if "." not in app and (Path(settings.BASE_DIR) / app / "__init__.py").exists()
    ]


def test_routes_live_in_one_pair_of_modules_per_app() -> None:
    """Pages in ``<app>/urls.py``, API routes in ``<app>/api_urls.py``, websocket routes in
    ``<app>/routing.py`` (Channels' name; config/asgi.py mounts them): no other module of
    an app (an ``api/urls.py``, a ``club_urls.py``) holds routes."""
    base = Path(settings.BASE_DIR)
    strays = [
        str(path.relative_to(base))
        for app in [*_project_apps(), "config"]
        for path in (base / app).rglob("*.py")
        if "urlpatterns" in path.read_text(encoding="utf-8")
        and path.relative_to(base / app).as_posix()
        not in ("urls.py", "api_urls.py", "routing.py", "asgi.py")
        and "/tests/" not in path.as_posix()
    ]
    assert strays == [], f"routes outside <app>/urls.py and <app>/api_urls.py: {strays}"


def test_each_route_module_is_mounted_once_pages_at_the_root_and_apis_under_api() -> None:
    mounted: list[tuple[str, str]] = [
        (str(entry.pattern), entry.urlconf_name.__name__)
        for entry in config.urls.urlpatterns
        if isinstance(entry, URLResolver) and isinstance(entry.urlconf_name, ModuleType)
    ]
    names = [module for _prefix, module in mounted]
    assert len(names) == len(set(names)), f"a route module mounted twice: {names}"
    base = Path(settings.BASE_DIR)
    expected = {
        (prefix, f"{app}.{module}")
        for app in _project_apps()
        for prefix, module in (("", "urls"), ("api/", "api_urls"))
        if (base / app / f"{module}.py").exists()
    }
    assert set(mounted) == expected


def _routes(patterns: list, prefix: str = "", namespace: str = ""):
    """(full route, namespaced name) of every path() route, through every include."""
    for entry in patterns:
        if not isinstance(entry.pattern, RoutePattern):
            continue  # a regular expression (the JSON 404, the export): no sample to make
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLPattern):
            yield route, f"{namespace}{entry.name or ''}"
        elif isinstance(entry, URLResolver) and entry.namespace != "admin":
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _routes(entry.url_patterns, route, inner)


SAMPLES = {
    "id": "7",
    "slug": "a-slug",
    "str": "a-str",
    "handle": "a-handle",
    "path": "a/path",
    "uuidb64": "x",
    "int": "7",
}


def _sample(route: str) -> str:
    """A URL ``route`` matches: each ``<converter:name>`` filled with a value of its kind."""
    return "/" + re.sub(r"<(?:(\w+):)?\w+>", lambda m: SAMPLES[m.group(1) or "str"], route)


def _hidden_routes(resolver: URLResolver) -> list[tuple[str, str]]:
    """(route, the route its sample URL reaches instead) for each route hidden by another."""
    routes = [route for route, _name in _routes(resolver.url_patterns)]
    assert routes
    return [
        (route, resolver.resolve(_sample(route)).route)
        for route in routes
        if resolver.resolve(_sample(route)).route != route
    ]


def test_no_route_is_hidden_by_one_mounted_before_it() -> None:
    """Every app's pages share the root, so the order of the mounts matters: a route
    earlier in the tree must not take a later one's URL. Each route's sample URL reaches
    that route."""
    assert len(list(_routes(get_resolver().url_patterns))) > 100
    assert _hidden_routes(get_resolver()) == []


def test_a_route_mounted_too_early_is_found_hiding_another() -> None:
    """The check can fail: pages' club page (``clubs/<slug>/``) mounted before clubs.urls
    takes its ``clubs/new/``."""
    wrong_order = URLResolver(
        RegexPattern(r"^/"), [path("", include("pages.urls")), path("", include("clubs.urls"))]
    )
    assert ("clubs/new/", "clubs/<slug:slug>/") in _hidden_routes(wrong_order)


#: The ORM's writes. A page or API module that calls one writes past the services (a
#: ``.update(`` is a write only on a query: ``dict.update`` and ``set.update`` are not).
ORM_WRITES = {
    "save",
    "delete",
    "create",
    "get_or_create",
    "update_or_create",
    "bulk_create",
    "bulk_update",
}


def _page_and_api_modules() -> list[Path]:
    root = Path(settings.BASE_DIR)
    apps = [p.parent for p in root.glob("*/apps.py")]
    modules: list[Path] = []
    for app in apps:
        modules += [p for p in (app / "views.py", app / "api.py") if p.exists()]
        modules += sorted((app / "api").glob("*.py")) if (app / "api").is_dir() else []
    return sorted(modules)


def orm_writes_in(source: str) -> list[str]:
    """``name:line`` of each ORM write called in ``source`` (a module's text), and of each
    query started from a manager (``Model.objects``): reads belong in selectors. (A view
    may still fetch the one object its URL names with ``get_object_or_404``, the
    styleguide's own ``get_object``.)"""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "objects":
            found.append(f"objects:{node.lineno}")
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        name = node.func.attr
        receiver = ast.unparse(node.func.value)
        if name in ORM_WRITES or (
            name == "update" and (".objects" in receiver or "filter(" in receiver)
        ):
            found.append(f"{name}:{node.lineno}")
    return found


def test_pages_and_apis_go_through_services_and_selectors() -> None:
    """The styleguide's rule, held: a page or an API view reads through selectors and asks
    a service to write; it never queries a manager or calls the ORM's writes itself (a
    form's or a serializer's ``save`` included: the service does the saving)."""
    modules = _page_and_api_modules()
    assert len(modules) >= 10, modules  # the walk finds the apps' views and APIs
    writes = {
        str(m.relative_to(settings.BASE_DIR)): orm_writes_in(m.read_text(encoding="utf-8"))
        for m in modules
    }
    assert {m: w for m, w in writes.items() if w} == {}


def test_an_orm_write_or_query_in_a_view_is_found() -> None:
    view = (
        "def signup(request):\n    user = form.save()\n"
        "    Player.objects.filter(club=club).update(handle='x')\n    options.update(x=1)\n"
    )
    assert sorted(orm_writes_in(view)) == ["objects:3", "save:2", "update:3"]

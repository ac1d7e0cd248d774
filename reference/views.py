"""The rules reference pages: ``/rules/`` and ``/rules/<document>/``, public, no database."""

from __future__ import annotations

from functools import cache

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import get_language_info
from django.views.decorators.http import require_safe

from reference import documents
from reference.links import rule_url


def _language(request: HttpRequest, slug: str) -> str:
    """``?lang=``, else the reader's language (accounts.middleware), when the document
    has that translation; else English."""
    wanted = (
        request.GET.get("lang")
        or (translation.get_language() or documents.DEFAULT_LANGUAGE).split("-")[0]
    )
    return wanted if wanted in documents.languages(slug) else documents.DEFAULT_LANGUAGE


def _language_name(code: str) -> str:
    """``日本語`` for ``ja``: a language as its readers write it (the code when Django does
    not know it)."""
    try:
        return get_language_info(code)["name_local"]
    except KeyError:
        return code


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    entries = [
        (info, documents.document(info.slug, _language(request, info.slug)))
        for info in documents.documents()
    ]
    return render(
        request,
        "reference/index.html",
        {
            "games": [(i, d) for i, d in entries if i.kind == "game"],
            "others": [(i, d) for i, d in entries if i.kind != "game"],
        },
    )


@cache
def _body(document: documents.Document) -> str:
    """The document's HTML, rendered once per parsed document (the files change only
    with a release). A translation's links to rules and to the other documents stay in
    its language (``/rules/mister-x/?lang=ja#MX-3.7``); a document not translated into
    it falls back to English there as here."""
    suffix = "" if document.language == documents.DEFAULT_LANGUAGE else f"?lang={document.language}"

    def url_of(rule: str) -> str | None:
        url = rule_url(rule)
        return url.replace("/#", f"/{suffix}#", 1) if url and suffix else url

    return documents.render(
        document, url_of, lambda other: reverse("reference:document", args=[other]) + suffix
    )


@require_safe
def document_page(request: HttpRequest, document: str) -> HttpResponse:
    slug = document
    if documents.info(slug) is None:
        raise Http404("no such document")
    language = _language(request, slug)
    parsed = documents.document(slug, language)
    written_in = documents.languages(slug)
    return render(
        request,
        "reference/document.html",
        {
            "document": parsed,
            "body": mark_safe(_body(parsed)),  # noqa: S308 - markdown-it with raw HTML off escapes the source
            "others": [
                documents.document(i.slug, _language(request, i.slug))
                for i in documents.documents()
                if i.slug != slug
            ],
            # the languages this document is written in, when there is more than one
            "languages": [(code, _language_name(code)) for code in written_in]
            if len(written_in) > 1
            else [],
        },
    )

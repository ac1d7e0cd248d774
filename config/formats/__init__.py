"""The site's date formats where they differ from Django's for a language
(settings.FORMAT_MODULE_PATH): pages write ``|date:"SHORT_DATE_FORMAT"`` and
``|date:"SHORT_DATETIME_FORMAT"``, and each language says them its own way. Russian keeps
Django's (25.11.2026 16:56)."""

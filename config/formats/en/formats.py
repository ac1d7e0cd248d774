# English pages keep the ISO dates they always showed (2026-11-25 16:56), not the US
# month/day order of Django's English formats.
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"

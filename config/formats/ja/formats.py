# Japanese dates as they are written: 2026年11月25日 16:56 (Django's short form is 2026/11/25).
SHORT_DATE_FORMAT = "Y年n月j日"
SHORT_DATETIME_FORMAT = "Y年n月j日 G:i"

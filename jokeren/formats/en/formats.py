"""English date and time formats (FORMAT_MODULE_PATH): 24-hour clock, day before month
(never the US "12/30/2026 8:49 p.m."), the time zone's abbreviation after every time:
"30 December 2026, 20:49 CET"."""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i T"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
SHORT_DATE_FORMAT = "j/n/Y"
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","

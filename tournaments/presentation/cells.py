"""Cells of the site's CSV downloads, safe to open in a spreadsheet: a text cell that a
spreadsheet would read as a formula (OWASP, "CSV Injection": one that starts with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return) is written with a ``'`` in front, so
it shows as the text it is. A number the site writes ("-3.5", "-3,5" in the ``;`` file,
"12") is left as it is.
"""

from __future__ import annotations

import re
from typing import Any

#: What a spreadsheet may take for the start of a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: A number as the site writes it (``numbers.result_csv``, whole numbers), with a decimal
#: point or a decimal comma.
_NUMBER = re.compile(r"-?\d+([.,]\d+)?")


def safe_cell(value: Any) -> Any:
    """``value`` for a CSV cell: text that starts like a formula gets a leading ``'``
    (the csv writer doubles any quote inside); numbers and other text are unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value

"""What the site writes to its log, beyond Django's and Celery's defaults.

An ordinary 403 or 404 (a wrong address, a page someone may not see) is one log line,
never a traceback: Django logs such responses on ``django.request`` with the exception
that caused them. ``ClientErrorsOnOneLine`` strips it; with ``drop`` (the development
server, whose own access line already names the request and its status) it leaves them
out altogether. A 5xx keeps its traceback."""

from __future__ import annotations

import logging


class ClientErrorsOnOneLine(logging.Filter):
    """A ``django.request`` record of a 4xx response without its traceback (``drop``:
    left out)."""

    def __init__(self, drop: bool = False) -> None:
        super().__init__()
        self.drop = drop

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500:
            if self.drop:
                return False
            record.exc_info = None
            record.exc_text = None
        return True

"""Control characters in a form's fields, answered as the field's error.

``jokeren.guards.ControlCharacterMiddleware`` answers any request holding a C0 control
character with a 400 before a view runs, except the form POSTs of a view marked
``@checks_control_characters``: such a view's forms (``RefusesControlCharacters``) give
each field that holds one its own error (code ``control_character``), the form is shown
again with it, and ``form_status`` answers it with a 400. Tab, line feed and carriage
return are text there, as everywhere a text area sends them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

#: Every C0 control character, and those of them a form field or JSON string may hold.
CONTROL = re.compile("[\x00-\x1f]")
CONTROL_IN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
#: The error code of a field that holds a control character.
CODE = "control_character"
#: The attribute that marks a view whose forms check control characters themselves.
MARK = "checks_control_characters"

V = TypeVar("V", bound=Callable[..., Any])


def checks_control_characters(view: V) -> V:
    """Mark ``view``: its form fields are checked by its forms, not by the middleware."""
    setattr(view, MARK, True)
    return view


def view_checks_control_characters(view: Callable[..., Any]) -> bool:
    return bool(getattr(view, MARK, False))


class RefusesControlCharacters(forms.BaseForm):
    """A form mixin (first among the bases): every field whose submitted value holds a
    control character other than tab, LF and CR gets the error ``control_character``, and
    the form's own ``clean`` (which may look things up with the values: the log-in's
    password check) is not run."""

    def control_character_fields(self) -> list[str]:
        """The fields whose submitted value holds a control character."""
        getlist = getattr(self.data, "getlist", None)
        found = []
        for name in self.fields:
            key = self.add_prefix(name)
            values = getlist(key) if getlist is not None else [self.data.get(key)]
            if any(isinstance(v, str) and CONTROL_IN_TEXT.search(v) for v in values):
                found.append(name)
        return found

    def clean(self) -> dict[str, Any]:
        found = self.control_character_fields()
        for name in found:
            self.errors.pop(name, None)  # this error says it all (Django's NUL one too)
            self.add_error(
                name,
                ValidationError(
                    _("This field holds a control character (such as NUL): leave it out."),
                    code=CODE,
                ),
            )
        if found:
            return self.cleaned_data
        return super().clean() or self.cleaned_data


def form_status(form: forms.BaseForm) -> int:
    """400 for a submitted form refused for a control character in a field, else 200."""
    if form.is_bound and any(
        error.code == CODE for errors in form.errors.as_data().values() for error in errors
    ):
        return 400
    return 200

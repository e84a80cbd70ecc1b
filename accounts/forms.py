"""The log-in and sign-up forms: allauth's, with a control character in a field as that
field's error (``common.forms``)."""

from __future__ import annotations

from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import SignupForm as AllauthSignupForm

from common.forms import RefusesControlCharacters


class LoginForm(RefusesControlCharacters, AllauthLoginForm):  # type: ignore[misc]
    """allauth's log-in form: the name or the mail address, and the password."""


class SignupForm(RefusesControlCharacters, AllauthSignupForm):  # type: ignore[misc]
    """allauth's sign-up form: a name, a mail address and the password twice."""

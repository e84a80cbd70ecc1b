"""The site's authentication backend under the name that settings and every session
already give it (``jokeren.auth.ModelBackend``: a session names the backend that logged
it in, and Django serves it only while that name is listed). It lives in
``common.auth``, below the app and the project, with the session claim the move uses."""

from common.auth import ModelBackend

__all__ = ["ModelBackend"]

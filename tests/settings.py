"""Settings of the test suite (pytest's ``--ds``) and of the type checker (django-stubs).

``jokeren.settings`` as the development server runs it (``scripts/run.sh``): DEBUG on when
the settings load, so the embedded development key is used and the production security
defaults (HTTPS redirect, secure cookies, hashed static files) stay off; pytest-django
then runs every test with ``settings.DEBUG = False``. With DEBUG off ``jokeren.settings``
refuses any key published with the code (tests/jokeren/test_settings.py runs it that
way, in a subprocess, with deploy/env.example's values).
"""

import os

os.environ["DEBUG"] = "true"

from jokeren.settings import *  # noqa: F403

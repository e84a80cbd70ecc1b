"""pytest plugin: the tests run on the pure-Python engine even where its compiled modules
(``engine.native.COMPILED_MODULES``) are built::

    .venv/bin/python -m pytest -p tests.pure_engine tests/engine

(``-p`` loads it before Django or any test imports an engine module.)
"""

from engine.native import prefer_pure

prefer_pure()

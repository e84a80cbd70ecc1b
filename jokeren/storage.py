"""Static files in production (DEBUG off): whitenoise's compressed manifest storage.

``collectstatic`` writes every file under a name with a hash of its content
(``css/site.3f2a9c1e7b0d.css``), beside a gzip and a Brotli copy; ``{% static %}`` links
the hashed name, and whitenoise serves the hashed files with far-future cache headers
(``Cache-Control: max-age=315360000, public, immutable``) and the compressed copy the
browser accepts. The card tables' scripts are ES modules that import each other
(``import ... from "./table-common.js"``): those imports are rewritten to the hashed
names too, so a changed module is never taken from a stale cache."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    """Hashed, compressed static files; the JS modules' relative imports hashed too."""

    support_js_module_import_aggregation = True

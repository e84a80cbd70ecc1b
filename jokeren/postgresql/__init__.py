"""The site's PostgreSQL backend: Django's (psycopg 3), with a health check that makes no
round trip (``base.DatabaseWrapper``)."""

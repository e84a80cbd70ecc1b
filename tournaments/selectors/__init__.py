"""The site's reads: they never write (docs/architecture.md)."""

"""Model instances from rows read with SQL written once (the hot paths of a move: the
session's user, the game with its entry and tournament), without the ORM building and
compiling the query on every request."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Model


@functools.cache
def _loader(model: type[Model], vendor: str) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """The attribute names of ``model``'s columns, in field order, and for each field its
    converters (the backend's, then the field's ``from_db_value``) with the column they
    convert. Cached per model and database vendor (one database a process)."""
    fields = model._meta.concrete_fields
    converters = []
    for field in fields:
        col = field.cached_col
        # The order of Django's SQL compiler: the backend's converters, then the field's.
        found = [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)]
        converters.append(tuple((convert, col) for convert in found))
    return tuple(f.attname for f in fields), tuple(converters)


def instance_from_row(model: type[Model], values: Sequence[Any]) -> Any:
    """An instance of ``model`` from its columns' values (every concrete field, in field
    order) as the database returned them, the backend's and each field's converters
    applied, as the ORM does."""
    names, converters = _loader(model, connection.vendor)
    converted = list(values)
    for i, field_converters in enumerate(converters):
        for convert, col in field_converters:
            converted[i] = convert(converted[i], col, connection)
    return model.from_db(connection.alias, list(names), converted)


def columns_of(model: type[Model], alias: str | None = None) -> str:
    """The quoted columns of every concrete field of ``model``, in field order (what
    ``instance_from_row`` reads), each prefixed by ``alias`` when given."""
    qn: Callable[[str], str] = connection.ops.quote_name
    prefix = f"{alias}." if alias else ""
    return ", ".join(f"{prefix}{qn(str(f.column))}" for f in model._meta.concrete_fields)

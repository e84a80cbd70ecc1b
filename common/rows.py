"""Model instances from rows read with SQL written once (the hot paths of a move: the
session's user, the game with its entry and tournament), without the ORM building and
compiling the query on every request."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import JSONField, Model


def database() -> Any:
    """The default database's connection wrapper itself: ``django.db.connection`` is a
    proxy that finds it again (a lookup in the thread's connections) on every attribute,
    and the fields' conversions ask it for ``ops`` and ``features`` many times a row."""
    return connections[DEFAULT_DB_ALIAS]


def hot_cursor() -> Any:
    """A cursor for a statement of the move's hot path, written once as SQL: prepared on
    the server where the backend can (``jokeren.postgresql``'s ``prepared_cursor``), a
    plain cursor elsewhere (SQLite)."""
    db = database()
    prepared = getattr(db, "prepared_cursor", None)
    return prepared() if prepared is not None else db.cursor()


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
    db = database()
    names, converters = _loader(model, db.vendor)
    converted = list(values)
    for i, field_converters in enumerate(converters):
        for convert, col in field_converters:
            converted[i] = convert(converted[i], col, db)
    return model.from_db(db.alias, list(names), converted)


def columns_of(model: type[Model], alias: str | None = None) -> str:
    """The quoted columns of every concrete field of ``model``, in field order (what
    ``instance_from_row`` reads), each prefixed by ``alias`` when given."""
    qn: Callable[[str], str] = connection.ops.quote_name
    prefix = f"{alias}." if alias else ""
    return ", ".join(f"{prefix}{qn(str(f.column))}" for f in model._meta.concrete_fields)


#: Rows an insert sends at most in one statement (20 columns: 40,000 parameters, under
#: PostgreSQL's 65,535; SQLite's own limit is applied besides, ``bulk_batch_size``).
INSERT_BATCH = 2000


@functools.lru_cache(maxsize=256)
def _insert_sql(
    model: type[Model],
    rows: int,
    unique_fields: tuple[str, ...],
    update_fields: tuple[str, ...],
) -> str:
    qn: Callable[[str], str] = connection.ops.quote_name
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (
        f"INSERT INTO {qn(model._meta.db_table)} ({', '.join(qn(str(f.column)) for f in fields)})"
        f" VALUES {', '.join([one] * rows)}"
    )
    if unique_fields:
        column = {f.name: str(f.column) for f in fields}
        sets = ", ".join(f"{qn(column[n])} = EXCLUDED.{qn(column[n])}" for n in update_fields)
        sql += (
            f" ON CONFLICT({', '.join(qn(column[n]) for n in unique_fields)}) DO UPDATE SET {sets}"
        )
    return sql


def insert_rows(
    model: type[Model],
    objs: Sequence[Model],
    *,
    unique_fields: Sequence[str] = (),
    update_fields: Sequence[str] = (),
) -> None:
    """Insert ``objs`` (new instances, their primary key left to the database and not read
    back) in statements written once per model and row count; with ``unique_fields`` a
    row that exists already gets ``update_fields`` from the new one (an upsert: what
    ``bulk_create(update_conflicts=True, ...)`` sends, without building it every time).
    A row that breaks a constraint otherwise raises ``IntegrityError``, as there."""
    if not objs:
        return
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    db = database()
    batch = max(1, min(INSERT_BATCH, db.ops.bulk_batch_size(fields, objs)))
    with db.cursor() as cursor:
        for start in range(0, len(objs), batch):
            chunk = objs[start : start + batch]
            params = [
                f.get_db_prep_save(f.pre_save(obj, True), db) for obj in chunk for f in fields
            ]
            sql = _insert_sql(model, len(chunk), tuple(unique_fields), tuple(update_fields))
            cursor.execute(sql, params)


@functools.cache
def _update_sql(model: type[Model], names: tuple[str, ...]) -> tuple[str, tuple[Any, ...]]:
    qn: Callable[[str], str] = connection.ops.quote_name
    fields = tuple(model._meta.get_field(name) for name in names)
    sets = ", ".join(f"{qn(str(f.column))} = %s" for f in fields)  # type: ignore[union-attr]
    pk = qn(str(model._meta.pk.column))
    return f"UPDATE {qn(model._meta.db_table)} SET {sets} WHERE {pk} = %s", fields


def update_rows(model: type[Model], objs: Sequence[Model], fields: Sequence[str]) -> None:
    """Write ``fields`` of the rows of ``objs`` (instances read from the database) in one
    ``executemany`` of a plain ``UPDATE ... WHERE pk`` written once per model and fields
    (``bulk_update`` builds one ``CASE`` per field over every row instead)."""
    if not objs:
        return
    sql, columns = _update_sql(model, tuple(fields))
    db = database()
    rows = [
        [*(f.get_db_prep_save(getattr(obj, f.attname), db) for f in columns), obj.pk]
        for obj in objs
    ]
    with db.cursor() as cursor:
        cursor.executemany(sql, rows)


@functools.cache
def _copy_sql(
    model: type[Model], unique_fields: tuple[str, ...], update_fields: tuple[str, ...]
) -> tuple[str, str, str, str, tuple[tuple[str, bool], ...]]:
    """The statements of ``copy_rows`` for ``model``: the staging table's creation, its
    ``COPY``, the upsert from it, its drop; and per column the attribute it is read from
    and whether it is JSON (sent as its text)."""
    qn: Callable[[str], str] = connection.ops.quote_name
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    table = qn(model._meta.db_table)
    stage = qn(f"stage_{model._meta.db_table}")
    columns = ", ".join(qn(str(f.column)) for f in fields)
    create = f"CREATE TEMPORARY TABLE {stage} AS SELECT {columns} FROM {table} WITH NO DATA"
    copy = f"COPY {stage} ({columns}) FROM STDIN"
    upsert = f"INSERT INTO {table} ({columns}) SELECT {columns} FROM {stage}"
    if unique_fields:
        column = {f.name: str(f.column) for f in fields}
        sets = ", ".join(f"{qn(column[n])} = EXCLUDED.{qn(column[n])}" for n in update_fields)
        upsert += (
            f" ON CONFLICT({', '.join(qn(column[n]) for n in unique_fields)}) DO UPDATE SET {sets}"
        )
    readers = tuple((f.attname, isinstance(f, JSONField)) for f in fields)
    return create, copy, upsert, f"DROP TABLE {stage}", readers


def copy_rows(
    model: type[Model],
    objs: Sequence[Model | Mapping[str, Any]],
    *,
    unique_fields: Sequence[str] = (),
    update_fields: Sequence[str] = (),
) -> None:
    """``insert_rows`` the way PostgreSQL takes many rows best: one ``COPY`` of them all
    into a staging table (psycopg's ``cursor.copy()``: no query text to build and convert,
    no parameter of each field prepared by the ORM), then one ``INSERT ... SELECT`` with
    the same upsert, in one transaction. Only for models of plain values (numbers, text,
    booleans, JSON) without a field that sets itself on save (``auto_now``): what the
    results tables hold. Elsewhere (SQLite) ``insert_rows`` itself. A row may be given as
    the mapping of every column's attribute name (``attname``) to its value instead of an
    instance: no model instance is built for it (a rebuild's 100,000 rows)."""
    if not objs:
        return
    db = database()
    if db.vendor != "postgresql":
        instances = [obj if isinstance(obj, Model) else model(**obj) for obj in objs]
        insert_rows(model, instances, unique_fields=unique_fields, update_fields=update_fields)
        return
    create, copy_sql, upsert, drop, readers = _copy_sql(
        model, tuple(unique_fields), tuple(update_fields)
    )
    with transaction.atomic(), db.cursor() as cursor:
        cursor.execute(create)
        with cursor.cursor.copy(copy_sql) as copy:
            for obj in objs:
                values = obj.__dict__ if isinstance(obj, Model) else obj
                copy.write_row(
                    [
                        json.dumps(values[name]) if is_json else values[name]
                        for name, is_json in readers
                    ]
                )
        cursor.execute(upsert)
        cursor.execute(drop)

"""Reads and writes every request makes, without building SQL from a
queryset each time.

Building SQL from a queryset costs more than running it (the seat lookup by
link: about 1.3 ms to build, 0.2 ms to run on PostgreSQL). A read's
queryset is built once with stand-ins for its parameters; each call runs
the same SQL with the real values in their places.

``Prepared`` gives rows as the database driver gives them, without the
fields' converters, so a caller compares or digests them; it does not treat
them as model values. ``PreparedModels`` gives model instances, converted
and built the way the queryset itself would build them (select_related
included), for code that goes on to use or save them. ``rows_insert`` and
``row_update`` write rows whose shape never varies."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import connections
from django.db.models.query import get_related_populators

# Stand-ins no caller passes: text ones, integer ones inside the range of a
# positive 32-bit column, and "small" ones inside a 16-bit column's (Django
# compiles a comparison with a number out of the column's range to SQL
# without the parameter).
TEXT = "prepared-parameter-stand-in-5c1f"
INTEGER = 1_734_219_043
SMALL = 32_123
_NUMBERS = {"integer": INTEGER, "small": SMALL}


def _stand_ins(kinds: Sequence[str]) -> tuple:
    return tuple(_NUMBERS[kind] + n if kind in _NUMBERS else f"{TEXT}-{n}" for n, kind in enumerate(kinds))


def _sql_with_stand_ins(queryset, alias: str, stand_ins: tuple) -> tuple:
    """The compiler, its SQL and parameters, and where each stand-in sits in them."""
    compiler = queryset.query.get_compiler(using=alias)
    sql, params = compiler.as_sql()
    params = list(params)
    if any(params.count(stand_in) != 1 for stand_in in stand_ins):
        raise ValueError("each parameter must appear exactly once")
    return compiler, sql, params, [params.index(stand_in) for stand_in in stand_ins]


def _run(alias: str, sql: str, params: list, places: list[int], values: tuple) -> list[tuple]:
    params = list(params)
    for place, value in zip(places, values):
        params[place] = value
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


class Prepared:
    """Rows as dictionaries of the driver's values, by the names selected."""

    def __init__(self, make: Callable[[str], object], names: Sequence[str]):
        self.make = make
        self.names = tuple(names)
        self.compiled: dict[str, tuple[str, list, list[int]]] = {}
        self.converters: dict[str, list[tuple]] = {}

    def _compile(self, alias: str) -> tuple[str, list, list[int]]:
        stand_ins = _stand_ins(["text"])
        queryset = self.make(*stand_ins)
        selected = (*queryset.query.values_select, *queryset.query.annotation_select)
        if selected != self.names:
            raise ValueError(f"columns come back as {selected}, not {self.names}")
        compiler, sql, params, places = _sql_with_stand_ins(queryset, alias, stand_ins)
        self.converters[alias] = [
            (self.names[position], converters, expression)
            for position, (converters, expression) in compiler.get_converters([column[0] for column in compiler.select]).items()
        ]
        return sql, params, places

    def rows(self, value: str, alias: str = "default") -> list[dict]:
        if alias not in self.compiled:
            self.compiled[alias] = self._compile(alias)
        return [dict(zip(self.names, row)) for row in _run(alias, *self.compiled[alias], (value,))]

    def converted(self, row: dict, alias: str = "default") -> dict:
        """One of the rows ``rows`` gave, each value as its model field gives it."""
        row, connection = dict(row), connections[alias]
        for name, converters, expression in self.converters[alias]:
            for converter in converters:
                row[name] = converter(row[name], expression, connection)
        return row


class _Plan:
    """What one compilation leaves for building instances from rows. Nothing
    in it belongs to a thread: the connection is the caller's at each call."""

    def __init__(self, queryset, alias: str, stand_ins: tuple):
        compiler, self.sql, self.params, self.places = _sql_with_stand_ins(queryset, alias, stand_ins)
        select, klass_info = compiler.select, compiler.klass_info
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.attnames = [column[0].target.attname for column in select[self.start : self.end]]
        self.converters = list(compiler.get_converters([column[0] for column in select]).items())
        self.related = get_related_populators(klass_info, select, alias)


class PreparedModels:
    """Model instances from a queryset of its parameters, made once as
    ``make(*stand_ins)``; ``kinds`` says of each parameter whether it is
    compared with an "integer", a "small" (integer) or a "text" column."""

    def __init__(self, make: Callable[..., object], kinds: Sequence[str] = ("text",)):
        self.make = make
        self.stand_ins = _stand_ins(kinds)
        self.plans: dict[str, _Plan] = {}

    def all(self, *values, alias: str = "default") -> list:
        if len(values) != len(self.stand_ins):
            raise TypeError(f"{len(self.stand_ins)} parameters, not {len(values)}")
        plan = self.plans.get(alias)
        if plan is None:
            plan = self.plans[alias] = _Plan(self.make(*self.stand_ins), alias, self.stand_ins)
        connection = connections[alias]
        instances = []
        for row in _run(alias, plan.sql, plan.params, plan.places, values):
            row = list(row)
            for position, (converters, expression) in plan.converters:
                for converter in converters:
                    row[position] = converter(row[position], expression, connection)
            instance = plan.model.from_db(alias, plan.attnames, row[plan.start : plan.end])
            for populator in plan.related:
                populator.populate(row, instance)
            instances.append(instance)
        return instances

    def first(self, *values, alias: str = "default"):
        found = self.all(*values, alias=alias)
        return found[0] if found else None


# Writes whose shape never varies, in SQL written here from the fields'
# own metadata: the values go through each field's pre_save and
# get_db_prep_save as the ORM's would, without compiling a query each time.


def _quoted(connection, name: str) -> str:
    return connection.ops.quote_name(name)


def rows_insert(instances: list, alias: str = "default") -> None:
    """Insert unsaved instances of one model in one statement, as
    ``bulk_create`` would, and give each its primary key."""
    if not instances:
        return
    model = type(instances[0])
    connection = connections[alias]
    meta = model._meta
    if meta.auto_field is not None and not connection.features.can_return_rows_from_bulk_insert:
        model.objects.using(alias).bulk_create(instances)  # a database without RETURNING
        return
    fields = [field for field in meta.concrete_fields if field is not meta.auto_field]
    # As many rows a statement as the database takes parameters for.
    batch = max(1, connection.ops.bulk_batch_size(fields, instances))
    for start in range(0, len(instances), batch):
        _insert(connection, meta, fields, instances[start : start + batch])
    for instance in instances:
        instance._state.adding = False
        instance._state.db = alias


def _insert(connection, meta, fields: list, instances: list) -> None:
    values: list = []
    for instance in instances:
        for field in fields:
            values.append(field.get_db_prep_save(field.pre_save(instance, True), connection))
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (
        f"INSERT INTO {_quoted(connection, meta.db_table)} "
        f"({', '.join(_quoted(connection, field.column) for field in fields)}) "
        f"VALUES {', '.join([row] * len(instances))}"
    )
    returning = meta.auto_field is not None
    if returning:
        sql += f" RETURNING {_quoted(connection, meta.auto_field.column)}"
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        keys = cursor.fetchall() if returning else []
    for instance, (key,) in zip(instances, keys):
        instance.pk = key


def row_update(model, *, where: dict, values: dict, alias: str = "default") -> int:
    """``UPDATE ... SET values WHERE where``, by field name; ``where`` holds
    equalities with values that are never None. The number of rows changed."""
    connection = connections[alias]
    meta = model._meta

    def prepared(names: dict) -> tuple[list[str], list]:
        fields = [meta.pk if name == "pk" else meta.get_field(name) for name in names]
        columns = [f"{_quoted(connection, field.column)} = %s" for field in fields]
        return columns, [field.get_db_prep_save(value, connection) for field, value in zip(fields, names.values())]

    assignments, assigned = prepared(values)
    conditions, compared = prepared(where)
    sql = (
        f"UPDATE {_quoted(connection, meta.db_table)} SET {', '.join(assignments)} "
        f"WHERE {' AND '.join(conditions)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, assigned + compared)
        return cursor.rowcount

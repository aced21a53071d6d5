"""A read the pages make on every request, turned into SQL once per
process instead of once per request.

Building SQL from a queryset costs more than running it (the seat page's
query: about 1 ms to build, 0.3 ms to run on PostgreSQL). The queryset is
built once with a stand-in for its one parameter; each request runs the
same SQL with the real value in the stand-in's place. Rows come back as the
database driver gives them, without the fields' converters, so a caller
compares them or digests them; it does not treat them as model values."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import connections

_STAND_IN = "prepared-parameter-stand-in-5c1f"


class Prepared:
    def __init__(self, make: Callable[[str], object], names: Sequence[str]):
        self.make = make
        self.names = tuple(names)
        self.compiled: dict[str, tuple[str, list, int]] = {}

    def _compile(self, alias: str) -> tuple[str, list, int]:
        queryset = self.make(_STAND_IN)
        query = queryset.query
        selected = (*query.values_select, *query.annotation_select)
        if selected != self.names:
            raise ValueError(f"columns come back as {selected}, not {self.names}")
        sql, params = query.get_compiler(using=alias).as_sql()
        params = list(params)
        if params.count(_STAND_IN) != 1:
            raise ValueError("the parameter must appear exactly once")
        return sql, params, params.index(_STAND_IN)

    def rows(self, value: str, alias: str = "default") -> list[dict]:
        if alias not in self.compiled:
            self.compiled[alias] = self._compile(alias)
        sql, params, index = self.compiled[alias]
        params = [*params[:index], value, *params[index + 1 :]]
        with connections[alias].cursor() as cursor:
            cursor.execute(sql, params)
            return [dict(zip(self.names, row)) for row in cursor.fetchall()]

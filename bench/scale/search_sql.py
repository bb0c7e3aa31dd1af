"""The service's memory search statement, read from the files it runs (src/main/resources/sql/memory-search/) and
composed as SearchStatement composes it, with its named parameters replaced by SQL literals for psql.

A benchmark that times a copy of the SQL times the copy: the parts are read from this checkout, so the raw SQL is
the statement of the jar built from it.
"""

import os
import re

SQL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "main", "resources", "sql",
                       "memory-search")


def part(name):
    """One part without its header comment, as SearchStatement.part reads it."""
    path = os.path.join(SQL_DIR, name + ".sql")
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    body = 0
    while body < len(lines) and (lines[body].startswith("--") or not lines[body].strip()):
        body += 1
    return "\n".join(lines[body:])


FORMAT = re.compile(r"%(?:(\d+)\$s|.)")


def formatted(template, *args):
    """Java's String.formatted for the %n$s placeholders the parts use; any other conversion is refused."""
    def arg(m):
        if m.group(1) is None:
            raise ValueError(f"unexpected format conversion {m.group(0)!r} in a part of the search statement")
        return args[int(m.group(1)) - 1]
    return FORMAT.sub(arg, template)


FILTERS = part("filters")
DENSE = part("dense")
SETTINGS = part("settings")


def lexical(ranking="rarity"):
    """The lexical CTEs: rarity, or a PostgreSQL ranking function (ts_rank, ts_rank_cd)."""
    if ranking == "rarity":
        return formatted(part("lexical-by-rarity"), FILTERS)
    return formatted(part("lexical-by-function"), FILTERS, ranking)


def dense():
    return formatted(DENSE, FILTERS)


def statement(ranking="rarity", fusion="coverage-weighted", recency_weight=0.0):
    """SearchStatement.of for these settings (memoir.search.lexical-ranking, fusion, recency-weight)."""
    coverage = part("lexical-coverage") if ranking == "rarity" and fusion == "coverage-weighted" else "1"
    return formatted(part("search"), FILTERS, lexical(ranking), coverage, part("columns"),
                     part("ranked-with-recency" if recency_weight > 0 else "ranked"), dense())


class Cast:
    """A value bound with a type of its own (uuid, vector, uuid[]), as the service binds it."""

    def __init__(self, value, type_name):
        self.value, self.type_name = value, type_name


def literal(value):
    """The SQL literal of a bound value, typed as the JDBC driver types it (a Java double is float8)."""
    if value is None:
        return "null"
    if isinstance(value, Cast):
        return f"cast({literal(value.value)} as {value.type_name})"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"cast({value!r} as double precision)"
    if isinstance(value, (list, tuple)):     # a collection expands to a list of values, as Spring expands it
        return ", ".join(literal(v) for v in value)
    return "'" + str(value).replace("'", "''") + "'"


# A quoted string or a cast (::) is passed over, as Spring's NamedParameterUtils passes them over.
NAMED = re.compile(r"'(?:[^']|'')*'|::|:([A-Za-z_][A-Za-z0-9_]*)")


def bind(sql, params):
    """The statement with each :name replaced by the literal of params[name]; a name without a value is an error."""
    def value(m):
        if m.group(1) is None:
            return m.group(0)
        if m.group(1) not in params:
            raise KeyError(f"no value for the search statement's parameter :{m.group(1)}")
        return literal(params[m.group(1)])
    return NAMED.sub(value, sql)

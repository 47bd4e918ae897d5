#!/usr/bin/env python3
"""TPC-H on gpusql's shell against DuckDB on the same machine and data.

Loads dbgen-format tables once into gpusql (the statements of LOAD_SQL: CREATE
TABLE and COPY, as `gpusql_tpch_dbgen --out DIR` writes DIR/load.sql; for
official dbgen files, the same statements naming them) and once into DuckDB
(read_csv of the same files, every thread of the machine); runs each query
REPS times in gpusql's shell (`.timer`, whole milliseconds) and twice in
DuckDB; compares the last results of both field by field, as text (a whole
DOUBLE that DuckDB prints as '3.0' and gpusql as '3' counts as the same).

  compare_with_duckdb.py --gpusql build/gpusql --load DIR/load.sql
      [--device gpu|host] [--reps 3] [--duckdb .deps/duckdb/libduckdb.so]
      [--queries-dir tests/sql_queries/tpch] [q1 q2 ...]

One line a query: its rows, EQUAL or DIFFERENT (with the first differing
rows), gpusql's times (the first run, then the rest) and DuckDB's; exit
status 1 when any query differs or fails. DuckDB's library is the one
scripts/install-deps.sh fetches for the tests' second oracle.
"""
import argparse
import csv
import ctypes
import io
import os
import re
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))


class DuckDB:
    """DuckDB through its C API: each statement's rows as text (NULL as 'NULL') and its wall time."""

    class _Result(ctypes.Structure):
        _fields_ = [("a", ctypes.c_uint64), ("b", ctypes.c_uint64), ("c", ctypes.c_uint64),
                    ("d", ctypes.c_void_p), ("e", ctypes.c_void_p), ("f", ctypes.c_void_p)]

    def __init__(self, path):
        lib = ctypes.CDLL(path)
        lib.duckdb_result_error.restype = ctypes.c_char_p
        lib.duckdb_value_varchar.restype = ctypes.c_void_p
        lib.duckdb_row_count.restype = ctypes.c_uint64
        lib.duckdb_column_count.restype = ctypes.c_uint64
        lib.duckdb_free.argtypes = [ctypes.c_void_p]
        self.lib = lib
        self.db, self.con = ctypes.c_void_p(), ctypes.c_void_p()
        if lib.duckdb_open(None, ctypes.byref(self.db)) or lib.duckdb_connect(self.db, ctypes.byref(self.con)):
            raise RuntimeError("cannot open DuckDB")

    def query(self, sql):
        lib, r = self.lib, self._Result()
        start = time.perf_counter()
        failed = lib.duckdb_query(self.con, sql.encode(), ctypes.byref(r))
        seconds = time.perf_counter() - start
        try:
            if failed:
                raise RuntimeError(lib.duckdb_result_error(ctypes.byref(r)).decode())
            rows = []
            for row in range(lib.duckdb_row_count(ctypes.byref(r))):
                values = []
                for column in range(lib.duckdb_column_count(ctypes.byref(r))):
                    if lib.duckdb_value_is_null(ctypes.byref(r), ctypes.c_uint64(column), ctypes.c_uint64(row)):
                        values.append('NULL')
                        continue
                    p = lib.duckdb_value_varchar(ctypes.byref(r), ctypes.c_uint64(column), ctypes.c_uint64(row))
                    values.append(ctypes.string_at(p).decode())
                    lib.duckdb_free(ctypes.c_void_p(p))
                rows.append(values)
            return rows, seconds
        finally:
            lib.duckdb_destroy_result(ctypes.byref(r))


def statements(text):
    """The statements of a script, comments dropped (no ';' inside strings in these files)."""
    text = '\n'.join(line for line in text.splitlines() if not line.strip().startswith('--'))
    return [s.strip() for s in text.split(';') if s.strip()]


def same_row(ours, theirs):
    """Field by field as text, or as one number: DuckDB prints a whole DOUBLE as '0.0', gpusql as '0'
    (README's list of kept differences); any other digit differs."""
    def same(a, b):
        if a == b:
            return True
        try:
            return float(a) == float(b) and ('.' in a) != ('.' in b)
        except ValueError:
            return False
    return len(ours) == len(theirs) and all(same(a, b) for a, b in zip(ours, theirs))


def duckdb_load(load_sql):
    """DuckDB's statements for gpusql's CREATE TABLE + COPY: read_csv with the columns' types (and
    one more for the '|' that ends a dbgen line)."""
    creates = {m.group(1).lower(): m.group(2)
               for m in re.finditer(r'CREATE TABLE (\w+) \((.*?)\);', load_sql, re.S | re.I)}
    out = []
    for table, path in re.findall(r"COPY (\w+) FROM '([^']+)'", load_sql, re.I):
        columns = []
        for definition in re.split(r',\s*(?![^()]*\))', creates[table.lower()]):
            name, rest = definition.strip().split(' ', 1)
            kind = re.sub(r'\s+NOT NULL.*$', '', rest.strip(), flags=re.I)
            columns.append("'%s': '%s'" % (name, kind))
        columns.append("'end_of_line': 'VARCHAR'")
        out.append("CREATE TABLE %s AS SELECT * EXCLUDE (end_of_line) FROM read_csv('%s', delim = '|', "
                   "header = false, null_padding = true, columns = {%s})" % (table, path, ', '.join(columns)))
    return out


def engine_arguments(description):
    """The options both TPC-H scripts take: gpusql's shell, the load script, the device, the rounds, DuckDB."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument('--gpusql', required=True)
    parser.add_argument('--load', required=True)
    parser.add_argument('--device', default='gpu')
    parser.add_argument('--reps', type=int, default=3)
    parser.add_argument('--duckdb', default=os.path.join(root, '.deps/duckdb/libduckdb.so'))
    return parser


def main():
    parser = engine_arguments(__doc__.split('\n')[0])
    parser.add_argument('--queries-dir', default=os.path.join(root, 'tests/sql_queries/tpch'))
    parser.add_argument('queries', nargs='*', default=['q%d' % i for i in range(1, 23)])
    args = parser.parse_args()

    load_sql = open(args.load).read()
    texts = {q: statements(open(os.path.join(args.queries_dir, q + '.sql')).read()) for q in args.queries}

    # gpusql: one shell, one load; each query's statements REPS times after a marker row.
    script = load_sql + '\n.timer on\n'
    for q in args.queries:
        script += "SELECT 'mark %s' AS marker;\n" % q + ''.join(s + ';\n' for s in texts[q]) * args.reps
    run = subprocess.run([args.gpusql, '-device', args.device, '-csv', '-f', '/dev/stdin'], input=script,
                         capture_output=True, text=True)
    segments, current = {}, None
    for line in run.stdout.splitlines():
        if line.startswith('mark '):
            current = line[5:]
            segments[current] = []
        elif line != 'marker' and current:
            segments[current].append(line)

    duck = DuckDB(args.duckdb)
    duck.query('SET threads = %d' % os.cpu_count())
    for s in duckdb_load(load_sql):
        duck.query(s)

    equal = 0
    for q in args.queries:
        lines = segments.get(q, [])
        times = [line.split()[2] for line in lines if line.startswith('Run Time')][1:]  # not the marker's
        out = [line for line in lines if not line.startswith('Run Time')]
        duck_times, duck_rows = [], None
        try:
            for _ in range(2):
                for s in texts[q]:
                    rows, seconds = duck.query(s)
                    if s.lower().startswith('select'):
                        duck_rows = rows
                        duck_times.append('%.4f' % seconds)
        except RuntimeError as e:
            print(q, 'DUCKDB FAILED', e)
            continue
        if not out:
            print(q, 'GPUSQL FAILED', run.stderr[-300:])
            continue
        header = out[0]
        last = max(i for i, line in enumerate(out) if line == header)
        rows = [['NULL' if v == '' else v for v in r] for r in csv.reader(io.StringIO('\n'.join(out[last:])))][1:]
        same = len(rows) == len(duck_rows) and all(same_row(r, d) for r, d in zip(rows, duck_rows))
        equal += same
        print(q, 'rows', len(rows), 'duckdb', len(duck_rows), 'EQUAL' if same else 'DIFFERENT', 'gpusql s:',
              ' '.join(times), 'duckdb s:', ' '.join(duck_times))
        for ours, theirs in [(r, d) for r, d in zip(rows, duck_rows) if not same_row(r, d)][:3]:
            print('   gpusql', ours, 'duckdb', theirs)
    print('equal', equal, 'of', len(args.queries))
    return 0 if equal == len(args.queries) else 1


if __name__ == '__main__':
    sys.exit(main())

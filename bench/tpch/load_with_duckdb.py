#!/usr/bin/env python3
"""Loading dbgen-format files: gpusql's COPY against DuckDB's read_csv, on the same machine and files.

Runs the CREATE TABLE and COPY statements of LOAD_SQL (as bench/tpch/dbgen_files.sh writes them,
one file per table or chunk files named by a pattern) in gpusql's shell with `.timer on`, sampling
the shell's anonymous resident memory (RssAnon: not the file pages it maps) every 20 ms; then loads
the same files into DuckDB with read_csv (every thread of the machine), timed the same way. REPS
rounds, each a fresh gpusql shell and a fresh DuckDB database; the median of each table's times.

  load_with_duckdb.py --gpusql build-gpu/gpusql --load DIR/load.sql [--reps 3]
      [--device gpu|host] [--duckdb .deps/duckdb/libduckdb.so] [--no-duckdb]

Prints one markdown row a table (MB of its files, seconds and GB/s for each engine) and a total
row, then gpusql's peak RssAnon against the bytes of the files.
"""
import glob
import os
import re
import statistics
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_with_duckdb import DuckDB, duckdb_load, engine_arguments  # noqa: E402


def rss_anon_kib(pid):
    try:
        with open('/proc/%d/status' % pid) as f:
            for line in f:
                if line.startswith('RssAnon:'):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def gpusql_round(binary, device, load_sql, tables):
    """One shell over the whole script: each COPY's seconds (in statement order) and the peak RssAnon."""
    script = '.timer on\n' + load_sql
    proc = subprocess.Popen([binary, '-device', device, '-f', '/dev/stdin'], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.wait(0.02):
            peak[0] = max(peak[0], rss_anon_kib(proc.pid))

    sampler = threading.Thread(target=sample)
    sampler.start()
    out, _ = proc.communicate(script)
    done.set()
    sampler.join()
    lines = out.splitlines()
    failures = [line for line in lines if 'Error' in line]
    if proc.returncode != 0 or failures:
        raise RuntimeError('gpusql failed: ' + ' | '.join(failures[:3]) + out[-300:])
    # A COPY prints 'loaded N rows into t', then its 'Run Time' line.
    seconds, loading = {}, None
    for line in lines:
        m = re.match(r'loaded \d+ rows? into (\w+)', line)
        if m:
            loading = m.group(1).lower()
        elif line.startswith('Run Time') and loading:
            seconds[loading] = float(line.split()[2])
            loading = None
    missing = [t for t in tables if t.lower() not in seconds]
    if missing:
        raise RuntimeError('no COPY time for ' + ', '.join(missing))
    return [seconds[t.lower()] for t in tables], peak[0] * 1024


def duckdb_round(library, load_sql):
    duck = DuckDB(library)
    duck.query('SET threads = %d' % os.cpu_count())
    return [duck.query(statement)[1] for statement in duckdb_load(load_sql)]


def main():
    parser = engine_arguments(__doc__.split('\n')[0])
    parser.add_argument('--no-duckdb', action='store_true')
    args = parser.parse_args()

    load_sql = open(args.load).read()
    copies = re.findall(r"COPY (\w+) FROM '([^']+)'", load_sql, re.I)
    tables = [t for t, _ in copies]
    sizes = [sum(os.path.getsize(f) for f in glob.glob(path)) for _, path in copies]
    files = [len(glob.glob(path)) for _, path in copies]

    ours, theirs, peaks = [], [], []
    for _ in range(args.reps):
        seconds, peak = gpusql_round(args.gpusql, args.device, load_sql, tables)
        ours.append(seconds)
        peaks.append(peak)
        if not args.no_duckdb:
            theirs.append(duckdb_round(args.duckdb, load_sql))

    def median(rounds, i):
        return statistics.median(r[i] for r in rounds) if rounds else float('nan')

    print('| table | files | MB | gpusql s | gpusql GB/s | DuckDB s | DuckDB GB/s |')
    print('|---|---|---|---|---|---|---|')
    for i, table in enumerate(tables):
        a, b = median(ours, i), median(theirs, i)
        print('| %s | %d | %.0f | %.3f | %.2f | %.3f | %.2f |' %
              (table, files[i], sizes[i] / 1e6, a, sizes[i] / 1e9 / a, b, sizes[i] / 1e9 / b))
    total_ours = statistics.median(sum(r) for r in ours)
    total_theirs = statistics.median(sum(r) for r in theirs) if theirs else float('nan')
    total = sum(sizes)
    print('| **total** | %d | %.0f | %.3f | %.2f | %.3f | %.2f |' %
          (sum(files), total / 1e6, total_ours, total / 1e9 / total_ours, total_theirs, total / 1e9 / total_theirs))
    print('gpusql rounds (s): %s; DuckDB rounds (s): %s' %
          (' '.join('%.2f' % sum(r) for r in ours), ' '.join('%.2f' % sum(r) for r in theirs)))
    peak = statistics.median(peaks)
    print('gpusql peak RssAnon: %.2f GB (median of %d rounds), %.0f%% of the files\' %.2f GB' %
          (peak / 1e9, len(peaks), 100.0 * peak / total, total / 1e9))


if __name__ == '__main__':
    main()

-- gpusql demo: run by the README's first command on the bundled sample data.
-- The tables are loaded by the shell's -load flags (see scripts/demo.sh).

-- The seeds' filter: light records.
SELECT * FROM records WHERE weight < 0.1;

-- Aggregates with a compound predicate, evaluated in one fused pass.
SELECT COUNT(*), SUM(weight), MIN(weight), MAX(height)
FROM records
WHERE weight < 0.1 OR height > 0.9;

-- Arithmetic, NULL-free averages and rowid.
SELECT COUNT(*) AS n, AVG(height) AS mean_height, SUM(height) / COUNT(*) AS same_mean
FROM records;

SELECT rowid, v FROM vals WHERE v < -3;

SELECT MIN(v), MAX(v), COUNT(*) FROM vals;

-- The seeds' join: light records of A with their B partners (a hash join).
SELECT a.id, a.weight, b.height FROM arecords a JOIN brecords b ON a.id = b.id
WHERE a.weight < 0.05 ORDER BY a.id, b.height LIMIT 8;

-- The seeds' argmin: the lowest tied row wins, every run.
SELECT MIN(v), ARG_MIN(rowid, v) FROM vals;

-- A histogram with GROUP BY and ORDER BY.
SELECT CAST(FLOOR(score / 10 + 0.5) AS INTEGER) AS bucket, COUNT(*) AS n
FROM scores WHERE score BETWEEN 0 AND 100 GROUP BY bucket ORDER BY bucket;

EXPLAIN SELECT p.x, COUNT(*) FROM pairs p, arecords a WHERE p.x = a.id AND a.weight < 0.5 GROUP BY p.x ORDER BY p.x;

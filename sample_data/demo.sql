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

-- gpusql demo: run by the README's first command on the bundled sample data
-- (sample_data/README.md). scripts/demo.sh loads the small numeric tables
-- with the shell's -load flags and runs this script with -echo, so each
-- statement is shown before its result.

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

-- TPC-H: the benchmark's eight tables at scale factor 0.005 (30,000 line
-- items), made by the project's generator. schema.sql creates them with their
-- declared types (money DECIMAL(15,2), dates DATE) and fills them with COPY.
.read sample_data/tpch/schema.sql

DESCRIBE lineitem;

-- Q1, shortened: the pricing summary report, grouped by two one-letter flags.
SELECT l_returnflag, l_linestatus,
       SUM(l_quantity) AS sum_qty,
       SUM(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
       SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
       COUNT(*) AS count_order
FROM lineitem
WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY
GROUP BY l_returnflag, l_linestatus
ORDER BY l_returnflag, l_linestatus;

-- Q6: the revenue a discount between 5 and 7 percent brought in 1994.
SELECT SUM(l_extendedprice * l_discount) AS revenue
FROM lineitem
WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
  AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24;

-- Q3: the unshipped orders of the BUILDING segment with the most revenue.
SELECT l_orderkey, SUM(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate, o_shippriority
FROM customer, orders, lineitem
WHERE c_mktsegment = 'BUILDING' AND c_custkey = o_custkey AND l_orderkey = o_orderkey
  AND o_orderdate < DATE '1995-03-15' AND l_shipdate > DATE '1995-03-15'
GROUP BY l_orderkey, o_orderdate, o_shippriority
ORDER BY revenue DESC, o_orderdate, l_orderkey
LIMIT 5;

-- Q5: revenue in 1994 through suppliers of the customer's own nation, in ASIA.
SELECT n_name, SUM(l_extendedprice * (1 - l_discount)) AS revenue
FROM customer, orders, lineitem, supplier, nation, region
WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND l_suppkey = s_suppkey
  AND c_nationkey = s_nationkey AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey
  AND r_name = 'ASIA' AND o_orderdate >= DATE '1994-01-01' AND o_orderdate < DATE '1995-01-01'
GROUP BY n_name
ORDER BY revenue DESC;

-- LIKE on p_type and EXTRACT(YEAR ...): what brass parts sold, year by year.
SELECT EXTRACT(YEAR FROM o_orderdate) AS o_year, COUNT(*) AS line_items,
       SUM(l_quantity) AS quantity, SUM(l_extendedprice * (1 - l_discount)) AS revenue
FROM part, lineitem, orders
WHERE p_partkey = l_partkey AND l_orderkey = o_orderkey AND p_type LIKE '%BRASS'
GROUP BY o_year
ORDER BY o_year;

-- Q10: the customers whose returned items cost the most revenue, with their nation.
SELECT c_custkey, c_name, n_name, c_phone, SUM(l_extendedprice * (1 - l_discount)) AS revenue
FROM customer, orders, lineitem, nation
WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND c_nationkey = n_nationkey
  AND o_orderdate >= DATE '1993-10-01' AND o_orderdate < DATE '1993-10-01' + INTERVAL '3' MONTH
  AND l_returnflag = 'R'
GROUP BY c_custkey, c_name, n_name, c_phone
ORDER BY revenue DESC, c_custkey
LIMIT 5;

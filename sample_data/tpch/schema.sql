-- TPC-H at SF 0.005 (seed 19950617), written by gpusql_tpch_dbgen --csv
CREATE TABLE part (
  p_partkey INTEGER NOT NULL,
  p_name VARCHAR NOT NULL,
  p_mfgr VARCHAR NOT NULL,
  p_brand VARCHAR NOT NULL,
  p_type VARCHAR NOT NULL,
  p_size INTEGER NOT NULL,
  p_container VARCHAR NOT NULL,
  p_retailprice DECIMAL(15,2) NOT NULL,
  p_comment VARCHAR NOT NULL
);
COPY part FROM 'sample_data/tpch/part.csv' (HEADER);
CREATE TABLE supplier (
  s_suppkey INTEGER NOT NULL,
  s_name VARCHAR NOT NULL,
  s_address VARCHAR NOT NULL,
  s_nationkey INTEGER NOT NULL,
  s_phone VARCHAR NOT NULL,
  s_acctbal DECIMAL(15,2) NOT NULL,
  s_comment VARCHAR NOT NULL
);
COPY supplier FROM 'sample_data/tpch/supplier.csv' (HEADER);
CREATE TABLE partsupp (
  ps_partkey INTEGER NOT NULL,
  ps_suppkey INTEGER NOT NULL,
  ps_availqty INTEGER NOT NULL,
  ps_supplycost DECIMAL(15,2) NOT NULL,
  ps_comment VARCHAR NOT NULL
);
COPY partsupp FROM 'sample_data/tpch/partsupp.csv' (HEADER);
CREATE TABLE customer (
  c_custkey INTEGER NOT NULL,
  c_name VARCHAR NOT NULL,
  c_address VARCHAR NOT NULL,
  c_nationkey INTEGER NOT NULL,
  c_phone VARCHAR NOT NULL,
  c_acctbal DECIMAL(15,2) NOT NULL,
  c_mktsegment VARCHAR NOT NULL,
  c_comment VARCHAR NOT NULL
);
COPY customer FROM 'sample_data/tpch/customer.csv' (HEADER);
CREATE TABLE orders (
  o_orderkey INTEGER NOT NULL,
  o_custkey INTEGER NOT NULL,
  o_orderstatus VARCHAR NOT NULL,
  o_totalprice DECIMAL(15,2) NOT NULL,
  o_orderdate DATE NOT NULL,
  o_orderpriority VARCHAR NOT NULL,
  o_clerk VARCHAR NOT NULL,
  o_shippriority INTEGER NOT NULL,
  o_comment VARCHAR NOT NULL
);
COPY orders FROM 'sample_data/tpch/orders.csv' (HEADER);
CREATE TABLE lineitem (
  l_orderkey INTEGER NOT NULL,
  l_partkey INTEGER NOT NULL,
  l_suppkey INTEGER NOT NULL,
  l_linenumber INTEGER NOT NULL,
  l_quantity DECIMAL(15,2) NOT NULL,
  l_extendedprice DECIMAL(15,2) NOT NULL,
  l_discount DECIMAL(15,2) NOT NULL,
  l_tax DECIMAL(15,2) NOT NULL,
  l_returnflag VARCHAR NOT NULL,
  l_linestatus VARCHAR NOT NULL,
  l_shipdate DATE NOT NULL,
  l_commitdate DATE NOT NULL,
  l_receiptdate DATE NOT NULL,
  l_shipinstruct VARCHAR NOT NULL,
  l_shipmode VARCHAR NOT NULL,
  l_comment VARCHAR NOT NULL
);
COPY lineitem FROM 'sample_data/tpch/lineitem.csv' (HEADER);
CREATE TABLE nation (
  n_nationkey INTEGER NOT NULL,
  n_name VARCHAR NOT NULL,
  n_regionkey INTEGER NOT NULL,
  n_comment VARCHAR NOT NULL
);
COPY nation FROM 'sample_data/tpch/nation.csv' (HEADER);
CREATE TABLE region (
  r_regionkey INTEGER NOT NULL,
  r_name VARCHAR NOT NULL,
  r_comment VARCHAR NOT NULL
);
COPY region FROM 'sample_data/tpch/region.csv' (HEADER);

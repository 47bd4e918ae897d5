#!/usr/bin/env python3
"""Writes the bundled sample tables (deterministic: a fixed seed).

The tables are the examples of the documents gpusql grew from:
  records(height, weight)   100 rows of floats in [0, 1)      filter example
  arecords(id, weight)      100 rows, ids 1..10               join example
  brecords(id, height)      100 rows, ids 1..10               join example
  points(x, y)              200 points in [0, 20)^2           neighbour list
  vals(v)                   1000 values, the minimum at rows 17, 230, 611 (argmin ties)
  scores(score)             500 scores, some outside [0, 100] histogram
  pairs(x, y)               300 small integer pairs with duplicates (ORDER BY)
Run from anywhere: python3 sample_data/generate.py
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, header, rows):
    with open(os.path.join(HERE, name + ".csv"), "w", newline="") as f:
        f.write(",".join(header) + "\n")
        for row in rows:
            f.write(",".join(row) + "\n")


def main():
    rng = random.Random(20261122)
    write("records", ["height", "weight"],
          [(f"{rng.random():.4f}", f"{rng.random():.4f}") for _ in range(100)])
    write("arecords", ["id", "weight"],
          [(str(rng.randint(1, 10)), f"{rng.random():.4f}") for _ in range(100)])
    write("brecords", ["id", "height"],
          [(str(rng.randint(1, 10)), f"{rng.random():.4f}") for _ in range(100)])
    write("points", ["x", "y"],
          [(f"{rng.uniform(0, 20):.3f}", f"{rng.uniform(0, 20):.3f}") for _ in range(200)])
    vals = [f"{rng.uniform(-3.0, 50.0):.2f}" for _ in range(1000)]
    for i in (17, 230, 611):
        vals[i] = "-3.50"
    write("vals", ["v"], [(v,) for v in vals])
    write("scores", ["score"], [(f"{rng.uniform(-5, 105):.2f}",) for _ in range(500)])
    write("pairs", ["x", "y"], [(str(rng.randint(0, 9)), str(rng.randint(-5, 5))) for _ in range(300)])


if __name__ == "__main__":
    main()

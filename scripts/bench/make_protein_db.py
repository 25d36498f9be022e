#!/usr/bin/env python3
"""Writes a synthetic protein database for search benchmarks: COUNT records
whose lengths are log-normal around MEDIAN (sigma 0.59: a mean near 357),
clipped to [30, 5000], letters drawn with BLAST's background (Robinson and
Robinson) frequencies; fixed seed.

  make_protein_db.py --count 400000 --seed 7 > db.fa
  make_protein_db.py --count 1 --length 375 --seed 8 --name q375 > q.fa
"""
import argparse
import math
import random

LETTERS = "ARNDCQEGHILKMFPSTWYV"
FREQ = [78.05, 51.29, 44.87, 53.64, 19.25, 42.64, 62.95, 73.77, 21.99, 51.42,
        90.19, 57.44, 22.43, 38.56, 52.29, 71.20, 58.41, 13.30, 32.16, 64.41]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--median", type=float, default=300)
    p.add_argument("--length", type=int, default=0, help="every record this long")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--name", default="t")
    a = p.parse_args()
    rng = random.Random(a.seed)
    out = []
    for k in range(a.count):
        n = a.length or min(5000, max(30, int(rng.lognormvariate(math.log(a.median), 0.59))))
        seq = "".join(rng.choices(LETTERS, weights=FREQ, k=n))
        name = a.name if a.count == 1 else f"{a.name}{k}"
        out.append(">" + name + "\n" + seq + "\n")
        if len(out) >= 4096:
            print("".join(out), end="")
            out.clear()
    print("".join(out), end="")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The SASS instructions with the most warp-stall samples, from the CSV of
`ncu --import R --page source --csv --print-source sass`: one line each with
its address, the instruction, its share of all samples, and the largest
stall reasons. Usage: ncu_top.py source.csv [how many, default 40]."""
import csv
import sys

lines = open(sys.argv[1], newline="").read().splitlines()
start = next(i for i, line in enumerate(lines) if line.startswith('"Address"'))  # after the kernel's name
rows = list(csv.DictReader(lines[start:]))
top = int(sys.argv[2]) if len(sys.argv) > 2 else 40
if not rows:
    sys.exit("ncu_top: no rows")
cols = rows[0].keys()
total_col = next(c for c in cols if "Sampling (All Samples)" in c and "Not" not in c)
reason_cols = [c for c in cols if c.startswith("stall_") or ("Stall" in c and c != total_col and "Sampling" not in c)]


def num(x):
    try:
        return float(str(x).replace(",", ""))
    except ValueError:
        return 0.0


total = sum(num(r[total_col]) for r in rows) or 1.0
print(f"# {len(rows)} instructions, {total:.0f} samples; reason columns: {len(reason_cols)}")
for r in sorted(rows, key=lambda r: -num(r[total_col]))[:top]:
    reasons = sorted(((num(r[c]), c) for c in reason_cols), reverse=True)[:3]
    why = ", ".join(f"{c.replace('stall_', '')} {v:.0f}" for v, c in reasons if v > 0)
    print(f"{r.get('Address', '?'):>8} {num(r[total_col]) / total:6.1%}  {r.get('Source', '?')[:60]:60}  {why}")

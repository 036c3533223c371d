#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Independent reference implementation of the utility measure of issue 2 (mean TVD over all
2-way marginals), in plain Python, to cross-check engine/metrics (CompareTables) on real data.

The measure: numeric columns (every non-missing value parses as a number) with more than 20
distinct values are cut into 20 equal-width bins over the REAL column's range (synthetic values
outside it go to the edge bins; bin i = [lo + (hi-lo) i/20, lo + (hi-lo) (i+1)/20), the last one
closed); other numeric columns are compared by parsed number, strings by text; missing
("", NA, N/A, null, ?, NaN) is its own category; columns whose values are all distinct are left
out. Unlike the engine it has no schema: no datetimes, no roles.

Usage:
  reference_measure.py REAL.csv SYNTHETIC.csv     prints the mean 2-way TVD (full precision)
  reference_measure.py REAL.csv --samples DIR [--seed S]
      writes DIR/half.csv (a random half of the rows) and DIR/independent.csv (each column
      drawn from the real empirical marginal, as many rows as the real table) and prints both
      scores.

Cross-check (adult.csv, seed 0): half 0.010145249697274601, independent 0.0789049627467383;
CompareTables on the same two files gives 0.010145249697275 and 0.078904962746738. Seed 3:
penguins.csv 0.14607558139534893 / 0.3398048172757478 (engine 0.146075581395349 /
0.339804817275748), flchain.csv 0.02562403306624795 / 0.1070288867850463 (engine
0.025624033066248 / 0.107028886785046).
Standard library only; about 10 s per comparison on adult.csv.
"""
import argparse
import bisect
import csv
import os
import random
from collections import Counter

MISSING = {"", "NA", "N/A", "null", "?", "NaN"}
BINS = 20
MAX_DISTINCT_FOR_VALUES = 20


def read(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def as_number(text):
    try:
        return float(text)
    except ValueError:
        return None


def plan(column, rows):
    """None (left out), ('bin', edges), ('number',) or ('text',)."""
    if len(set(column)) == rows and rows >= 2:
        return None
    values = [v for v in column if v not in MISSING]
    numbers = [as_number(v) for v in values]
    if values and all(x is not None for x in numbers):
        distinct = sorted(set(numbers))
        if len(distinct) > MAX_DISTINCT_FOR_VALUES:
            lo, hi = distinct[0], distinct[-1]
            return ("bin", [lo + (hi - lo) * i / BINS for i in range(BINS)] + [hi])
        return ("number",)
    return ("text",)


def encode(p, text):
    if text in MISSING:
        return ("missing",)
    if p[0] == "text":
        return ("text", text)
    x = as_number(text)
    if x is None:
        return ("text", text)
    if p[0] == "number":
        return ("number", x)
    edges = p[1]
    if x <= edges[0]:
        return ("bin", 0)
    if x >= edges[-1]:
        return ("bin", BINS - 1)
    return ("bin", bisect.bisect_right(edges, x) - 1)


def mean_pair_tvd(header, real_rows, synthetic_header, synthetic_rows):
    plans = [plan([r[j] for r in real_rows], len(real_rows)) for j in range(len(header))]
    kept = [j for j in range(len(header)) if plans[j] is not None]
    where = {name: j for j, name in enumerate(synthetic_header)}
    real = {j: [encode(plans[j], r[j]) for r in real_rows] for j in kept}
    synthetic = {j: [encode(plans[j], r[where[header[j]]]) for r in synthetic_rows] for j in kept}
    nr, ns = len(real_rows), len(synthetic_rows)
    total, pairs = 0.0, 0
    for a in range(len(kept)):
        for b in range(a + 1, len(kept)):
            i, j = kept[a], kept[b]
            cr = Counter(zip(real[i], real[j]))
            cs = Counter(zip(synthetic[i], synthetic[j]))
            total += 0.5 * sum(abs(cr[k] / nr - cs[k] / ns) for k in set(cr) | set(cs))
            pairs += 1
    return total / pairs


def write(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(header)
        out.writerows(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("real")
    parser.add_argument("synthetic", nargs="?")
    parser.add_argument("--samples", metavar="DIR")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    header, rows = read(args.real)
    if args.synthetic:
        synthetic_header, synthetic_rows = read(args.synthetic)
        print(repr(mean_pair_tvd(header, rows, synthetic_header, synthetic_rows)))
        return
    if not args.samples:
        parser.error("give SYNTHETIC.csv or --samples DIR")
    rnd = random.Random(args.seed)
    n = len(rows)
    half = [rows[r] for r in rnd.sample(range(n), n // 2)]
    columns = [[rows[rnd.randrange(n)][j] for _ in range(n)] for j in range(len(header))]
    independent = [list(cells) for cells in zip(*columns)]
    os.makedirs(args.samples, exist_ok=True)
    write(os.path.join(args.samples, "half.csv"), header, half)
    write(os.path.join(args.samples, "independent.csv"), header, independent)
    print("half", repr(mean_pair_tvd(header, rows, header, half)))
    print("independent", repr(mean_pair_tvd(header, rows, header, independent)))


if __name__ == "__main__":
    main()

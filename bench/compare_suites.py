#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Compare two utility-suite runs cell by cell, on paired seeds.

A change to domains, bins or models is judged on the whole suite (docs/utility.md). Two runs of
bench/utility_suite.py with the same tables, modes, ε and seeds (one per binary) give, for every
(table, mode, ε) cell, the same seeds on both sides: seed s of the old binary against seed s of
the new one. The difference of a cell is then the mean of the paired differences, and its
spread their standard error, which removes the seed-to-seed variation both binaries share
(the noise draws and, in the modes with a structure, most of the structure).

Per cell: old and new mean 2-way TVD, the relative change, t = mean paired difference / its
standard error, and the mean and minimum consistency of the deterministic pairs when the table
has some. A cell is marked "better" or "worse" when |t| exceeds --t (default 2.6: with 6 seeds,
5 degrees of freedom, a two-sided 5% level, so about 2 of 45 unchanged cells are marked by
chance; with 20 seeds use 2.1). Cells with fewer than 3 paired seeds are listed without a mark.

--measure column compares the 1-way TVD instead, --measure range the range error (the share of
synthetic values outside each numeric column's real [min, max] plus the share of real values
outside the synthetic one, summed over the columns: phantom tails and cut-off tails, which the
TVDs over the real range's bins barely see; suites from before 2026-11-29 lack it).

Standard library only. Usage:
  /usr/bin/python3 bench/compare_suites.py OLD/results.jsonl NEW/results.jsonl [--t 2.6]
      [--modes correlated] [--changed] [--measure pair|column|range]
"""

import argparse
import collections
import json
import math
import statistics
import sys


MEASURES = {
    'pair': '2-way TVD',
    'column': '1-way TVD',
    'range': 'range error: per numeric column, the share of synthetic values outside the real '
             '[min, max] plus the share of real values outside the synthetic one, summed',
}


def measure_of(r, measure):
    """The run's value of `measure`, or None when the run does not have it."""
    if measure == 'pair':
        return r.get('mean_pair_tvd')
    if measure == 'column':
        return r.get('mean_column_tvd')
    ranges = r.get('range')
    if ranges is None:
        return None
    return sum(phantom + lost for phantom, lost in ranges.values())


def load(path, measure='pair'):
    """(table, mode, eps, seed) -> (measure, min pair consistency or None), ok runs only."""
    runs = {}
    try:
        f = open(path, encoding='utf-8')
    except OSError as e:
        sys.exit(f'{path}: cannot read it ({e.strerror})')
    with f:
        for line_number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f'{path}:{line_number}: not JSON ({e.msg})')
            if r.get('kind') != 'run' or not r.get('ok'):
                continue
            pairs = [p['consistency'] for p in r.get('pairs') or []
                     if p.get('consistency') is not None]
            value = measure_of(r, measure)
            if value is None:
                continue
            runs[(r['table'], r['mode'], r['eps'], r['seed'])] = (
                value, min(pairs) if pairs else None)
    return runs


def compare(old, new, t_mark, modes=None):
    """Rows (one per cell with paired seeds) and per-mode counts of marked cells."""
    cells = collections.defaultdict(list)
    for key, value in old.items():
        if key in new and (modes is None or key[1] in modes):
            cells[key[:3]].append((value, new[key]))
    rows = []
    counts = collections.defaultdict(collections.Counter)
    for cell in sorted(cells, key=lambda k: (k[1], k[0], k[2])):
        paired = cells[cell]
        x = statistics.mean(p[0][0] for p in paired)
        y = statistics.mean(p[1][0] for p in paired)
        diffs = [p[1][0] - p[0][0] for p in paired]
        t = None
        if len(diffs) >= 3:
            se = statistics.stdev(diffs) / math.sqrt(len(diffs))
            t = (y - x) / se if se > 0 else (0.0 if y == x else math.copysign(math.inf, y - x))
        mark = ''
        if t is not None and abs(t) > t_mark:
            mark = 'better' if t < 0 else 'worse'
        counts[cell[1]]['cells'] += 1
        if mark:
            counts[cell[1]][mark] += 1
        old_pairs = [p[0][1] for p in paired if p[0][1] is not None]
        new_pairs = [p[1][1] for p in paired if p[1][1] is not None]
        rows.append({'table': cell[0], 'mode': cell[1], 'eps': cell[2], 'seeds': len(paired),
                     'old': x, 'new': y, 't': t, 'mark': mark,
                     'pairs_old': old_pairs, 'pairs_new': new_pairs})
    return rows, counts


def format_row(row):
    relative = (row['new'] - row['old']) / row['old'] * 100 if row['old'] > 0 else 0.0
    t = '   —' if row['t'] is None else f"{row['t']:+5.1f}"
    text = (f"{row['mode']:11s} {row['table']:26s} ε={row['eps']:<4} n={row['seeds']:<3} "
            f"{row['old']:.4f} → {row['new']:.4f} {relative:+6.1f}%  t={t}")
    if row['pairs_old'] and row['pairs_new']:
        text += (f"  pairs mean {statistics.mean(row['pairs_old']):.2f} → "
                 f"{statistics.mean(row['pairs_new']):.2f}, min {min(row['pairs_old']):.2f} → "
                 f"{min(row['pairs_new']):.2f}")
    return text + (f"  {row['mark'].upper()}" if row['mark'] else '')


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('old', help='results.jsonl of the run before the change')
    ap.add_argument('new', help='results.jsonl of the run after it (same seeds)')
    ap.add_argument('--t', type=float, default=2.6,
                    help='|t| above which a cell is marked (default 2.6: 6 seeds, 5%% two-sided)')
    ap.add_argument('--modes', help='comma-separated modes to compare (default: all)')
    ap.add_argument('--measure', choices=sorted(MEASURES), default='pair',
                    help='what is compared: ' + '; '.join(f'{k}: {v}' for k, v in
                                                          MEASURES.items()) + ' (default pair)')
    ap.add_argument('--changed', action='store_true',
                    help='list only cells whose mean moved (identical cells are counted)')
    args = ap.parse_args(argv)
    if not args.t > 0:
        ap.error(f'--t must be positive (got {args.t})')
    modes = set(args.modes.split(',')) if args.modes else None
    rows, counts = compare(load(args.old, args.measure), load(args.new, args.measure), args.t,
                           modes)
    if not rows:
        sys.exit('no (table, mode, ε, seed) run is in both files: were they run with the same '
                 'tables, modes, ε and seeds?')
    for row in rows:
        if not args.changed or row['new'] != row['old']:
            print(format_row(row))
    for mode, c in sorted(counts.items()):
        print(f"{mode}: {c['cells']} cells, {c['better']} better and {c['worse']} worse "
              f"(|t| > {args.t:g})")
    return 0


if __name__ == '__main__':
    sys.exit(main())

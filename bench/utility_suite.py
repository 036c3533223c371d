#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Utility suite: every mode of deniable-cli on every table, at several ε, with baselines.

So that no dataset is special: a change to domains, bins or models is measured on EVERY CSV
table of the data folder (default ../shared/data) plus a composite wide table made on the fly,
for the modes random, independent, correlated, marginals and deniable at ε = 0.3, 1 and 3, over N seeds.

Per run: mean 1-way and 2-way TVD (`deniable-cli compare`), wall time and peak RSS, and checks:
lost categories (≥ 5% of real rows, < 1% of synthetic ones), cells that do not parse as their
column's type, decimals written per Float column, consistency of (nearly) deterministic column
pairs, and (when python3-sklearn is installed) machine-learning utility and the distinguishing
game. Per table and seed, baselines measured the same way: the PERFECT INDEPENDENT model (each
column drawn from its exact real marginal) and the FLOOR (a random half of the real rows).

The runs use `--seed` so that the measurement is reproducible: a seeded run is NOT a private
release (the CLI says so too). docs/utility-suite.md explains every column of the output.

Standard library only, except the machine-learning columns (numpy + scikit-learn, Debian's
python3-sklearn), which are skipped with a how-to when missing.

Usage (from the repository root; bench/utility_suite.sh is a thin wrapper):
  /usr/bin/python3 bench/utility_suite.py [--cli build/app/deniable-cli] [--quick]
      [--tables adult,penguins] [--modes correlated] [--eps 1] [--seeds 3] [--jobs 2]
      [--out build/utility-suite] [--no-ml] [--keep]
  /usr/bin/python3 bench/utility_suite.py --summarize OUT/results.jsonl [--md OUT/summary.md]
"""

import argparse
import bisect
import calendar
import collections
import csv
import datetime
import hashlib
import json
import math
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA_DIR = os.path.join(REPO, 'bench', 'schemas')
# ../shared/data beside the project, or DENIABLE_SHARED_DATA (as in CMakeLists.txt); --data too.
DEFAULT_DATA = os.environ.get('DENIABLE_SHARED_DATA') or os.path.normpath(
    os.path.join(REPO, '..', 'shared', 'data'))
ALL_MODES = ['random', 'independent', 'correlated', 'marginals', 'deniable']
ALL_EPS = [0.3, 1.0, 3.0]
QUICK_TABLES = ['adult', 'compas_reduced', 'flchain', 'penguins', 'wide']
WIDE = 'wide'

# --- thresholds of the checks (docs/utility-suite.md explains each) -----------------------------
COMMON_SHARE = 0.05      # a category holding >= 5% of real rows ...
LOST_SHARE = 0.01        # ... is lost when its synthetic share is below 1%
LAMBDA_MIN = 0.95        # Goodman-Kruskal lambda(B|A) for a (nearly) deterministic pair
PAIR_B_SHARE = 0.01      # B needs >= 2 values holding >= 1% of rows each
PAIR_MAX_DISTINCT = 100  # A and B have at most 100 distinct values (missing counts as one) ...
PAIR_MIN_PER_VALUE = 20  # ... and A at most rows / 20 (so lambda is not inflated by tiny groups)
ML_MAX_TRAIN = 50000     # rows a classifier is trained on at most (a random subset beyond)
ML_MAX_TEST = 50000
DIST_MAX_PER_SIDE = 20000  # distinguishing game: at most this many real and synthetic rows each
ML_MAX_CATEGORIES = 250    # categorical codes for HistGradientBoosting (max_bins 255)
TIMEOUT_S = 3600

# --- machine-learning targets: one per table, with why --------------------------------------------
# The target is a column of the table; rows whose target is missing are left out of the task.
ML_TARGETS = {
    'adult': ('income', 'the UCI task: income above 50K'),
    'adult_reduced': ('income', 'the UCI task on 6 of its columns'),
    'adult_tiny': ('income', 'the UCI task on a 1,000-row sample'),
    'adult_ssn': ('income', 'the UCI task with 10-45% blanks per column'),
    'adult_with_missing_values': ('income', 'the UCI task with 10-45% blanks per column'),
    'adult_missing': ('income', 'the UCI task; blanks written "<NULL>" (a value for the CLI)'),
    'compas_reduced': ('score_text', 'the COMPAS risk label (this extract has no recidivism '
                       'outcome); nearly a function of decile_score, so it tests that link'),
    'ProPublica_gender': ('is_violent_recid', 'the outcome ProPublica analysed'),
    'GermanCredit_age25': ('CreditEval', 'the good/bad credit label of the Statlog data'),
    'penguins': ('species', 'the classic task: species from measurements'),
    'CSranking_faculty30': ('DeptSizeBin', 'the only label-like column (51 rows: very noisy)'),
    'flchain': ('death', 'the study outcome (mortality)'),
    'fertility': ('morekids', 'the Angrist-Evans question: a third child'),
    'mplsstops': ('citationIssued', 'the stop outcome, where recorded (63% missing)'),
    WIDE: ('adult:income', 'the adult task inside the composite table'),
}


# ================================================================================================
# Small helpers
# ================================================================================================

def log(msg):
    print(msg, file=sys.stderr, flush=True)


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            h.update(chunk)
    return h.hexdigest()


def read_csv(path):
    """Header and rows (lists of texts) of a CSV file; short rows padded with ''."""
    with open(path, newline='', encoding='utf-8', errors='replace') as f:
        rows = list(csv.reader(f))
    if not rows:
        return [], []
    header, body = rows[0], rows[1:]
    width = len(header)
    for r in body:
        if len(r) < width:
            r.extend([''] * (width - len(r)))
    return header, body


def write_csv(path, header, rows):
    with open(path, 'w', newline='', encoding='utf-8') as f:
        w = csv.writer(f, lineterminator='\n')
        w.writerow(header)
        w.writerows(rows)


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def short_error(text):
    """The CLI's error line, without its prefix, on one line."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    errs = [ln for ln in lines if 'error' in ln.lower()]
    msg = (errs[-1] if errs else (lines[-1] if lines else 'no message'))
    return re.sub(r'^deniable-cli:\s*error:\s*', '', msg)


# ================================================================================================
# Typed values: the CLI's Integer / Float grammar and its date-time format language
# (engine/schema/datetime.h, docs/schema.md), re-implemented here to check the CLI's output.
# ================================================================================================

INT_RE = re.compile(r'^[+-]?\d+$')
FLOAT_RE = re.compile(r'^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$')
MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']


def is_integer_text(t):
    return INT_RE.match(t.strip(' \t')) is not None


def is_float_text(t):
    return FLOAT_RE.match(t.strip(' \t')) is not None


def decimals_of(t):
    """Digits written after the point (0 without a point; the mantissa's with an exponent)."""
    t = t.strip(' \t')
    m = FLOAT_RE.match(t)
    if not m or '.' not in m.group(1):
        return 0
    return len(m.group(1).split('.', 1)[1])


class DateTimeFormat:
    """Parser for the strftime subset of engine/schema/datetime.h:
    %Y %y %m %d %H %I %p %M %S %f %Nf %b %z %T %% and the unpadded %-m %-d %-H %-I."""

    def __init__(self, fmt):
        self.fmt = fmt
        self.fields = []
        parts = []
        i = 0
        fmt = fmt.replace('%T', '%H:%M:%S')
        while i < len(fmt):
            c = fmt[i]
            if c != '%':
                parts.append(re.escape(c))
                i += 1
                continue
            i += 1
            if i >= len(fmt):
                raise ValueError('format ends with %')
            d = fmt[i]
            unpadded = False
            if d == '-':
                unpadded = True
                i += 1
                d = fmt[i]
            digits = None
            if d.isdigit():
                digits = int(d)
                i += 1
                d = fmt[i]
            i += 1
            two = r'(\d{1,2})' if unpadded else r'(\d{2})'
            if d == '%':
                parts.append('%')
                continue
            pattern = {
                'Y': r'(\d{4})', 'y': r'(\d{2})', 'm': two, 'd': two, 'H': two, 'I': two,
                'M': r'(\d{2})', 'S': r'(\d{2})', 'b': r'([A-Za-z]{3})', 'p': r'([AaPp][Mm])',
                'z': r'(Z|[+-]\d{2}:?\d{2})',
                'f': r'(\d{%d})' % digits if digits else r'(\d{1,9})',
            }.get(d)
            if pattern is None:
                raise ValueError('unknown directive %' + d)
            parts.append(pattern)
            self.fields.append(d)
        self.regex = re.compile('^' + ''.join(parts) + '$')

    def parse(self, text):
        """Seconds since 1970-01-01 (naive, offsets converted to UTC), or None."""
        m = self.regex.match(text)
        if not m:
            return None
        v = {'Y': 1970, 'm': 1, 'd': 1, 'H': 0, 'M': 0, 'S': 0}
        frac = 0.0
        offset = 0
        hour12 = None
        pm = None
        for d, g in zip(self.fields, m.groups()):
            if d == 'Y':
                v['Y'] = int(g)
            elif d == 'y':
                y = int(g)
                v['Y'] = 2000 + y if y <= 68 else 1900 + y
            elif d in 'mdHMS':
                v[d] = int(g)
            elif d == 'I':
                hour12 = int(g)
            elif d == 'p':
                pm = g.lower() == 'pm'
            elif d == 'b':
                if g.lower() not in MONTHS:
                    return None
                v['m'] = MONTHS.index(g.lower()) + 1
            elif d == 'f':
                frac = float('0.' + g)
            elif d == 'z':
                if g != 'Z':
                    sign = -1 if g[0] == '-' else 1
                    hh, mm = int(g[1:3]), int(g[-2:])
                    if hh > 23 or mm > 59:
                        return None
                    offset = sign * (hh * 3600 + mm * 60)
        if hour12 is not None:
            if not 1 <= hour12 <= 12 or pm is None:
                return None
            v['H'] = hour12 % 12 + (12 if pm else 0)
        if not (1 <= v['m'] <= 12 and 0 <= v['H'] <= 23 and 0 <= v['M'] <= 59 and
                0 <= v['S'] <= 59):
            return None
        if v['Y'] < 1 or not 1 <= v['d'] <= calendar.monthrange(v['Y'], v['m'])[1]:
            return None  # (year 0000 is valid for the engine; Python's dates start at 1)
        days = (datetime.date(v['Y'], v['m'], v['d']) - datetime.date(1970, 1, 1)).days
        return days * 86400 + v['H'] * 3600 + v['M'] * 60 + v['S'] + frac - offset


# ================================================================================================
# Tables: discovery, the composite wide table, per-table facts
# ================================================================================================

def make_wide_table(data_dir, out_path, n=5000):
    """The composite wide table, exactly as the lead's prototype (/tmp/sim/widetable.py) made
    it: the first n rows of each column with at most 60 distinct texts (90 for mplsstops, so
    that its 87-level neighborhood enters) of adult, mplsstops, flchain and fertility, side by
    side, the first 30 such columns, named 'table:column'. Missing cells stay empty."""
    cols = collections.OrderedDict()
    for name, maxdistinct in (('adult', 60), ('mplsstops', 90), ('flchain', 60),
                              ('fertility', 60)):
        with open(os.path.join(data_dir, name + '.csv'), newline='') as f:
            rows = list(csv.reader(f))
        hdr, body = rows[0], rows[1:n + 1]
        for j, h in enumerate(hdr):
            vals = [r[j] for r in body]
            if len(set(vals)) <= maxdistinct:
                cols[name + ':' + h] = vals
    names = list(cols)[:30]
    with open(out_path, 'w', newline='') as f:
        w = csv.writer(f)  # '\r\n' line ends, as the prototype wrote
        w.writerow(names)
        for i in range(n):
            w.writerow([cols[c][i] for c in names])
    return names


def discover_tables(data_dir):
    names = sorted(os.path.splitext(f)[0] for f in os.listdir(data_dir) if f.endswith('.csv'))
    first = ['adult', 'mplsstops', 'fertility', 'flchain', 'penguins']
    ordered = [t for t in first if t in names] + [t for t in names if t not in first]
    if all(os.path.exists(os.path.join(data_dir, t + '.csv'))
           for t in ('adult', 'mplsstops', 'flchain', 'fertility')):
        ordered.append(WIDE)
    return ordered


def value_key(text, ctype, missing):
    """Comparable form of a cell: '' for missing, numbers normalised for numeric types."""
    if text in missing:
        return ''
    if ctype in ('Integer', 'Float'):
        try:
            f = float(text)
        except ValueError:
            return text
        if f.is_integer() and abs(f) < 1e15:
            return str(int(f))
        return repr(f)
    return text


def esc(text):
    """A text for a Markdown table cell."""
    return str(text).replace('|', '\\|').replace('\n', ' ')


def prepare_table(task):
    """Inspect one table once and compute the facts every run of it needs. Returns the facts
    (also written as OUT/work/<table>/facts.json)."""
    name, data_dir, cli, workdir = task['name'], task['data'], task['cli'], task['workdir']
    d = os.path.join(workdir, name)
    os.makedirs(d, exist_ok=True)
    if name == WIDE:
        real = os.path.join(d, 'wide.csv')
        make_wide_table(data_dir, real)
    else:
        real = os.path.join(data_dir, name + '.csv')
    schema = os.path.join(SCHEMA_DIR, name + '.json') if task['use_schemas'] else None
    if schema and not os.path.exists(schema):
        schema = None
    inspected = os.path.join(d, 'inspect.json')
    cmd = [cli, 'inspect', real, '-o', inspected, '-q'] + (['--schema', schema] if schema else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    facts = {'name': name, 'real': real, 'schema': schema, 'dir': d}
    if p.returncode != 0:
        facts['error'] = 'inspect failed: ' + short_error(p.stderr + p.stdout)
        return facts
    with open(inspected) as f:
        sj = json.load(f)
    missing = set(sj.get('csv', {}).get('missing_tokens', ['']))
    missing.add('')
    header, rows = read_csv(real)
    n = len(rows)
    bycol = {c['name']: c for c in sj['columns']}
    cols = []
    for j, h in enumerate(header):
        c = bycol.get(h, {})
        cols.append({'name': h, 'type': c.get('type', 'String'),
                     'categorical': bool(c.get('categorical', False)),
                     'role': c.get('role', 'attribute'),
                     'datetime_format': c.get('datetime_format'),
                     'decimals': c.get('decimals')})
    facts.update(rows=n, header=header, columns=cols, missing=sorted(missing))
    # Real decimals per Float column (largest number of digits written after the point).
    facts['real_decimals'] = {
        c['name']: max((decimals_of(r[j]) for r in rows if r[j] not in missing), default=0)
        for j, c in enumerate(cols) if c['type'] == 'Float'}
    # Keys per column (missing -> '').
    keys = [[value_key(r[j], c['type'], missing) for r in rows] for j, c in enumerate(cols)]
    counts = [collections.Counter(k) for k in keys]
    # Common categories (categorical columns and non-identifier String columns) and spikes
    # (exact values of the other numeric columns, such as capital-gain = 0): values holding
    # >= 5% of the real rows.
    common, spikes = {}, {}
    for j, c in enumerate(cols):
        if c['role'] in ('identifier', 'ignore'):
            continue
        lst = [[k, cnt / n] for k, cnt in counts[j].most_common()
               if k != '' and cnt >= COMMON_SHARE * n]
        if not lst:
            continue
        if c['categorical'] or c['type'] == 'String':
            common[c['name']] = lst
        elif c['type'] in ('Integer', 'Float'):
            spikes[c['name']] = lst
    facts['common_categories'] = common
    facts['spikes'] = spikes
    # (Nearly) deterministic pairs: lambda(B|A) >= 0.95.
    pairs = []
    usable = [j for j, c in enumerate(cols) if c['role'] not in ('identifier', 'ignore')
              and len(counts[j]) <= PAIR_MAX_DISTINCT]
    for a in usable:
        if len(counts[a]) > max(1, n // PAIR_MIN_PER_VALUE) or len(counts[a]) < 2:
            continue
        for b in usable:
            if a == b:
                continue
            if sum(1 for cnt in counts[b].values() if cnt >= PAIR_B_SHARE * n) < 2:
                continue
            joint = collections.defaultdict(collections.Counter)
            for ka, kb in zip(keys[a], keys[b]):
                joint[ka][kb] += 1
            mode_b = counts[b].most_common(1)[0][1]
            if n == mode_b:
                continue
            hits = sum(c.most_common(1)[0][1] for c in joint.values())
            lam = (hits - mode_b) / (n - mode_b)
            if lam >= LAMBDA_MIN:
                pairs.append({'a': cols[a]['name'], 'b': cols[b]['name'], 'lambda': lam,
                              'real_consistency': hits / n,
                              'map': {ka: c.most_common(1)[0][0] for ka, c in joint.items()}})
    facts['pairs'] = pairs
    # Machine-learning target.
    tgt = ML_TARGETS.get(name)
    if tgt and tgt[0] in header:
        j = header.index(tgt[0])
        cls = collections.Counter(k for k in keys[j] if k != '')
        facts['target'] = {'column': tgt[0], 'reason': tgt[1], 'classes': len(cls),
                           'positive': cls.most_common()[-1][0] if len(cls) == 2 else None}
    else:
        facts['target'] = None
    # Self-check of the type check: the real cells themselves (inspect tolerates up to 0.1%
    # of misfits, listed in its stats.failed_values; anything else is a bug of this script).
    facts['real_type_violations'] = check_synthetic(facts, header, rows)['type_violations']
    with open(os.path.join(d, 'facts.json'), 'w') as f:
        json.dump(facts, f)
    return facts


# ================================================================================================
# Checks on one synthetic table
# ================================================================================================

def align(header, rows, real_header):
    """Rows re-ordered to the real header (columns the synthetic table lacks become '')."""
    idx = {h: j for j, h in enumerate(header)}
    order = [idx.get(h) for h in real_header]
    return [[r[j] if j is not None and j < len(r) else '' for j in order] for r in rows]


_REAL_NUMBERS = {}


def real_numbers(facts):
    """Per non-categorical Integer/Float attribute column: its real values, sorted (cached)."""
    key = facts['real']
    if key not in _REAL_NUMBERS:
        missing = set(facts['missing'])
        _, rows = read_csv(facts['real'])
        out = {}
        for j, c in enumerate(facts['columns']):
            if c['type'] not in ('Integer', 'Float') or c['categorical'] or \
                    c['role'] in ('identifier', 'ignore'):
                continue
            vals = []
            for r in rows:
                if j < len(r) and r[j] not in missing:
                    try:
                        vals.append(float(r[j]))
                    except ValueError:
                        pass
            if vals:
                out[j] = sorted(vals)
        _REAL_NUMBERS[key] = out
    return _REAL_NUMBERS[key]


def range_errors(facts, rows):
    """Per numeric column whose range the synthetic data gets wrong: [phantom, lost], the share
    of synthetic values outside the real [min, max] (a tail that was never there) and the share
    of real values outside the synthetic [min, max] (a tail the synthesizer cut off)."""
    missing = set(facts['missing'])
    out = {}
    for j, real in real_numbers(facts).items():
        syn = []
        for r in rows:
            if r[j] not in missing:
                try:
                    syn.append(float(r[j]))
                except ValueError:
                    pass
        if not syn:
            continue
        lo, hi = real[0], real[-1]
        phantom = sum(1 for v in syn if v < lo or v > hi) / len(syn)
        s_lo, s_hi = min(syn), max(syn)
        lost = (bisect.bisect_left(real, s_lo) + len(real) - bisect.bisect_right(real, s_hi)) \
            / len(real)
        if phantom > 0 or lost > 0:
            out[facts['columns'][j]['name']] = [round(phantom, 5), round(lost, 5)]
    return out


def check_synthetic(facts, syn_header, syn_rows):
    """Lost categories, type violations, decimals, deterministic-pair consistency."""
    missing = set(facts['missing'])
    cols = facts['columns']
    rows = align(syn_header, syn_rows, facts['header'])
    n = len(rows) or 1
    out = {'syn_rows': len(rows),
           'missing_columns': [h for h in facts['header'] if h not in syn_header]}
    # Category survival (lost: below 1% of the synthetic rows) and spikes (all reported).
    for kind, source in (('lost', 'common_categories'), ('spikes', 'spikes')):
        found = []
        for j, c in enumerate(cols):
            common = facts.get(source, {}).get(c['name'])
            if not common:
                continue
            cnt = collections.Counter(value_key(r[j], c['type'], missing) for r in rows)
            for k, share in common:
                s = cnt.get(k, 0) / n
                if kind == 'spikes' or s < LOST_SHARE:
                    found.append({'column': c['name'], 'value': k, 'real_share': share,
                                  'syn_share': s})
        out[kind] = found
    # Typed output and decimals.
    violations = {}
    decimals = {}
    for j, c in enumerate(cols):
        t = c['type']
        if t not in ('Integer', 'Float', 'DateTime') or c['role'] in ('identifier', 'ignore'):
            continue
        if c['name'] in out['missing_columns']:
            continue
        bad = collections.Counter()
        if t == 'Integer':
            ok = is_integer_text
        elif t == 'Float':
            ok = is_float_text
        else:
            try:
                parser = DateTimeFormat(c['datetime_format'] or '')
                ok = (lambda p: lambda s: p.parse(s) is not None)(parser)
            except (ValueError, IndexError):
                ok = lambda s: False  # noqa: E731
        cache = {}
        maxdec = 0
        for r in rows:
            s = r[j]
            if s in missing:
                continue
            good = cache.get(s)
            if good is None:
                good = cache[s] = ok(s)
            if not good:
                bad[s] += 1
            elif t == 'Float':
                maxdec = max(maxdec, decimals_of(s))
        if bad:
            violations[c['name']] = {'cells': sum(bad.values()),
                                     'examples': bad.most_common(3)}
        if t == 'Float':
            decimals[c['name']] = [maxdec, facts['real_decimals'].get(c['name'], 0)]
    out['type_violations'] = violations
    out['decimals'] = decimals
    out['range'] = range_errors(facts, rows)
    # Deterministic pairs.
    hidx = {h: j for j, h in enumerate(facts['header'])}
    pair_res = []
    for p in facts['pairs']:
        a, b = hidx[p['a']], hidx[p['b']]
        ta, tb = cols[a]['type'], cols[b]['type']
        mp = p['map']
        known = agree = 0
        for r in rows:
            ka = value_key(r[a], ta, missing)
            exp = mp.get(ka)
            if exp is None:
                continue
            known += 1
            if value_key(r[b], tb, missing) == exp:
                agree += 1
        pair_res.append({'a': p['a'], 'b': p['b'],
                         'consistency': agree / known if known else None,
                         'rows_with_known_a': known})
    out['pairs'] = pair_res
    return out


# ================================================================================================
# Machine learning (optional: numpy + scikit-learn)
# ================================================================================================

def ml_available():
    """Without importing them: the parent must not start OpenMP before OMP_NUM_THREADS is set
    (forked workers would inherit a runtime with one thread per core each, and oversubscribed
    OpenMP threads spin: the suite ran 5x slower that way)."""
    import importlib.util
    return all(importlib.util.find_spec(m) is not None for m in ('numpy', 'sklearn'))


class Encoder:
    """Numbers and date-times as floats; categorical and String columns as codes of their (at
    most 250) most frequent training values, given to HistGradientBoosting as categorical
    features; unseen values and missing cells are NaN (HistGradientBoosting's missing)."""

    def __init__(self, facts, feature_idx, train_rows):
        missing = set(facts['missing'])
        self.missing = missing
        self.specs = []
        for j in feature_idx:
            c = facts['columns'][j]
            if c['categorical'] or c['type'] == 'String':
                cnt = collections.Counter(r[j] for r in train_rows if r[j] not in missing)
                codes = {v: i for i, (v, _) in enumerate(cnt.most_common(ML_MAX_CATEGORIES))}
                self.specs.append((j, 'cat', codes))
            elif c['type'] == 'DateTime':
                try:
                    self.specs.append((j, 'dt', DateTimeFormat(c['datetime_format'] or '')))
                except (ValueError, IndexError):
                    self.specs.append((j, 'num', None))
            else:
                self.specs.append((j, 'num', None))
        self.categorical_mask = [kind == 'cat' for _, kind, _ in self.specs]

    def transform(self, rows):
        import numpy as np
        nan = float('nan')
        out = np.empty((len(rows), len(self.specs)), dtype=float)
        for k, (j, kind, aux) in enumerate(self.specs):
            col = out[:, k]
            cache = {}
            for i, r in enumerate(rows):
                s = r[j]
                v = cache.get(s)
                if v is None:
                    if s in self.missing:
                        v = nan
                    elif kind == 'cat':
                        v = float(aux[s]) if s in aux else nan
                    elif kind == 'dt':
                        x = aux.parse(s)
                        v = nan if x is None else float(x)
                    else:
                        try:
                            v = float(s)
                            if not math.isfinite(v):
                                v = nan
                        except ValueError:
                            v = nan
                    cache[s] = v
                col[i] = v
        return out


def _classifier(encoder, seed):
    from sklearn.ensemble import HistGradientBoostingClassifier
    mask = encoder.categorical_mask
    return HistGradientBoostingClassifier(
        categorical_features=mask if any(mask) else None, random_state=seed)


def _subsample(rows, cap, rng):
    return rows if len(rows) <= cap else rng.sample(rows, cap)


def ml_utility(facts, train_rows, test_rows, seed):
    """Train on train_rows, test on test_rows (real): AUC for a binary target (positive = the
    real table's rarer class), accuracy otherwise. Rows with a missing target are left out."""
    from sklearn.metrics import roc_auc_score
    import numpy as np
    tgt = facts['target']
    ti = facts['header'].index(tgt['column'])
    ttype = facts['columns'][ti]['type']
    missing = set(facts['missing'])
    rng = random.Random('%s:%d:ml' % (facts['name'], seed))
    tr = _subsample([r for r in train_rows if r[ti] not in missing], ML_MAX_TRAIN, rng)
    te = _subsample([r for r in test_rows if r[ti] not in missing], ML_MAX_TEST, rng)
    if not tr or not te:
        return {'error': 'no rows with a target'}
    feats = [j for j, c in enumerate(facts['columns'])
             if j != ti and c['role'] not in ('identifier', 'ignore')]
    if not feats:
        return {'error': 'no feature column besides the target'}
    enc = Encoder(facts, feats, tr)
    ytr = [value_key(r[ti], ttype, missing) for r in tr]
    yte = [value_key(r[ti], ttype, missing) for r in te]
    # A class seen once cannot be stratified into HistGradientBoosting's early-stopping split
    # (a synthetic 'Other' written once, say): such rows are left out of the training set.
    once = {y for y, c in collections.Counter(ytr).items() if c < 2}
    if once and len(once) < len(set(ytr)):
        keep = [i for i, y in enumerate(ytr) if y not in once]
        tr = [tr[i] for i in keep]
        ytr = [ytr[i] for i in keep]
        enc = Encoder(facts, feats, tr)
    binary = tgt['classes'] == 2
    metric = 'auc' if binary else 'accuracy'
    if len(set(ytr)) < 2:
        only = ytr[0]
        score = 0.5 if binary else sum(1 for y in yte if y == only) / len(yte)
        return {'metric': metric, 'score': score, 'note': 'one class in training rows'}
    clf = _classifier(enc, seed)
    clf.fit(enc.transform(tr), ytr)
    Xte = enc.transform(te)
    if binary:
        pos = tgt['positive']
        truth = np.array([y == pos for y in yte])
        if truth.all() or not truth.any():
            return {'metric': metric, 'score': None, 'note': 'one class in test rows'}
        classes = list(clf.classes_)
        if pos not in classes:
            return {'metric': metric, 'score': 0.5, 'note': 'positive class never trained'}
        proba = clf.predict_proba(Xte)[:, classes.index(pos)]
        return {'metric': metric, 'score': float(roc_auc_score(truth, proba))}
    pred = clf.predict(Xte)
    return {'metric': metric, 'score': float(np.mean([p == y for p, y in zip(pred, yte)]))}


def distinguish(facts, real_rows, syn_rows, seed):
    """The distinguishing game: as many real as synthetic rows (at most 20,000 each), half of
    each to train a classifier telling them apart, the other half to test it. Held-out
    accuracy: 0.5 = indistinguishable, 1 = always told apart."""
    import numpy as np
    rng = random.Random('%s:%d:dist' % (facts['name'], seed))
    m = min(len(real_rows), len(syn_rows), DIST_MAX_PER_SIDE)
    if m < 4:
        return {'error': 'too few rows'}
    real = rng.sample(real_rows, m)
    syn = rng.sample(syn_rows, m)
    h = m // 2
    train = real[:h] + syn[:h]
    ytr = [0] * h + [1] * h
    test = real[h:] + syn[h:]
    yte = [0] * (m - h) + [1] * (m - h)
    feats = [j for j, c in enumerate(facts['columns']) if c['role'] not in ('identifier', 'ignore')]
    if not feats:
        return {'error': 'no column to compare'}
    enc = Encoder(facts, feats, train)
    clf = _classifier(enc, seed)
    clf.fit(enc.transform(train), ytr)
    pred = clf.predict(enc.transform(test))
    return {'accuracy': float(np.mean(np.array(pred) == np.array(yte))), 'rows_per_side': m}


def halves(facts, seed):
    """The ML protocol's split of the real rows: half A (the synthesizer and the real
    reference classifier learn from it) and half B (held out: every test is on it)."""
    header, rows = read_csv(facts['real'])
    idx = list(range(len(rows)))
    random.Random('%s:%d:halves' % (facts['name'], seed)).shuffle(idx)
    na = (len(rows) + 1) // 2
    a = [rows[i] for i in sorted(idx[:na])]
    b = [rows[i] for i in sorted(idx[na:])]
    return header, a, b


def ml_scores(facts, syn_path, b_rows, seed):
    sh, srows = read_csv(syn_path)
    srows = align(sh, srows, facts['header'])
    out = {}
    if facts.get('target'):
        out['utility'] = ml_utility(facts, srows, b_rows, seed)
    out['distinguish'] = distinguish(facts, b_rows, srows, seed)
    return out


# ================================================================================================
# Running the CLI
# ================================================================================================

TIME_BIN = '/usr/bin/time'


def run_timed(cmd, workdir):
    """Runs cmd; returns (returncode, wall seconds, peak RSS in KB or None, stderr+stdout)."""
    tfile = os.path.join(workdir, 'time.txt')
    use_time = os.path.exists(TIME_BIN)
    full = ([TIME_BIN, '-v', '-o', tfile] + cmd) if use_time else cmd
    t0 = time.monotonic()
    try:
        p = subprocess.run(full, capture_output=True, text=True, timeout=TIMEOUT_S)
        rc, text = p.returncode, p.stderr + p.stdout
    except subprocess.TimeoutExpired:
        return None, time.monotonic() - t0, None, 'timed out after %d s' % TIMEOUT_S
    wall = time.monotonic() - t0
    rss = None
    if use_time and os.path.exists(tfile):
        with open(tfile) as f:
            tv = f.read()
        m = re.search(r'Maximum resident set size \(kbytes\):\s*(\d+)', tv)
        rss = int(m.group(1)) if m else None
        m = re.search(r'Command terminated by signal (\d+)', tv)
        if m:
            rc = -int(m.group(1))
        m = re.search(r'Exit status:\s*(\d+)', tv)
        if m and rc == 0:
            rc = int(m.group(1))
    return rc, wall, rss, text


def failure_text(rc, text):
    if rc is None:
        return text
    if rc < 0:
        return 'crashed (signal %d): %s' % (-rc, short_error(text))
    return short_error(text)


def synthesize(cfg, facts, src, mode, eps, seed, n, out_csv, workdir):
    cmd = [cfg['cli'], 'synthesize', src, '--mode', mode, '--epsilon', repr(eps), '-n', str(n),
           '-o', out_csv, '--seed', str(seed), '-q', '--threads', str(cfg['threads'])]
    if facts['schema']:
        cmd += ['--schema', facts['schema']]
    return run_timed(cmd, workdir)


def compare(cfg, facts, real, syn, workdir):
    mj = os.path.join(workdir, 'metrics.json')
    cmd = [cfg['cli'], 'compare', real, syn, '-o', mj, '-q']
    if facts['schema']:
        cmd += ['--schema', facts['schema']]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
    if p.returncode != 0:
        return {'compare_error': short_error(p.stderr + p.stdout)}
    with open(mj) as f:
        m = json.load(f)
    return {'mean_pair_tvd': m.get('mean_pair_tvd'), 'mean_column_tvd': m.get('mean_column_tvd'),
            'pair_count': m.get('pair_count')}


_FACTS = {}


def load_facts(path):
    if path not in _FACTS:
        with open(path) as f:
            _FACTS[path] = json.load(f)
    return _FACTS[path]


def run_one(cfg, task):
    """One synthesis run (table, mode, ε, seed): measure it; then, for the ML protocol, one
    more run from half A of the real rows, tested on half B."""
    facts = load_facts(task['facts'])
    table, mode, eps, seed = task['table'], task['mode'], task['eps'], task['seed']
    rec = {'kind': 'run', 'table': table, 'mode': mode, 'eps': eps, 'seed': seed,
           'rows': facts['rows'], 'cols': len(facts['header'])}
    t0 = time.monotonic()
    d = os.path.join(facts['dir'], '%s-eps%s-seed%d' % (mode, eps, seed))
    os.makedirs(d, exist_ok=True)
    syn = os.path.join(d, 'syn.csv')
    try:
        rc, wall, rss, text = synthesize(cfg, facts, facts['real'], mode, eps, seed,
                                         facts['rows'], syn, d)
        rec.update(wall_s=round(wall, 3), peak_rss_kb=rss)
        if rc != 0:
            rec.update(ok=False, error=failure_text(rc, text), rc=rc)
        else:
            rec['ok'] = True
            rec.update(compare(cfg, facts, facts['real'], syn, d))
            sh, srows = read_csv(syn)
            rec.update(check_synthetic(facts, sh, srows))
        if cfg['ml'] and rec['ok']:
            header, a_rows, b_rows = halves(facts, seed)
            a_path = os.path.join(d, 'half_a.csv')
            write_csv(a_path, header, a_rows)
            syn_a = os.path.join(d, 'syn_from_a.csv')
            rc, _, _, text = synthesize(cfg, facts, a_path, mode, eps, seed, len(a_rows),
                                        syn_a, d)
            if rc != 0:
                rec['ml'] = {'error': 'synthesis from half A: ' + failure_text(rc, text)}
            else:
                t1 = time.monotonic()
                try:
                    rec['ml'] = ml_scores(facts, syn_a, b_rows, seed)
                except Exception as e:  # keep the run's other figures
                    rec['ml'] = {'error': 'suite error in ML: %s: %s' % (type(e).__name__, e)}
                rec['ml']['ml_s'] = round(time.monotonic() - t1, 2)
    except Exception as e:  # a bug of this script or a malformed output: a cell, not a crash
        rec.update(ok=False, error='suite error: %s: %s' % (type(e).__name__, e))
    finally:
        if not cfg['keep']:
            shutil.rmtree(d, ignore_errors=True)
    rec['task_s'] = round(time.monotonic() - t0, 2)
    return rec


def perfect_independent(rows, width, rng):
    """As many rows as `rows`, each cell drawn independently from its column's exact
    empirical distribution (missing cells included)."""
    cols = [[rng.choice(cv) for _ in range(len(rows))]
            for cv in ([r[j] for r in rows] for j in range(width))]
    return [list(x) for x in zip(*cols)]


def baseline_one(cfg, task):
    """The per-(table, seed) baselines: PERFECT INDEPENDENT (each column drawn from its exact
    real marginal, as many rows as the real table) and FLOOR (a random half of the real rows),
    both compared with the real table; and the ML references on the same halves as the runs."""
    facts = load_facts(task['facts'])
    table, seed = task['table'], task['seed']
    d = os.path.join(facts['dir'], 'baseline-seed%d' % seed)
    os.makedirs(d, exist_ok=True)
    recs = []
    try:
        header, rows = read_csv(facts['real'])
        n = len(rows)
        indep = perfect_independent(rows, len(header),
                                    random.Random('%s:%d:independent' % (table, seed)))
        rng = random.Random('%s:%d:floor' % (table, seed))
        floor = rng.sample(rows, n // 2)
        for which, data in (('perfect_independent', indep), ('floor', floor)):
            p = os.path.join(d, which + '.csv')
            write_csv(p, header, data)
            rec = {'kind': 'baseline', 'table': table, 'baseline': which, 'seed': seed,
                   'rows': n, 'cols': len(header), 'ok': True}
            rec.update(compare(cfg, facts, facts['real'], p, d))
            rec.update(check_synthetic(facts, header, data))
            recs.append(rec)
        if cfg['ml']:
            header, a_rows, b_rows = halves(facts, seed)
            ml = {}
            if facts.get('target'):
                ml['real_utility'] = ml_utility(facts, a_rows, b_rows, seed)
            ml['real_distinguish'] = distinguish(facts, b_rows, a_rows, seed)
            ind_a = perfect_independent(a_rows, len(header),
                                        random.Random('%s:%d:independent-a' % (table, seed)))
            if facts.get('target'):
                ml['independent_utility'] = ml_utility(facts, ind_a, b_rows, seed)
            ml['independent_distinguish'] = distinguish(facts, b_rows, ind_a, seed)
            recs.append({'kind': 'ml_baseline', 'table': table, 'seed': seed, 'ml': ml})
    except Exception as e:
        recs.append({'kind': 'baseline', 'table': table, 'baseline': 'error', 'seed': seed,
                     'ok': False, 'error': 'suite error: %s: %s' % (type(e).__name__, e)})
    finally:
        if not cfg['keep']:
            shutil.rmtree(d, ignore_errors=True)
    return recs


def worker(cfg, task):
    if task['kind'] == 'baseline':
        return baseline_one(cfg, task)
    return [run_one(cfg, task)]


# ================================================================================================
# Summary (Markdown)
# ================================================================================================

def fmt(x, digits=3):
    return '—' if x is None else ('%.*f' % (digits, x))


def load_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def summarize(records):
    meta = dict(next((r for r in records if r.get('kind') == 'meta'), {}))
    end = next((r for r in records if r.get('kind') == 'meta_end'), None)
    if end:
        meta['elapsed_s'] = end['elapsed_s']
    facts = {r['table']: r for r in records if r.get('kind') == 'table'}
    runs = [r for r in records if r.get('kind') == 'run']
    base = [r for r in records if r.get('kind') == 'baseline' and r.get('ok')]
    mlb = [r for r in records if r.get('kind') == 'ml_baseline']
    tables = [t for t in meta.get('tables', []) if t in facts] or sorted(facts)
    modes = [m for m in ALL_MODES if any(r['mode'] == m for r in runs)]
    eps_list = sorted({r['eps'] for r in runs})
    by = collections.defaultdict(list)
    for r in runs:
        by[(r['table'], r['eps'], r['mode'])].append(r)
    bb = collections.defaultdict(list)
    for r in base:
        bb[(r['table'], r['baseline'])].append(r)
    mb = collections.defaultdict(list)
    for r in mlb:
        mb[r['table']].append(r['ml'])
    errors = collections.OrderedDict()

    def err_ref(msg):
        # One reference per kind of message: the numbers in it (ε shares, noisy counts) vary.
        key = re.sub(r'-?\d+(\.\d+)?(e-?\d+)?', '#', msg)
        if key not in errors:
            errors[key] = [len(errors) + 1, msg, set()]
        errors[key][2].add(msg)
        return 'E%d' % errors[key][0]

    def tvd_cell(rs):
        if not rs:
            return ''
        ok = [r for r in rs if r.get('ok') and r.get('mean_pair_tvd') is not None]
        bad = [r for r in rs if not r.get('ok') or r.get('mean_pair_tvd') is None]
        refs = sorted({err_ref(r.get('error') or r.get('compare_error') or 'unknown')
                       for r in bad})
        if not ok:
            return 'refused ' + ','.join(refs)
        cell = '%s (%s)' % (fmt(mean([r['mean_pair_tvd'] for r in ok])),
                            fmt(mean([r['mean_column_tvd'] for r in ok])))
        if bad:
            cell += ' [%d/%d refused %s]' % (len(bad), len(rs), ','.join(refs))
        return cell

    def base_mean(table, which, key):
        return mean([r.get(key) for r in bb[(table, which)]])

    out = []
    w = out.append
    w('# Utility suite results\n')
    w('CLI: `%s` (sha256 %s…), %s; seeds %s; modes %s; ε %s; %s. Seeded runs: reproducible, '
      '**NOT private releases**.\n' % (
          meta.get('cli', '?'), meta.get('cli_sha256', '?')[:12], meta.get('date', '?'),
          meta.get('seeds', '?'), ', '.join(modes), ', '.join('%g' % e for e in eps_list),
          'ML columns on' if meta.get('ml') else 'ML columns off (python3-sklearn missing or '
          '--no-ml)'))
    if meta.get('elapsed_s') is not None:
        w('Wall time of the whole suite: %.0f s (%.1f min) with %s parallel jobs; machine: %s.\n'
          % (meta['elapsed_s'], meta['elapsed_s'] / 60, meta.get('jobs'), meta.get('machine')))
    if meta.get('command'):
        w('Command: `%s`\n' % meta['command'])
    schema_tables = [t for t in tables if facts[t].get('schema')]
    w('Tables run with a public-bounds schema from bench/schemas/: %s.\n' %
      (', '.join(schema_tables) if schema_tables else 'none'))

    for eps in eps_list:
        w('\n## Mean 2-way TVD (1-way in parentheses), ε = %g\n' % eps)
        w('| table | rows × cols | ' + ' | '.join(modes) +
          ' | perfect independent | floor (half the real rows) | correlated ÷ perfect indep. |')
        w('|---|---:|' + '---|' * len(modes) + '---|---|---:|')
        for t in tables:
            f = facts[t]
            cells = [tvd_cell(by[(t, eps, m)]) for m in modes]
            pi2 = base_mean(t, 'perfect_independent', 'mean_pair_tvd')
            pi1 = base_mean(t, 'perfect_independent', 'mean_column_tvd')
            fl2 = base_mean(t, 'floor', 'mean_pair_tvd')
            fl1 = base_mean(t, 'floor', 'mean_column_tvd')
            corr = [r['mean_pair_tvd'] for r in by[(t, eps, 'correlated')]
                    if r.get('ok') and r.get('mean_pair_tvd') is not None]
            ratio = fmt(mean(corr) / pi2, 2) if corr and pi2 else '—'
            w('| %s%s | %s × %s | %s | %s (%s) | %s (%s) | %s |' % (
                t, ' ¹' if f.get('schema') else '', f.get('rows', '?'), f.get('cols', '?'),
                ' | '.join(cells), fmt(pi2), fmt(pi1), fmt(fl2), fmt(fl1), ratio))
        w('\n¹ run with its public-bounds schema (bench/schemas/). Cells: mean over the seeds '
          'that ran; "refused E<k>": every seed refused (errors listed at the end).')

    for eps in eps_list:
        w('\n## Extra checks, ε = %g (means over seeds)\n' % eps)
        w('| table | mode | lost ≥5% categories | numeric spikes ≥5%: thinned below half '
          '(real→syn share) | numeric range: phantom / cut share ≥ 1% | cells not of their type '
          '| Float decimals syn/real | deterministic pairs: consistency (min) | ML utility from '
          'syn (real half; indep.) | distinguishing accuracy (real half; indep.) | wall s | '
          'peak MB |')
        w('|---|---|---|---|---|---|---|---|---|---|---:|---:|')
        for t in tables:
            for m in modes:
                rs = by[(t, eps, m)]
                if not rs:
                    continue
                ok = [r for r in rs if r.get('ok')]
                if not ok:
                    refs = sorted({err_ref(r.get('error', 'unknown')) for r in rs})
                    w('| %s | %s | refused %s | | | | | | | | %s | |' % (
                        t, m, ','.join(refs), fmt(mean([r.get('wall_s') for r in rs]), 2)))
                    continue
                w('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
                    t, m, lost_cell(ok), spike_cell(ok), range_cell(ok), type_cell(ok),
                    dec_cell(ok), pair_cell(ok),
                    ml_cell(ok, mb[t], 'utility', err_ref), ml_cell(ok, mb[t], 'distinguish', err_ref),
                    fmt(mean([r.get('wall_s') for r in ok]), 2),
                    fmt(mean([(r.get('peak_rss_kb') or 0) / 1024 for r in ok]) if any(
                        r.get('peak_rss_kb') for r in ok) else None, 0)))
        w('\n† the synthetic rows\' target had a single value in some seed (every other '
          'category lost): the classifier can only guess (AUC 0.5).')

    w('\n## Baseline checks (perfect independent model; floor)\n')
    w('| table | real cells not of their type | lost ≥5% categories (indep.) | deterministic pairs (λ(B\\|A) ≥ 0.95 in the real '
      'table): consistency real / perfect independent / floor | ML target |')
    w('|---|---|---|---|---|')
    for t in tables:
        f = facts[t]
        ind = bb[(t, 'perfect_independent')]
        flo = bb[(t, 'floor')]
        pairs = []
        for p in f.get('pairs', []):
            ci = mean([next((q['consistency'] for q in r.get('pairs', [])
                             if q['a'] == p['a'] and q['b'] == p['b']), None) for r in ind])
            cf = mean([next((q['consistency'] for q in r.get('pairs', [])
                             if q['a'] == p['a'] and q['b'] == p['b']), None) for r in flo])
            pairs.append('%s→%s %s/%s/%s' % (p['a'], p['b'], fmt(p['real_consistency'], 2),
                                            fmt(ci, 2), fmt(cf, 2)))
        tg = f.get('target')
        w('| %s | %s | %s | %s | %s |' % (
            t, type_cell([{'type_violations': f.get('real_type_violations') or {}}]),
            lost_cell(ind) if ind else '—', '; '.join(pairs) if pairs else 'none',
            '%s (%s; %s)' % (tg['column'], 'AUC' if tg['classes'] == 2 else 'accuracy',
                             tg['reason']) if tg else 'none'))

    tg = targets_table(tables, facts, by, bb, mb)
    if tg:
        w('\n## The issue\'s targets: ε = 1, correlated, no schema, tables of ≥ 5,000 rows\n')
        out.extend(tg)

    if errors:
        w('\n## Refusals and errors\n')
        for k, msg, seen in errors.values():
            w('- **E%d**: %s%s' % (k, esc(msg), ' (%d variants: the numbers differ)' % len(seen)
                                   if len(seen) > 1 else ''))
    return '\n'.join(out) + '\n'


def lost_cell(rs):
    cnt = collections.Counter()
    for r in rs:
        for x in r.get('lost', []):
            cnt['%s=%s' % (x['column'], x['value'])] += 1
    n = mean([len(r.get('lost', [])) for r in rs])
    if not n:
        return '0'
    items = ', '.join(esc(k) for k, _ in cnt.most_common(4))
    more = len(cnt) - 4
    return '%s: %s%s' % (fmt(n, 1), items, ' +%d more' % more if more > 0 else '')


def spike_cell(rs):
    """Spikes whose synthetic share is below half the real one: 'column=value real→syn'."""
    per = collections.defaultdict(list)
    real = {}
    for r in rs:
        for x in r.get('spikes', []):
            key = '%s=%s' % (x['column'], x['value'])
            per[key].append(x['syn_share'])
            real[key] = x['real_share']
    if not per:
        return '—'
    thin = sorted(((k, real[k], mean(v)) for k, v in per.items() if mean(v) < real[k] / 2),
                  key=lambda t: t[2] - t[1])
    if not thin:
        return 'kept (%d)' % len(per)
    return '%d of %d: %s' % (len(thin), len(per), ', '.join(
        '%s %.2f→%.2f' % (esc(k), a, b) for k, a, b in thin[:3]) + (' …' if len(thin) > 3 else ''))


def range_cell(rs):
    """Numeric columns whose range is off by >= 1% on average: 'column phantom/cut', worst first
    (phantom: synthetic values outside the real [min, max]; cut: real values outside the
    synthetic one)."""
    if not any('range' in r for r in rs):
        return '—'
    per = collections.defaultdict(lambda: [0.0, 0.0])
    for r in rs:
        for col, (phantom, cut) in (r.get('range') or {}).items():
            per[col][0] += phantom / len(rs)
            per[col][1] += cut / len(rs)
    off = sorted(((c, p, k) for c, (p, k) in per.items() if p + k >= 0.01),
                 key=lambda t: -(t[1] + t[2]))
    if not off:
        return 'within 1%'
    return ', '.join('%s %.2f/%.2f' % (esc(c), p, k) for c, p, k in off[:3]) + (
        ' …' if len(off) > 3 else '')


def type_cell(rs):
    cells = collections.Counter()
    examples = {}
    for r in rs:
        for col, v in r.get('type_violations', {}).items():
            cells[col] += v['cells']
            examples.setdefault(col, v['examples'][0][0] if v['examples'] else '')
    if not cells:
        return '0'
    k = len(rs)
    return '; '.join('%s: %d cells \'%s\'' % (esc(c), round(n / k), esc(examples[c][:20]))
                     for c, n in cells.most_common(3)) + (
        ' +%d cols' % (len(cells) - 3) if len(cells) > 3 else '')


def dec_cell(rs):
    worst = {}
    for r in rs:
        for col, (s, real) in r.get('decimals', {}).items():
            worst[col] = (max(s, worst.get(col, (0, 0))[0]), real)
    if not worst:
        return '—'
    diff = ['%s %d/%d' % (c, s, real) for c, (s, real) in worst.items() if s != real]
    return ', '.join(diff[:3]) + (' …' if len(diff) > 3 else '') if diff else 'all equal'


def pair_means(rs):
    """{(A, B): mean consistency over the runs} for the deterministic pairs."""
    per = collections.defaultdict(list)
    for r in rs:
        for p in r.get('pairs', []):
            if p['consistency'] is not None:
                per[(p['a'], p['b'])].append(p['consistency'])
    return {k: mean(v) for k, v in per.items()}


def pair_cell(rs):
    means = pair_means(rs)
    if not means:
        return '—'
    (a, b), v = min(means.items(), key=lambda kv: kv[1])
    return '%s (%s→%s), %d pairs' % (fmt(v, 2), a, b, len(means))


ONE_CLASS_NOTES = ('one class in training rows', 'positive class never trained')


def ml_cell(rs, mlbase, which, err_ref):
    if which == 'utility':
        vals = [r.get('ml', {}).get('utility', {}).get('score') for r in rs]
        ref = mean([m.get('real_utility', {}).get('score') for m in mlbase])
        ind = mean([m.get('independent_utility', {}).get('score') for m in mlbase])
    else:
        vals = [r.get('ml', {}).get('distinguish', {}).get('accuracy') for r in rs]
        ref = mean([m.get('real_distinguish', {}).get('accuracy') for m in mlbase])
        ind = mean([m.get('independent_distinguish', {}).get('accuracy') for m in mlbase])
    errs = sorted({err_ref(r['ml']['error']) for r in rs
                   if isinstance(r.get('ml'), dict) and 'error' in r['ml']})
    v = mean(vals)
    if v is None:
        return ('refused ' + ','.join(errs)) if errs else '—'
    one_class = which == 'utility' and any(
        r.get('ml', {}).get('utility', {}).get('note') in ONE_CLASS_NOTES for r in rs)
    return '%s%s (%s; %s)%s' % (fmt(v), '†' if one_class else '', fmt(ref), fmt(ind),
                                (' [%d refused %s]' % (len(errs), ','.join(errs))) if errs else '')


def targets_table(tables, facts, by, bb, mb):
    big = [t for t in tables if facts[t].get('rows', 0) >= 5000 and not facts[t].get('schema')]
    if not big or not any(by[(t, 1.0, 'correlated')] for t in big):
        return []
    lines = ['| table | 2-way TVD ≤ 0.8 × perfect indep. | 1-way TVD | every ≥5% category '
             'survives | deterministic pairs ≥ 95% | ML utility | distinguishing ≤ 0.70 |',
             '|---|---|---|---|---|---|---|']
    ones = []
    for t in big:
        rs = [r for r in by[(t, 1.0, 'correlated')] if r.get('ok')]
        if not rs:
            lines.append('| %s | refused | | | | | |' % t)
            continue
        two = mean([r.get('mean_pair_tvd') for r in rs])
        one = mean([r.get('mean_column_tvd') for r in rs])
        ones.append(one)
        pi = mean([r.get('mean_pair_tvd') for r in bb[(t, 'perfect_independent')]])
        lost = mean([len(r.get('lost', [])) for r in rs])
        worst = min(pair_means(rs).values(), default=None)
        util = mean([r.get('ml', {}).get('utility', {}).get('score') for r in rs])
        dist = mean([r.get('ml', {}).get('distinguish', {}).get('accuracy') for r in rs])
        tg = facts[t].get('target')
        util_txt = '—'
        if util is not None:
            util_txt = '%s %s' % ('AUC' if tg and tg['classes'] == 2 else 'acc.', fmt(util))
            if t == 'adult':
                util_txt += ' %s (target ≥ 0.85)' % ('✅' if util >= 0.85 else '❌')

        def mark(ok):
            return '✅' if ok else '❌'
        lines.append('| %s | %s %s vs %s (ratio %s) | %s %s | %s %s lost | %s | %s | %s |' % (
            t, mark(pi and two <= 0.8 * pi), fmt(two), fmt(pi),
            fmt(two / pi, 2) if pi else '—', mark(one <= 0.03), fmt(one, 4),
            mark(not lost), fmt(lost, 1),
            ('%s min %s' % (mark(worst >= 0.95), fmt(worst))) if worst is not None else 'no pairs',
            util_txt,
            ('%s %s' % (mark(dist <= 0.70), fmt(dist))) if dist is not None else '—'))
    if ones:
        lines.append('\nMean 1-way TVD over these tables: %s (target ≤ 0.03 on average: %s).'
                     % (fmt(mean(ones)), '✅' if mean(ones) <= 0.03 else '❌'))
    return lines


# ================================================================================================
# Main
# ================================================================================================

def parse_list(text, conv=str):
    return [conv(x) for x in text.split(',') if x.strip()]


def main():
    ap = argparse.ArgumentParser(
        description='Utility suite: every mode of deniable-cli on every table at several ε '
                    '(seeded runs: reproducible, NOT private releases).')
    ap.add_argument('cli_pos', nargs='?', metavar='CLI',
                    help='deniable-cli to measure (or a build folder holding app/deniable-cli)')
    ap.add_argument('--cli', help='same as the positional CLI (default build/app/deniable-cli)')
    ap.add_argument('--data', default=DEFAULT_DATA, help='folder of the real CSV tables')
    ap.add_argument('--tables', help='comma-separated table names (file names without .csv; '
                    '"wide" = the composite wide table)')
    ap.add_argument('--modes', default=','.join(ALL_MODES))
    ap.add_argument('--eps', default=','.join('%g' % e for e in ALL_EPS))
    ap.add_argument('--seeds', type=int, default=3, help='seeds 1..N per cell (default 3)')
    ap.add_argument('--seeds-large', type=int, default=None,
                    help='seeds for tables of >= 100,000 rows (default: --seeds)')
    ap.add_argument('--jobs', type=int, default=2, help='parallel runs (default 2)')
    ap.add_argument('--quick', action='store_true',
                    help='1 seed, ε = 1, tables ' + ','.join(QUICK_TABLES))
    ap.add_argument('--out', default=os.path.join(REPO, 'build', 'utility-suite'),
                    help='output folder: results.jsonl, summary.md, work/')
    ap.add_argument('--no-ml', action='store_true', help='skip the machine-learning columns')
    ap.add_argument('--no-schemas', action='store_true',
                    help='run every table without its bench/schemas/ file')
    ap.add_argument('--keep', action='store_true', help='keep the synthetic CSVs in OUT/work')
    ap.add_argument('--summarize', metavar='RESULTS.jsonl',
                    help='only (re)write the Markdown summary of a results file')
    ap.add_argument('--md', help='where to write the summary (default OUT/summary.md)')
    args = ap.parse_args()

    if args.summarize:
        md = summarize(load_jsonl(args.summarize))
        path = args.md or os.path.join(os.path.dirname(os.path.abspath(args.summarize)),
                                       'summary.md')
        with open(path, 'w') as f:
            f.write(md)
        print(md)
        return 0

    cli = args.cli or args.cli_pos or os.path.join(REPO, 'build', 'app', 'deniable-cli')
    if os.path.isdir(cli):
        cli = os.path.join(cli, 'app', 'deniable-cli')
    cli = os.path.abspath(cli)
    if not os.access(cli, os.X_OK):
        log('utility_suite: no executable deniable-cli at %s (build it, or pass --cli PATH)' % cli)
        return 2
    if not os.path.isdir(args.data):
        log('utility_suite: no data folder %s (--data DIR)' % args.data)
        return 2
    tables = discover_tables(args.data)
    modes, eps_list, seeds = parse_list(args.modes), parse_list(args.eps, float), args.seeds
    if args.quick:
        tables = [t for t in QUICK_TABLES if t in tables]
        eps_list, seeds = [1.0], 1
    if args.tables:
        want = parse_list(args.tables)
        unknown = [t for t in want if t not in tables]
        if unknown:
            log('utility_suite: unknown table(s) %s; known: %s' % (', '.join(unknown),
                                                                   ', '.join(tables)))
            return 2
        tables = want
    bad = [m for m in modes if m not in ALL_MODES]
    if bad:
        log('utility_suite: unknown mode(s) %s (%s)' % (', '.join(bad), ', '.join(ALL_MODES)))
        return 2
    jobs = max(1, args.jobs)
    threads = max(1, (os.cpu_count() or 2) // jobs)
    os.environ['OMP_NUM_THREADS'] = str(threads)  # scikit-learn's OpenMP, inherited by workers
    ml = not args.no_ml and ml_available()
    if not args.no_ml and not ml:
        log('utility_suite: numpy/scikit-learn not found: the ML columns are skipped. Install '
            'them with: apt-get install -y python3-sklearn (and run /usr/bin/python3)')
    out = os.path.abspath(args.out)
    work = os.path.join(out, 'work')
    os.makedirs(work, exist_ok=True)
    results_path = os.path.join(out, 'results.jsonl')
    cfg = {'cli': cli, 'threads': threads, 'ml': ml, 'keep': args.keep}
    t_start = time.monotonic()
    meta = {'kind': 'meta', 'cli': cli, 'cli_sha256': sha256_of(cli),
            'date': datetime.datetime.now().astimezone().isoformat(timespec='seconds'),
            'tables': tables, 'modes': modes, 'eps': eps_list, 'seeds': seeds,
            'seeds_large': args.seeds_large, 'jobs': jobs, 'threads_per_run': threads, 'ml': ml,
            'machine': '%s, %d cores, load %s' % (platform.node(), os.cpu_count() or 0,
                                                  open('/proc/loadavg').read().split()[0]
                                                  if os.path.exists('/proc/loadavg') else '?'),
            'command': ' '.join([os.path.basename(sys.argv[0])] + sys.argv[1:]),
            'note': 'seeded runs: reproducible, NOT private releases'}
    log('utility_suite: %d tables × %d modes × %d ε × %d seeds; CLI %s; %d jobs; ML %s; '
        'seeded runs are NOT private releases' % (len(tables), len(modes), len(eps_list), seeds,
                                                  cli, jobs, 'on' if ml else 'off'))
    records = [meta]
    with open(results_path, 'w') as res, ProcessPoolExecutor(max_workers=jobs) as pool:
        def emit(rec):
            records.append(rec)
            res.write(json.dumps(rec) + '\n')
            res.flush()
        emit(meta)
        prep = {pool.submit(prepare_table, {'name': t, 'data': args.data, 'cli': cli,
                                            'workdir': work,
                                            'use_schemas': not args.no_schemas}): t
                for t in tables}
        facts = {}
        for fut in as_completed(prep):
            f = fut.result()
            facts[f['name']] = f
            summary = {'kind': 'table', 'table': f['name'], 'rows': f.get('rows'),
                       'cols': len(f.get('header', [])), 'schema': f.get('schema'),
                       'error': f.get('error'), 'target': f.get('target'),
                       'pairs': [{k: p[k] for k in ('a', 'b', 'lambda', 'real_consistency')}
                                 for p in f.get('pairs', [])],
                       'common_categories': f.get('common_categories'),
                       'spikes': f.get('spikes'),
                       'real_type_violations': f.get('real_type_violations')}
            emit(summary)
            log('  prepared %s: %s rows, %d pairs%s' % (
                f['name'], f.get('rows'), len(f.get('pairs', [])),
                ', ERROR ' + f['error'] if f.get('error') else ''))
        tasks = []
        for t in tables:
            f = facts[t]
            if f.get('error'):
                continue
            fp = os.path.join(f['dir'], 'facts.json')
            ns = seeds
            if args.seeds_large and f['rows'] >= 100000:
                ns = min(seeds, args.seeds_large)
            for s in range(1, ns + 1):
                tasks.append({'kind': 'baseline', 'table': t, 'seed': s, 'facts': fp,
                              'size': f['rows'] * len(f['header'])})
                for e in eps_list:
                    for m in modes:
                        tasks.append({'kind': 'run', 'table': t, 'mode': m, 'eps': e, 'seed': s,
                                      'facts': fp, 'size': f['rows'] * len(f['header'])})
        tasks.sort(key=lambda x: -x['size'])  # the big ones first: better load balance
        futs = {pool.submit(worker, cfg, t): t for t in tasks}
        done = 0
        for fut in as_completed(futs):
            t = futs[fut]
            try:
                recs = fut.result()
            except Exception as e:  # the worker itself died
                recs = [{'kind': t['kind'], 'table': t['table'], 'mode': t.get('mode'),
                         'eps': t.get('eps'), 'seed': t['seed'], 'ok': False,
                         'error': 'suite error: %s: %s' % (type(e).__name__, e)}]
            for r in recs:
                emit(r)
            done += 1
            r = recs[0]
            if r['kind'] == 'run':
                status = ('2-way %s 1-way %s' % (fmt(r.get('mean_pair_tvd')),
                                                 fmt(r.get('mean_column_tvd')))
                          if r.get('ok') else 'FAILED: ' + r.get('error', '')[:90])
                log('  [%d/%d %.0fs] %s %s ε=%g seed %d: %s' % (
                    done, len(tasks), time.monotonic() - t_start, r['table'], r['mode'],
                    r['eps'], r['seed'], status))
            else:
                log('  [%d/%d %.0fs] %s baselines seed %d' % (
                    done, len(tasks), time.monotonic() - t_start, r['table'], r['seed']))
        meta_end = {'kind': 'meta_end', 'elapsed_s': round(time.monotonic() - t_start, 1)}
        emit(meta_end)
    md = summarize(records)
    md_path = args.md or os.path.join(out, 'summary.md')
    with open(md_path, 'w') as f:
        f.write(md)
    log('utility_suite: %d runs in %.0f s; results %s, summary %s' % (
        len(tasks), meta_end['elapsed_s'], results_path, md_path))
    return 0


if __name__ == '__main__':
    sys.exit(main())

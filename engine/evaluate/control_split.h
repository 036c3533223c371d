// SPDX-License-Identifier: Apache-2.0
// The control split (Giomi et al. PETS 2023 §3): before anything is learned from the input —
// schema inference included —, a random share of its rows is removed and kept aside as control
// rows. The synthesizer never reads them, so an attack on the release does as well on them as
// on any row of the population; the same attack on the training rows, compared with it,
// measures what the release leaks about its training rows (attack_statistics.h).
//
// Privacy: the control rows are not an input of the release at all: the split costs no ε and is
// recorded in the ledger as a zero-cost entry that says what was held out. The release's
// guarantee is about the training rows (a random subset of the input); no amplification by
// subsampling is claimed. The control file holds real rows: it is written owner-only (0600).
#pragma once

#include <utility>

#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/core/table.h"

namespace deniable {

struct ControlSplit {
  RawTable train;    // the rows the synthesizer may read, in input order
  RawTable control;  // held out, in input order
};

// round(fraction · rows) rows chosen uniformly at random (a Fisher-Yates shuffle with `rng`: a
// SecureRng for a release, a SeededRng only for reproducible runs) become the control rows.
// Both tables keep the input's columns, dialect and line numbers; their dictionaries hold only
// their own values. kInvalidArgument ("control-fraction ...") unless 0 < fraction < 1 and both
// parts get at least one row.
Result<ControlSplit> SplitControlRows(const RawTable& table, double fraction, Rng& rng);

// When every row of `control` is also a row of `real` (same texts in the columns of the same
// names; as a multiset), `real` less those rows — the training rows of a split made from `real`
// — and true; otherwise `real` unchanged and false. Lets evaluate take the original input.
std::pair<RawTable, bool> RemoveControlRows(const RawTable& real, const RawTable& control);

}  // namespace deniable

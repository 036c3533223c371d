// SPDX-License-Identifier: Apache-2.0
// What the Review step shows and the release report documents: values only (produced by the
// engine on a worker thread, then handed to the UI thread; never mutated afterwards).
#pragma once

#include <memory>

#include <QString>

#include "engine/core/table.h"
#include "engine/metrics/metric_report.h"
#include "engine/model/description.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/schema.h"

namespace deniable::ui {

struct ReviewData {
  QString input_path;                               // the real CSV (for labels and the report)
  // The rows the release was made from: the input as read, less the control rows if any.
  std::shared_ptr<const RawTable> real;
  // The control rows (ModelSettings::control_fraction > 0): held out at random before the run
  // learned anything, never given to the model; the Attacks tab's baseline. Null without a split.
  std::shared_ptr<const RawTable> control;
  std::shared_ptr<const RawTable> synthetic;        // the decoded synthetic rows (as exported)
  Schema schema;                                    // the schema the run used (with stats)
  Description description;                          // domains, network, ledger, guarantee
  ModelSettings settings;                           // what the user chose
  MetricReport metrics;                             // real vs synthetic (owner's eyes only)
  SynthesisSummary summary;                         // rows, candidates/pass rate, guarantees
};

}  // namespace deniable::ui

// SPDX-License-Identifier: Apache-2.0
// A PDF writer into memory, set up as the release report's (A4, 300 dpi): for the tests that
// lay the report out (report_pdf.h) and look at the pages or the bytes.
#pragma once

#include <QBuffer>
#include <QByteArray>
#include <QPdfWriter>

#include "ui/report/report_pdf.h"

namespace deniable::test_support {

struct MemoryPdf {
  MemoryPdf() : buffer(&bytes), writer(open(buffer)) {
    ui::SetUpReportWriter(writer, QStringLiteral("test"));
  }
  static QBuffer* open(QBuffer& target) {
    target.open(QIODevice::WriteOnly);
    return &target;
  }
  QByteArray bytes;  // the PDF, once `writer` is done (buffer.close())
  QBuffer buffer;
  QPdfWriter writer;
};

}  // namespace deniable::test_support

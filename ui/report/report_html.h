// SPDX-License-Identifier: Apache-2.0
// Small HTML building blocks of the release report: escaping, tables, figures with embedded
// PNG images, and the report's stylesheet (screen and print).
#pragma once

#include <QImage>
#include <QString>
#include <QStringList>

namespace deniable::ui::report_html {

QString escape(const QString& text);

// A table; cells are escaped unless `rawCells` (callers then pass trusted HTML).
QString table(const QStringList& headers, const QList<QStringList>& rows,
              const QString& cssClass = QString(), bool rawCells = false);

// A two-column key/value table (keys and values escaped).
QString keyValueTable(const QList<QPair<QString, QString>>& rows);

// <figure> with the image embedded as a base64 PNG data URI, shown at the image's logical
// width (device-independent pixels), and a caption.
QString figure(const QImage& image, const QString& alt, const QString& caption);

// <section id=...><h2>title</h2> body </section>
QString section(const QString& id, const QString& title, const QString& body,
                const QString& cssClass = QString());

QString styleSheet();

}  // namespace deniable::ui::report_html

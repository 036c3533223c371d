// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/geo_pair_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <nlohmann/json.hpp>

#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/geo_pairs.h"
#include "ui/session/session.h"
#include "ui/text/errors.h"

namespace deniable::ui {
namespace {

QString quoted(const std::string& name) {
  return QStringLiteral("‘%1’").arg(QString::fromStdString(name));
}

bool isCoordinate(const ColumnSchema& column) {
  return (column.type == DataType::kInteger || column.type == DataType::kFloat) &&
         column.is_modelled() && !column.public_categories;
}

}  // namespace

GeoPairPanel::GeoPairPanel(Session* session, QItemSelectionModel* selection, QWidget* parent)
    : QGroupBox(tr("Geo pair"), parent), session_(session), selection_(selection),
      pair_(new QCheckBox(tr("Model as a geo pair"), this)), longitude_(new QComboBox(this)),
      note_(new QLabel(this)), error_(new QLabel(this)) {
  pair_->setToolTip(tr("A latitude and a longitude column modelled together as one attribute: "
                       "a private quadtree over the points, so synthetic points keep the shape "
                       "of the map. Unchecked: two separate number columns."));
  longitude_->setToolTip(tr("The longitude column to pair with this one (its latitude)"));
  note_->setWordWrap(true);
  error_->setWordWrap(true);
  error_->setVisible(false);
  auto* row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(pair_);
  row->addWidget(longitude_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(row);
  layout->addWidget(note_);
  layout->addWidget(error_);
  connect(pair_, &QCheckBox::toggled, this, &GeoPairPanel::toggle);
  connect(selection_, &QItemSelectionModel::currentRowChanged, this, [this] {
    error_->setVisible(false);
    refresh();
  });
  connect(session_, &Session::schemaChanged, this, &GeoPairPanel::refresh);
  connect(session_, &Session::settingsChanged, this, &GeoPairPanel::refresh);
  connect(session_, &Session::dataChanged, this, &GeoPairPanel::refresh);
  refresh();
}

void GeoPairPanel::refresh() {
  const Schema& schema = session_->schema();
  const int c = selection_->currentIndex().isValid() ? selection_->currentIndex().row() : -1;
  latitude_.clear();
  if (!session_->hasInput() || c < 0 || c >= static_cast<int>(schema.columns.size())) {
    setVisible(false);
    return;
  }
  const auto index = static_cast<std::size_t>(c);
  const ColumnSchema& column = schema.columns[index];
  int lat = -1, lon = -1;
  for (const GeoPair& pair : GeoPairs(schema)) {
    if (pair.latitude == index || pair.longitude == index) {
      lat = static_cast<int>(pair.latitude);
      lon = static_cast<int>(pair.longitude);
    }
  }
  const QSignalBlocker block_pair(pair_);
  const QSignalBlocker block_longitude(longitude_);
  longitude_->clear();
  if (lat >= 0) {
    const ColumnSchema& latitude = schema.columns[static_cast<std::size_t>(lat)];
    const ColumnSchema& longitude = schema.columns[static_cast<std::size_t>(lon)];
    latitude_ = QString::fromStdString(latitude.name);
    pair_->setChecked(true);
    longitude_->addItem(QString::fromStdString(longitude.name));
    longitude_->setEnabled(false);
    longitude_->setVisible(lat == c);
    const Schema& inferred = session_->data()->inferred;
    const bool proposed = static_cast<std::size_t>(lat) < inferred.columns.size() &&
                          inferred.columns[static_cast<std::size_t>(lat)].geo_longitude ==
                              longitude.name;
    const int regions = latitude.bins > 0 ? latitude.bins : session_->settings().model.bins;
    const SynthesisMode mode = session_->settings().model.mode;
    QString text =
        ModelsGeoPairsJointly(mode)
            ? tr("%1 (latitude) and %2 (longitude) are one attribute of the model: a private "
                 "quadtree over the points, its cells merged into at most %3 regions; a "
                 "synthetic record gets both coordinates of one point.")
                  .arg(quoted(latitude.name), quoted(longitude.name))
                  .arg(regions)
            : tr("%1 (latitude) and %2 (longitude) are a geo pair. The %3 mode learns them as "
                 "two numeric columns and their joint, like any pair of columns: measured "
                 "closer to the real map than the pair's quadtree regions. The independent "
                 "and deniable modes model the pair as one attribute.")
                  .arg(quoted(latitude.name), quoted(longitude.name),
                       QString::fromUtf8(SynthesisModeName(mode)));
    if (lat != c) text += tr(" The pair's settings (bins, bounds) are on %1.").arg(quoted(latitude.name));
    text += proposed ? tr(" Proposed by Deniable from the column names and value ranges: keep it "
                          "checked to confirm, uncheck to model the two columns separately.")
                     : tr(" Declared in the column settings; uncheck to model the two columns "
                          "separately.");
    note_->setText(text);
    setVisible(true);
    return;
  }
  if (!isCoordinate(column)) {
    setVisible(false);
    return;
  }
  // In no pair: the number columns it could be paired with (as their latitude).
  std::string stem;
  const bool latitude_named = IsLatitudeName(column.name, &stem);
  int preferred = -1;
  for (std::size_t i = 0; i < schema.columns.size(); ++i) {
    const ColumnSchema& other = schema.columns[i];
    if (i == index || !isCoordinate(other) || GeoLatitudeOf(schema, i) >= 0 ||
        !other.geo_longitude.empty()) {
      continue;
    }
    std::string other_stem;
    if (latitude_named && preferred < 0 && IsLongitudeName(other.name, &other_stem) &&
        other_stem == stem) {
      preferred = longitude_->count();
    }
    longitude_->addItem(QString::fromStdString(other.name));
  }
  if (longitude_->count() == 0) {
    setVisible(false);
    return;
  }
  if (preferred >= 0) longitude_->setCurrentIndex(preferred);
  pair_->setChecked(false);
  longitude_->setEnabled(true);
  longitude_->setVisible(true);
  note_->setText(tr("If %1 is a latitude, pair it with its longitude column to model the points "
                    "jointly (one attribute) instead of as two separate numbers.")
                     .arg(quoted(column.name)));
  setVisible(true);
}

void GeoPairPanel::toggle(bool checked) {
  const int c = selection_->currentIndex().isValid() ? selection_->currentIndex().row() : -1;
  const Schema& schema = session_->schema();
  if (c < 0 || c >= static_cast<int>(schema.columns.size())) return;
  nlohmann::json entry;
  QString description;
  if (checked) {
    const std::string& latitude = schema.columns[static_cast<std::size_t>(c)].name;
    const std::string longitude = longitude_->currentText().toStdString();
    entry = {{"name", latitude}, {"geo", {{"longitude", longitude}}}};
    description = tr("Model %1 and %2 as a geo pair").arg(quoted(latitude), quoted(longitude));
  } else {
    const std::string latitude = latitude_.toStdString();
    const int lat = schema.ColumnIndex(latitude);
    if (lat < 0) return;
    const std::string& longitude = schema.columns[static_cast<std::size_t>(lat)].geo_longitude;
    entry = {{"name", latitude}, {"geo", nullptr}};
    description = tr("Model %1 and %2 as two columns").arg(quoted(latitude), quoted(longitude));
  }
  const Status status = session_->editColumns({{"columns", {entry}}}, description);
  error_->setVisible(!status);
  if (!status) {
    error_->setText(QStringLiteral("⚠ ") + describeError(status.error()));
    refresh();
  }
}

}  // namespace deniable::ui

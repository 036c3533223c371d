// SPDX-License-Identifier: Apache-2.0
// The Columns step's table: one row per column of the session's schema (name, sample values,
// type, categorical, role, missing, distinct, public domain, values that do not fit). Type,
// categorical and role are editable; every edit goes through Session::editColumns (the engine's
// ApplySchemaJson: one undo step, the CLI's semantics) and a refused edit is reported by
// editFailed() with the engine's message. Choosing role "target" for a column without a public
// class list changes nothing: targetRequested() asks the page to show the classes and let the
// owner declare them (the engine refuses a target without one). The forecast column shows what
// the Privacy step's ε will keep of each column (set by the page from its DomainForecaster).
#pragma once

#include <memory>

#include <QAbstractTableModel>

#include "engine/schema/schema.h"

namespace deniable::ui {

class Session;
struct DomainForecastRecord;

class SchemaModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kName = 0,
    kSamples,
    kType,
    kCategorical,
    kRole,
    kForecast,  // what the chosen ε keeps (DomainForecaster; owner's eyes only)
    kMissing,
    kDistinct,
    kPublicDomain,
    kFailed,
    kColumnCount
  };

  explicit SchemaModel(Session* session, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;

  static QStringList typeNames();        // the engine's names, in combo-box order
  static QStringList columnRoleNames();
  // "Float (2 decimals)", "DateTime (%-m/%-d/%y, 1927–2026)": a type with its format.
  static QString typeText(const ColumnSchema& column);

  // The forecast column: `forecast` for the current settings, or null with `computing` true
  // ("computing…") or false (no forecast: nothing to show, or the failure `error`).
  void setForecast(std::shared_ptr<const DomainForecastRecord> forecast, bool computing,
                   const QString& error = {});

 signals:
  void editFailed(const QString& message);
  // The owner chose role target for column `row`, which has no public class list yet.
  void targetRequested(int row);

 private:
  void refresh();

  Session* session_;
  int rows_ = 0;
  std::shared_ptr<const DomainForecastRecord> forecast_;
  bool forecast_computing_ = false;
  QString forecast_error_;
};

}  // namespace deniable::ui

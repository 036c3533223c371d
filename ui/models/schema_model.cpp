// SPDX-License-Identifier: Apache-2.0
#include "ui/models/schema_model.h"

#include <QApplication>
#include <QFont>
#include <QPalette>
#include <QStyle>
#include <nlohmann/json.hpp>

#include "engine/schema/datetime.h"
#include "ui/session/session.h"
#include "ui/tasks/domain_forecast.h"
#include "ui/text/errors.h"
#include "ui/text/format.h"

namespace deniable::ui {
namespace {

QString typeToolTip(const ColumnSchema& column) {
  switch (column.type) {
    case DataType::kInteger: return SchemaModel::tr("Whole numbers");
    case DataType::kFloat: return SchemaModel::tr("Numbers with decimals");
    case DataType::kDateTime:
      return SchemaModel::tr("Dates and times, written as %1")
          .arg(QString::fromStdString(column.datetime_format));
    case DataType::kString: return SchemaModel::tr("Text");
  }
  return {};
}

QString roleToolTip(ColumnRole role) {
  switch (role) {
    case ColumnRole::kAttribute: return SchemaModel::tr("An ordinary column: modelled and synthesized");
    case ColumnRole::kIdentifier:
      return SchemaModel::tr("Identifies a person or record: regenerated as new unique values in "
                             "the same format, never copied");
    case ColumnRole::kQuasiIdentifier:
      return SchemaModel::tr("Something an intruder may already know (age, zip code): modelled");
    case ColumnRole::kSensitive:
      return SchemaModel::tr("What an intruder would like to learn (diagnosis, income): modelled");
    case ColumnRole::kIgnore: return SchemaModel::tr("Left out: not modelled, not in the output");
    case ColumnRole::kTarget:
      return SchemaModel::tr("The label the release will be judged on (what a model trained on "
                             "it predicts): modelled, with its class list declared public so "
                             "that no class can vanish");
  }
  return {};
}

// Values of an identifier column that repeat an earlier one (its stats; 0 when unique).
std::uint64_t repeatedValues(const ColumnSchema& column) {
  const ColumnStats& stats = column.stats;
  const std::uint64_t non_missing = stats.rows - stats.missing;
  return column.role == ColumnRole::kIdentifier && non_missing > stats.distinct
             ? non_missing - stats.distinct
             : 0;
}

QString boundText(double value, const ColumnSchema& column) {
  if (column.type == DataType::kDateTime) {
    std::string text;
    FormatDateTime(value, column.datetime_format, text);
    return QString::fromStdString(text);
  }
  return formatDecimal(value, 12);
}

QString publicDomainText(const ColumnSchema& column) {
  if (!column.is_modelled()) return QStringLiteral("—");
  QStringList parts;
  if (column.public_min || column.public_max) {
    parts << QStringLiteral("%1 – %2")
                 .arg(column.public_min ? boundText(*column.public_min, column) : QStringLiteral("?"),
                      column.public_max ? boundText(*column.public_max, column) : QStringLiteral("?"));
  }
  if (column.public_categories) {
    parts << countOf(column.public_categories->size(), SchemaModel::tr("category"),
                     SchemaModel::tr("categories"));
  }
  return parts.isEmpty() ? SchemaModel::tr("DP estimate") : parts.join(QStringLiteral("; "));
}

}  // namespace

SchemaModel::SchemaModel(Session* session, QObject* parent)
    : QAbstractTableModel(parent), session_(session) {
  connect(session_, &Session::schemaChanged, this, &SchemaModel::refresh);
  refresh();
}

QStringList SchemaModel::typeNames() {
  return {QStringLiteral("Integer"), QStringLiteral("Float"), QStringLiteral("DateTime"),
          QStringLiteral("String")};
}

QStringList SchemaModel::columnRoleNames() {
  return {QStringLiteral("attribute"), QStringLiteral("identifier"),
          QStringLiteral("quasi-identifier"), QStringLiteral("sensitive"),
          QStringLiteral("target"), QStringLiteral("ignore")};
}

QString SchemaModel::typeText(const ColumnSchema& column) {
  const QString name = QString::fromUtf8(DataTypeName(column.type));
  if (column.type == DataType::kDateTime) {
    if (HasTwoDigitYear(column.datetime_format)) {
      return QStringLiteral("%1 (%2, %3–%4)")
          .arg(name, QString::fromStdString(column.datetime_format))
          .arg(column.two_digit_year_start)
          .arg(column.two_digit_year_start + 99);
    }
    return QStringLiteral("%1 (%2)").arg(name, QString::fromStdString(column.datetime_format));
  }
  if (column.type == DataType::kFloat) {
    return column.decimals < 0
               ? tr("%1 (shortest)").arg(name)
               : QStringLiteral("%1 (%2)").arg(name, countOf(static_cast<std::uint64_t>(column.decimals),
                                                              tr("decimal"), tr("decimals")));
  }
  return name;
}

void SchemaModel::refresh() {
  const int rows = static_cast<int>(session_->schema().columns.size());
  if (rows != rows_) {
    beginResetModel();
    rows_ = rows;
    endResetModel();
  } else if (rows > 0) {
    emit dataChanged(index(0, 0), index(rows - 1, kColumnCount - 1));
  }
}

void SchemaModel::setForecast(std::shared_ptr<const DomainForecastRecord> forecast, bool computing,
                              const QString& error) {
  forecast_ = std::move(forecast);
  forecast_computing_ = computing;
  forecast_error_ = error;
  // A forecast is for the schema it was computed with: a different column count is stale.
  if (forecast_ && forecast_->columns.size() != static_cast<std::size_t>(rows_)) forecast_.reset();
  if (rows_ > 0) emit dataChanged(index(0, kForecast), index(rows_ - 1, kForecast));
}

int SchemaModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : rows_; }

int SchemaModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant SchemaModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  static const char* const kTitles[kColumnCount] = {
      "Column", "Sample values", "Type", "Categorical", "Role", "What ε keeps", "Missing",
      "Distinct", "Public domain", "Not fitting"};
  static const char* const kTips[kColumnCount] = {
      "The column's name in the CSV header",
      "A few of the most frequent values (for your eyes only)",
      "How values are read: Integer, Float, DateTime or String. Click to change.",
      "Treated as a set of categories (few distinct values) rather than a range of numbers",
      "What the column means for privacy: attribute, identifier (regenerated), "
      "quasi-identifier, sensitive, or ignore (left out). Click to change.",
      "Forecast of what the privacy budget (ε on the Privacy step) keeps of each column: which "
      "values survive the private selection of categories, how fine the private bins get. It "
      "reads your data, so it is for your eyes only; nothing is spent. Select a row for details "
      "and how to keep more.",
      "Share of empty or missing cells",
      "Number of different values",
      "Bounds or categories you declare as public knowledge; otherwise Deniable estimates them "
      "privately",
      "Cells that do not read as the column's type (they are treated as missing). Select the "
      "row to list them with their line numbers."};
  if (section < 0 || section >= kColumnCount) return {};
  if (role == Qt::DisplayRole) return tr(kTitles[section]);
  if (role == Qt::ToolTipRole) return tr(kTips[section]);
  return {};
}

Qt::ItemFlags SchemaModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
  if (index.column() == kType || index.column() == kRole) flags |= Qt::ItemIsEditable;
  if (index.column() == kCategorical) flags |= Qt::ItemIsUserCheckable;
  return flags;
}

QVariant SchemaModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rows_) return {};
  const ColumnSchema& column = session_->schema().columns[static_cast<std::size_t>(index.row())];
  const ColumnStats& stats = column.stats;
  const bool suggested_identifier = column.role == ColumnRole::kIdentifier;
  if (role == Qt::DisplayRole || role == Qt::EditRole) {
    switch (index.column()) {
      case kName: return QString::fromStdString(column.name);
      case kSamples: {
        QStringList samples;
        for (const std::string& value : stats.sample_values) samples << QString::fromStdString(value);
        return samples.join(QStringLiteral(", "));
      }
      case kType:
        if (role == Qt::DisplayRole) return typeText(column);
        return QString::fromUtf8(DataTypeName(column.type));
      case kCategorical: return {};
      case kRole: return QString::fromUtf8(ColumnRoleName(column.role));
      case kMissing: return formatPercent(stats.missing_rate());
      case kDistinct: return formatCount(stats.distinct);
      case kPublicDomain: return publicDomainText(column);
      case kForecast: {
        if (forecast_) return forecastCellText(forecast_->columns[static_cast<std::size_t>(index.row())]);
        if (forecast_computing_) return tr("computing…");
        return forecast_error_.isEmpty() ? QString() : tr("⚠ no forecast");
      }
      case kFailed:
        if (stats.failed_count == 0) return QStringLiteral("—");
        return tr("%1 (%2)").arg(countOf(stats.failed_count, tr("cell"), tr("cells")),
                                 countOf(stats.failed_distinct, tr("value"), tr("values")));
      default: return {};
    }
  }
  if (role == Qt::CheckStateRole && index.column() == kCategorical) {
    return column.categorical ? Qt::Checked : Qt::Unchecked;
  }
  if (role == Qt::ToolTipRole) {
    switch (index.column()) {
      case kType: return typeToolTip(column);
      case kRole:
        if (const std::uint64_t repeats = repeatedValues(column); repeats > 0) {
          return tr("⚠ Role identifier, but %1 repeat an earlier value: the release writes a "
                    "fresh unique value per row. If the column is not an identifier, give it "
                    "role attribute.")
              .arg(countOf(repeats, tr("value"), tr("values")));
        }
        return suggested_identifier
                   ? tr("Looks like an identifier (every value is different): it will be "
                        "regenerated, never copied. Change the role if that is wrong.")
                   : roleToolTip(column.role);
      case kCategorical:
        return tr("Checked: each value is a category. Unchecked: numbers are grouped into "
                  "ranges (bins).");
      case kFailed:
        return stats.failed_count == 0 ? tr("Every value reads as %1").arg(DataTypeName(column.type))
                                       : tr("Select the row to see these values and their lines");
      case kForecast: {
        const QString owner = tr("A forecast for your eyes only: it reads your data; nothing is "
                                 "spent.");
        if (forecast_) {
          const ColumnForecastView& view = forecast_->columns[static_cast<std::size_t>(index.row())];
          if (!view.modelled) return owner;
          return QStringLiteral("%1\n%2").arg(QString::fromStdString(view.forecast.summary), owner);
        }
        if (forecast_computing_) return tr("Computing the forecast in the background…");
        return forecast_error_;
      }
      case kPublicDomain:
        return column.public_min || column.public_max || column.public_categories
                   ? tr("Declared public by you: private only if it is genuinely public knowledge")
                   : tr("Estimated with differential privacy from the data (costs a little ε)");
      default: return {};
    }
  }
  if (role == Qt::ForegroundRole) {
    const QPalette palette = QApplication::palette();
    if (index.column() == kFailed && stats.failed_count > 0) return palette.color(QPalette::Link);
    if (index.column() == kForecast && !forecast_) return palette.color(QPalette::PlaceholderText);
    if (!column.is_modelled() && column.role == ColumnRole::kIgnore) {
      return palette.color(QPalette::PlaceholderText);
    }
  }
  if (role == Qt::DecorationRole && index.column() == kForecast && forecast_ &&
      forecastLosesValues(forecast_->columns[static_cast<std::size_t>(index.row())])) {
    return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
  }
  if (role == Qt::DecorationRole && index.column() == kRole && repeatedValues(column) > 0) {
    return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
  }
  if (role == Qt::BackgroundRole && index.column() == kRole && suggested_identifier) {
    return QApplication::palette().color(QPalette::AlternateBase);
  }
  if (role == Qt::FontRole && index.column() == kName) {
    QFont font = QApplication::font();
    font.setBold(true);
    return font;
  }
  return {};
}

bool SchemaModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!index.isValid() || index.row() >= rows_) return false;
  const ColumnSchema& column = session_->schema().columns[static_cast<std::size_t>(index.row())];
  nlohmann::json change = {{"name", column.name}};
  QString description;
  const QString name = QString::fromStdString(column.name);
  if (index.column() == kType && role == Qt::EditRole) {
    const std::string type = value.toString().toStdString();
    if (type == DataTypeName(column.type)) return false;
    change["type"] = type;
    // Bounds typed for the old type do not carry over (a String has none).
    if (column.public_min || column.public_max) change["public"] = {{"min", nullptr}, {"max", nullptr}};
    description = tr("Change type of %1 to %2").arg(name, value.toString());
  } else if (index.column() == kRole && role == Qt::EditRole) {
    const std::string role_name = value.toString().toStdString();
    if (role_name == ColumnRoleName(column.role)) return false;
    if (ParseColumnRole(role_name) == ColumnRole::kTarget && !column.public_categories) {
      emit targetRequested(index.row());  // the page shows the classes to declare
      return false;
    }
    change["role"] = role_name;
    description = tr("Change role of %1 to %2").arg(name, value.toString());
  } else if (index.column() == kCategorical && role == Qt::CheckStateRole) {
    const bool categorical = value.toInt() == Qt::Checked;
    if (categorical == column.categorical) return false;
    change["categorical"] = categorical;
    if (!categorical && column.public_categories) change["public"] = {{"categories", nullptr}};
    description = categorical ? tr("Make %1 categorical").arg(name)
                              : tr("Make %1 non-categorical").arg(name);
  } else {
    return false;
  }
  auto status = session_->editColumns(nlohmann::json{{"columns", nlohmann::json::array({change})}}, description);
  if (!status) {
    emit editFailed(describeError(status.error()));
    return false;
  }
  return true;
}

}  // namespace deniable::ui

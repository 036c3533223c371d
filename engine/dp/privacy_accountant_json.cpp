// SPDX-License-Identifier: Apache-2.0
// The ledger as JSON (description file, release report) and back, by replaying the entries.
#include <string>

#include "engine/dp/privacy_accountant.h"
#include "engine/dp/validation.h"

namespace deniable {
namespace {

using nlohmann::json;

nlohmann::json CostJson(PrivacyCost cost) {
  return json{{"epsilon", cost.epsilon}, {"delta", cost.delta}};
}

Result<const json*> Field(const json& object, const char* key, const std::string& where) {
  if (!object.is_object()) return ParseError(where + ": expected a JSON object");
  const auto it = object.find(key);
  if (it == object.end()) return ParseError(where + ": missing \"" + key + "\"");
  return &*it;
}

Result<double> NumberField(const json& object, const char* key, const std::string& where) {
  auto field = Field(object, key, where);
  if (!field) return field.error();
  if (!(*field)->is_number()) return ParseError(where + ": \"" + key + "\" must be a number");
  return (*field)->get<double>();
}

Result<std::string> StringField(const json& object, const char* key, const std::string& where) {
  auto field = Field(object, key, where);
  if (!field) return field.error();
  if (!(*field)->is_string()) return ParseError(where + ": \"" + key + "\" must be a string");
  return (*field)->get<std::string>();
}

Result<PrivacyCost> CostField(const json& object, const char* key, const std::string& where) {
  auto field = Field(object, key, where);
  if (!field) return field.error();
  const std::string inner = where + "." + key;
  auto epsilon = NumberField(**field, "epsilon", inner);
  if (!epsilon) return epsilon.error();
  auto delta = NumberField(**field, "delta", inner);
  if (!delta) return delta.error();
  return PrivacyCost{*epsilon, *delta};
}

Result<LedgerEntry> EntryFromJson(const json& j, const std::string& where) {
  LedgerEntry e;
  for (auto [key, target] : {std::pair{"label", &e.label}, std::pair{"mechanism", &e.mechanism},
                             std::pair{"partition", &e.partition},
                             std::pair{"reference", &e.reference},
                             std::pair{"composition", &e.composition}}) {
    auto text = StringField(j, key, where);
    if (!text) return text.error();
    *target = std::move(*text);
  }
  for (auto [key, target] : {std::pair{"epsilon_each", &e.epsilon_each},
                             std::pair{"delta_each", &e.delta_each},
                             std::pair{"sensitivity", &e.sensitivity}}) {
    auto number = NumberField(j, key, where);
    if (!number) return number.error();
    *target = *number;
  }
  if (j.contains("rho_each")) {
    auto rho = NumberField(j, "rho_each", where);
    if (!rho) return rho.error();
    e.rho_each = *rho;
  }
  auto count = Field(j, "count", where);
  if (!count) return count.error();
  if (!(*count)->is_number_unsigned() || (*count)->get<std::size_t>() < 1) {
    return ParseError(where + ": \"count\" must be an integer >= 1");
  }
  e.count = (*count)->get<std::size_t>();
  auto cost = CostField(j, "cost", where);
  if (!cost) return cost.error();
  e.cost = *cost;
  return e;
}

bool SameCost(PrivacyCost a, PrivacyCost b) {
  return a.epsilon == b.epsilon && a.delta == b.delta;
}

}  // namespace

nlohmann::json PrivacyAccountant::ToJson() const {
  json partitions = json::array();
  for (const Partition& p : partitions_) {
    partitions.push_back({{"name", p.name}, {"parent", p.parent}, {"description", p.description}});
  }
  json entries = json::array();
  for (const LedgerEntry& e : entries_) {
    entries.push_back({{"label", e.label},
                       {"mechanism", e.mechanism},
                       {"partition", e.partition},
                       {"reference", e.reference},
                       {"epsilon_each", e.epsilon_each},
                       {"delta_each", e.delta_each},
                       {"sensitivity", e.sensitivity},
                       {"count", e.count},
                       {"cost", CostJson(e.cost)},
                       {"composition", e.composition}});
    if (e.rho_each > 0) entries.back()["rho_each"] = e.rho_each;
  }
  json out{{"budget", CostJson(budget_)},
           {"advanced_delta_slack", slack_},
           {"total", CostJson(Total())},
           {"partitions", std::move(partitions)},
           {"entries", std::move(entries)}};
  if (zcdp_delta_ > 0) out["zcdp_delta"] = zcdp_delta_;
  if (fold_pure_dp_) out["pure_dp_in_zcdp_block"] = true;
  return out;
}

Result<PrivacyAccountant> PrivacyAccountant::FromJson(const nlohmann::json& json_ledger) {
  const std::string where = "privacy ledger";
  auto budget = CostField(json_ledger, "budget", where);
  if (!budget) return budget.error();
  auto slack = NumberField(json_ledger, "advanced_delta_slack", where);
  if (!slack) return slack.error();
  auto accountant = Create(*budget, *slack);
  if (!accountant) return ParseError(where + ": " + accountant.error().message);

  if (json_ledger.contains("zcdp_delta")) {
    auto zcdp_delta = NumberField(json_ledger, "zcdp_delta", where);
    if (!zcdp_delta) return zcdp_delta.error();
    if (Status s = accountant->SetZcdpDelta(*zcdp_delta); !s) {
      return ParseError(where + ": " + s.error().message);
    }
  }
  auto partitions = Field(json_ledger, "partitions", where);
  if (!partitions) return partitions.error();
  if (!(*partitions)->is_array()) return ParseError(where + ": \"partitions\" must be an array");
  for (std::size_t i = 0; i < (*partitions)->size(); ++i) {
    const std::string at = where + ".partitions[" + std::to_string(i) + "]";
    const json& p = (**partitions)[i];
    auto name = StringField(p, "name", at);
    if (!name) return name.error();
    auto parent = StringField(p, "parent", at);
    if (!parent) return parent.error();
    auto description = StringField(p, "description", at);
    if (!description) return description.error();
    if (*name == "all" && parent->empty()) continue;  // the root always exists
    if (Status s = accountant->AddPartition(*name, *parent, *description); !s) {
      return ParseError(at + ": " + s.error().message);
    }
  }

  auto entries = Field(json_ledger, "entries", where);
  if (!entries) return entries.error();
  if (!(*entries)->is_array()) return ParseError(where + ": \"entries\" must be an array");
  for (std::size_t i = 0; i < (*entries)->size(); ++i) {
    const std::string at = where + ".entries[" + std::to_string(i) + "]";
    auto recorded = EntryFromJson((**entries)[i], at);
    if (!recorded) return recorded.error();
    if (Status s = accountant->Spend(*recorded); !s) {
      return ParseError(at + " ('" + recorded->label + "'): " + s.error().message);
    }
    const LedgerEntry& replayed = accountant->entries().back();
    if (!SameCost(replayed.cost, recorded->cost) ||
        replayed.composition != recorded->composition) {
      return ParseError(at + " ('" + recorded->label + "'): recorded cost ε = " +
                        internal::FormatDouble(recorded->cost.epsilon) + ", δ = " +
                        internal::FormatDouble(recorded->cost.delta) + " (" +
                        recorded->composition + ") differs from the recomputed ε = " +
                        internal::FormatDouble(replayed.cost.epsilon) + ", δ = " +
                        internal::FormatDouble(replayed.cost.delta) + " (" +
                        replayed.composition + ")");
    }
  }
  // After the replay: the entries were recorded already folded (an entry from before the
  // fold, such as the row count, must not be folded again).
  if (json_ledger.contains("pure_dp_in_zcdp_block")) {
    const json& fold = json_ledger["pure_dp_in_zcdp_block"];
    if (!fold.is_boolean()) {
      return ParseError(where + ": \"pure_dp_in_zcdp_block\" must be true or false");
    }
    if (fold.get<bool>()) {
      if (Status s = accountant->FoldPureDpIntoZcdpBlock(); !s) {
        return ParseError(where + ": " + s.error().message);
      }
    }
  }
  if (json_ledger.contains("total")) {
    auto total = CostField(json_ledger, "total", where);
    if (!total) return total.error();
    if (!SameCost(*total, accountant->Total())) {
      return ParseError(where + ": recorded total ε = " + internal::FormatDouble(total->epsilon) +
                        " differs from the entries' total ε = " +
                        internal::FormatDouble(accountant->Total().epsilon));
    }
  }
  return accountant;
}

}  // namespace deniable

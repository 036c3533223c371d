// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/measure.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "engine/dp/discrete_gaussian_mechanism.h"
#include "engine/dp/exponential_mechanism.h"

namespace deniable {

namespace {

// One pass over the rows with the clique's columns read side by side: the cell index stays in a
// register and the counts (a marginal fits in cache) are integers until the end. Cliques of up
// to three attributes (every AIM and MST candidate) get their own loop; larger ones go through
// blocks of cell indices.
template <int K>
void CountFixed(const EncodedTable& data, const Clique& clique, std::vector<std::uint32_t>& out) {
  const Code* col[K];
  std::uint32_t size[K];
  for (int i = 0; i < K; ++i) {
    const auto a = static_cast<std::size_t>(clique[static_cast<std::size_t>(i)]);
    col[i] = data.columns[a].data();
    size[i] = data.cardinalities[a];
  }
  std::uint32_t* counts = out.data();
  for (std::size_t r = 0; r < data.rows; ++r) {
    std::uint32_t index = col[0][r];
    for (int i = 1; i < K; ++i) index = index * size[i] + col[i][r];
    ++counts[index];
  }
}

}  // namespace

std::vector<double> CountMarginal(const EncodedTable& data, const Clique& clique) {
  const std::size_t cells = CellCount(clique, data.cardinalities);
  // A clique's cells are indexed in 32 bits elsewhere too (factors, the junction tree); a count
  // is at most the row count, which the CSV reader keeps below 2^32.
  std::vector<std::uint32_t> counts(cells, 0);
  switch (clique.size()) {
    case 0:
      if (cells > 0) counts[0] = static_cast<std::uint32_t>(data.rows);
      break;
    case 1: CountFixed<1>(data, clique, counts); break;
    case 2: CountFixed<2>(data, clique, counts); break;
    case 3: CountFixed<3>(data, clique, counts); break;
    default: {
      constexpr std::size_t kBlock = 4096;
      std::vector<std::uint32_t> index(kBlock);
      for (std::size_t begin = 0; begin < data.rows; begin += kBlock) {
        const std::size_t n = std::min(kBlock, data.rows - begin);
        std::fill_n(index.begin(), n, 0u);
        for (int a : clique) {
          const Code* column = data.columns[static_cast<std::size_t>(a)].data() + begin;
          const std::uint32_t size = data.cardinalities[static_cast<std::size_t>(a)];
          for (std::size_t r = 0; r < n; ++r) index[r] = index[r] * size + column[r];
        }
        for (std::size_t r = 0; r < n; ++r) ++counts[index[r]];
      }
    }
  }
  return std::vector<double>(counts.begin(), counts.end());
}

Result<Measurement> MeasureMarginal(const EncodedTable& data, const Clique& clique, double rho,
                                    const std::string& label, PrivacyAccountant& accountant,
                                    Rng& rng) {
  auto mechanism = DiscreteGaussianMechanism::Create(rho, 1.0);
  if (!mechanism) return mechanism.error();
  LedgerEntry entry;
  entry.label = label;
  entry.mechanism = "discrete Gaussian";
  entry.partition = "all";
  entry.reference = "CKS 2020 Thm 4; MST (JPC 2021) Alg. 1 / AIM (VLDB 2022) Alg. 2 measure";
  entry.sensitivity = 1;
  entry.rho_each = rho;
  if (Status s = accountant.Spend(entry); !s) return s.error();
  Measurement m;
  m.clique = clique;
  m.sigma = std::sqrt(mechanism->sigma_squared());
  for (double c : CountMarginal(data, clique)) {
    m.noisy.push_back(static_cast<double>(mechanism->AddNoise(static_cast<std::int64_t>(c), rng)));
  }
  return m;
}

Result<std::size_t> SelectCandidate(std::span<const double> utilities, double epsilon,
                                    double sensitivity, const std::string& label,
                                    PrivacyAccountant& accountant, Rng& rng) {
  auto mechanism = ExponentialMechanism::Create(epsilon, sensitivity);
  if (!mechanism) return mechanism.error();
  LedgerEntry entry;
  entry.label = label;
  entry.mechanism = "exponential mechanism";
  entry.partition = "all";
  entry.reference = "McSherry-Talwar 2007; eps^2/8-zCDP (Cesar-Rogers 2021)";
  entry.sensitivity = sensitivity;
  entry.rho_each = epsilon * epsilon / 8 * (1 + 1e-12);
  if (Status s = accountant.Spend(entry); !s) return s.error();
  return mechanism->Select(utilities, rng);
}

DomainCompression DomainCompression::Identity(const std::vector<std::uint32_t>& sizes) {
  DomainCompression c;
  c.sizes = sizes;
  for (std::uint32_t s : sizes) {
    std::vector<std::uint32_t> forward(s);
    std::vector<std::vector<std::uint32_t>> backward(s);
    for (std::uint32_t v = 0; v < s; ++v) {
      forward[v] = v;
      backward[v] = {v};
    }
    c.forward.push_back(std::move(forward));
    c.backward.push_back(std::move(backward));
  }
  return c;
}

EncodedTable DomainCompression::Compress(const EncodedTable& data) const {
  EncodedTable out;
  out.rows = data.rows;
  out.cardinalities = sizes;
  for (std::size_t a = 0; a < data.columns.size(); ++a) {
    std::vector<Code> column(data.rows);
    for (std::size_t r = 0; r < data.rows; ++r) {
      column[r] = static_cast<Code>(forward[a][data.columns[a][r]]);
    }
    out.columns.push_back(std::move(column));
  }
  return out;
}

EncodedTable DomainCompression::Expand(const EncodedTable& compressed, Rng& rng) const {
  EncodedTable out;
  out.rows = compressed.rows;
  for (const auto& f : forward) out.cardinalities.push_back(static_cast<std::uint32_t>(f.size()));
  for (std::size_t a = 0; a < compressed.columns.size(); ++a) {
    std::vector<Code> column(compressed.rows);
    for (std::size_t r = 0; r < compressed.rows; ++r) {
      const auto& originals = backward[a][compressed.columns[a][r]];
      column[r] = static_cast<Code>(
          originals.size() == 1 ? originals[0] : originals[UniformBelow(rng, originals.size())]);
    }
    out.columns.push_back(std::move(column));
  }
  return out;
}

DomainCompression CompressDomains(std::vector<Measurement>& one_way,
                                  const std::vector<std::uint32_t>& sizes,
                                  const std::vector<int>& missing_codes, bool merge_rare,
                                  const std::vector<int>& other_codes) {
  DomainCompression c = DomainCompression::Identity(sizes);
  for (Measurement& m : one_way) {
    const auto a = static_cast<std::size_t>(m.clique.at(0));
    // The codes the domains kept only conservatively (missing, "Other"), when distinct.
    std::vector<std::uint32_t> conservative;
    for (const std::vector<int>* codes : {&missing_codes, &other_codes}) {
      const int code = a < codes->size() ? (*codes)[a] : -1;
      if (code >= 0 && static_cast<std::uint32_t>(code) < sizes[a] &&
          std::find(conservative.begin(), conservative.end(),
                    static_cast<std::uint32_t>(code)) == conservative.end()) {
        conservative.push_back(static_cast<std::uint32_t>(code));
      }
    }
    auto is_conservative = [&](std::uint32_t v) {
      return std::find(conservative.begin(), conservative.end(), v) != conservative.end();
    };
    std::vector<std::uint32_t> kept, merged, dropped;
    for (std::uint32_t v = 0; v < sizes[a]; ++v) {
      const bool supported = m.noisy[v] >= 3 * m.sigma;
      if (is_conservative(v) && !supported) {
        dropped.push_back(v);
      } else if (supported || !merge_rare) {
        kept.push_back(v);
      } else {
        merged.push_back(v);
      }
    }
    if (kept.empty() && merged.empty()) {  // nothing else left: keep the best conservative code
      std::size_t best = 0;
      for (std::size_t k = 1; k < dropped.size(); ++k) {
        if (m.noisy[dropped[k]] > m.noisy[dropped[best]]) best = k;
      }
      kept.push_back(dropped[best]);
      dropped.erase(dropped.begin() + static_cast<std::ptrdiff_t>(best));
    }
    if (merged.empty() && dropped.empty()) continue;
    std::vector<double> noisy, weights;
    c.backward[a].clear();
    for (std::uint32_t v : kept) {
      c.forward[a][v] = static_cast<std::uint32_t>(noisy.size());
      c.backward[a].push_back({v});
      noisy.push_back(m.noisy[v]);
      weights.push_back(1.0);
    }
    if (!merged.empty()) {
      double sum = 0;
      for (std::uint32_t v : merged) {
        c.forward[a][v] = static_cast<std::uint32_t>(noisy.size());
        sum += m.noisy[v];
      }
      const double scale = 1.0 / std::sqrt(static_cast<double>(merged.size()) + 1.0);
      c.backward[a].push_back(merged);
      noisy.push_back(sum * scale);
      weights.push_back(scale);
    }
    if (!dropped.empty()) {
      // The home of a dropped code: the merged code, else the kept code of largest noisy count.
      // A dropped "Other" holds real values, never missing ones: its home is the largest kept
      // code that is not the missing code, when there is one (flchain's rare causes of death
      // joined "missing" = alive, and chapter → death lost 4% of its consistency).
      const int missing = a < missing_codes.size() ? missing_codes[a] : -1;
      const int other = a < other_codes.size() ? other_codes[a] : -1;
      auto largest_kept = [&](bool skip_missing) {
        std::optional<std::uint32_t> home;
        for (std::uint32_t k = 0; k < kept.size(); ++k) {
          if (skip_missing && static_cast<int>(kept[k]) == missing) continue;
          if (!home || m.noisy[kept[k]] > m.noisy[kept[*home]]) home = k;
        }
        return home;
      };
      for (std::uint32_t v : dropped) {
        std::uint32_t home = static_cast<std::uint32_t>(noisy.size() - 1);  // the merged code
        if (merged.empty()) {
          const std::optional<std::uint32_t> value_home =
              static_cast<int>(v) == other ? largest_kept(true) : std::nullopt;
          home = value_home ? *value_home : *largest_kept(false);
        }
        c.forward[a][v] = home;
      }
    }
    bool weighted = false;
    for (double w : weights) weighted = weighted || w != 1.0;
    m.noisy = std::move(noisy);
    m.weights = weighted ? std::move(weights) : std::vector<double>{};
    c.sizes[a] = static_cast<std::uint32_t>(m.noisy.size());
  }
  return c;
}

}  // namespace deniable

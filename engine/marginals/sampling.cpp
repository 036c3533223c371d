// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/sampling.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace deniable {
namespace {

// `rows` draws from the (unnormalised, >= 0) weights: systematic rounding as private-pgm's
// synthetic_col, or independent draws. Returns cell indices, shuffled.
std::vector<std::uint32_t> DrawCells(const double* weights, std::size_t cells, std::size_t rows,
                                     bool systematic, Rng& rng) {
  std::vector<std::uint32_t> out;
  out.reserve(rows);
  double sum = 0;
  for (std::size_t i = 0; i < cells; ++i) sum += std::max(0.0, weights[i]);
  if (!(sum > 0)) {  // no mass: uniform
    for (std::size_t r = 0; r < rows; ++r) {
      out.push_back(static_cast<std::uint32_t>(UniformBelow(rng, cells)));
    }
    return out;
  }
  if (!systematic) {
    std::vector<double> cdf(cells);
    double running = 0;
    for (std::size_t i = 0; i < cells; ++i) cdf[i] = running += std::max(0.0, weights[i]) / sum;
    for (std::size_t r = 0; r < rows; ++r) {
      const double u = UniformUnit(rng);
      const auto it = std::upper_bound(cdf.begin(), cdf.end(), u);
      out.push_back(static_cast<std::uint32_t>(
          std::min<std::size_t>(static_cast<std::size_t>(it - cdf.begin()), cells - 1)));
    }
    return out;
  }
  std::vector<double> fraction(cells);
  std::size_t placed = 0;
  for (std::size_t i = 0; i < cells; ++i) {
    const double expected = std::max(0.0, weights[i]) / sum * static_cast<double>(rows);
    const double whole = std::floor(expected);
    fraction[i] = expected - whole;
    const auto k = static_cast<std::size_t>(whole);
    out.insert(out.end(), std::min(k, rows - placed), static_cast<std::uint32_t>(i));
    placed = out.size();
  }
  // The remainder: distinct cells drawn with probability ∝ fraction (Efraimidis–Spirakis keys).
  const std::size_t extra = rows - placed;
  if (extra > 0) {
    std::vector<std::pair<double, std::uint32_t>> keys;
    for (std::size_t i = 0; i < cells; ++i) {
      if (fraction[i] > 0) {
        const double u = std::max(UniformUnit(rng), 1e-300);
        keys.emplace_back(std::log(u) / fraction[i], static_cast<std::uint32_t>(i));
      }
    }
    std::sort(keys.begin(), keys.end(), std::greater<>());
    for (std::size_t k = 0; k < extra; ++k) {
      out.push_back(k < keys.size() ? keys[k].second
                                    : static_cast<std::uint32_t>(UniformBelow(rng, cells)));
    }
  }
  for (std::size_t i = out.size(); i > 1; --i) {
    std::swap(out[i - 1], out[static_cast<std::size_t>(UniformBelow(rng, i))]);
  }
  return out;
}

// Draws the attributes of mu outside `separator` for every row, given the row's separator codes
// (already drawn), from mu's conditional distribution.
void DrawFresh(EncodedTable& out, const Factor& mu, const Clique& separator,
               const SamplingOptions& options, Rng& rng) {
  const std::vector<std::uint32_t>& sizes = out.cardinalities;
  const std::size_t rows = out.rows;
  const Clique fresh = Difference(mu.attributes, separator);
  if (fresh.empty()) return;
  // mu's layout: reorder as (separator, fresh) via strides of each attribute in mu.
  std::vector<std::size_t> stride(mu.attributes.size());
  for (std::size_t d = mu.attributes.size(), s = 1; d-- > 0;) {
    stride[d] = s;
    s *= mu.shape[d];
  }
  auto position = [&](int a) {
    return static_cast<std::size_t>(
        std::lower_bound(mu.attributes.begin(), mu.attributes.end(), a) - mu.attributes.begin());
  };
  std::size_t fresh_cells = 1;
  for (int a : fresh) fresh_cells *= sizes[static_cast<std::size_t>(a)];
  std::size_t separator_cells = 1;
  for (int a : separator) separator_cells *= sizes[static_cast<std::size_t>(a)];
  // conditional[s * fresh_cells + f] = mu at (separator cell s, fresh cell f).
  std::vector<double> table(separator_cells * fresh_cells);
  std::vector<std::uint32_t> index(mu.attributes.size(), 0);
  for (std::size_t s = 0; s < separator_cells; ++s) {
    std::size_t rest = s;
    for (std::size_t k = separator.size(); k-- > 0;) {
      const auto sz = sizes[static_cast<std::size_t>(separator[k])];
      index[position(separator[k])] = static_cast<std::uint32_t>(rest % sz);
      rest /= sz;
    }
    for (std::size_t f = 0; f < fresh_cells; ++f) {
      std::size_t r = f;
      for (std::size_t k = fresh.size(); k-- > 0;) {
        const auto sz = sizes[static_cast<std::size_t>(fresh[k])];
        index[position(fresh[k])] = static_cast<std::uint32_t>(r % sz);
        r /= sz;
      }
      std::size_t cell = 0;
      for (std::size_t d = 0; d < index.size(); ++d) cell += index[d] * stride[d];
      table[s * fresh_cells + f] = mu.values[cell];
    }
  }
  // Group rows by their separator cell (counting sort), draw each group's fresh cells.
  std::vector<std::uint32_t> key(rows, 0);
  for (int a : separator) {
    const auto& column = out.columns[static_cast<std::size_t>(a)];
    const auto sz = sizes[static_cast<std::size_t>(a)];
    for (std::size_t r = 0; r < rows; ++r) key[r] = key[r] * sz + column[r];
  }
  std::vector<std::size_t> start(separator_cells + 1, 0);
  for (std::size_t r = 0; r < rows; ++r) ++start[key[r] + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::uint32_t> grouped(rows);
  {
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (std::size_t r = 0; r < rows; ++r) grouped[next[key[r]]++] = static_cast<std::uint32_t>(r);
  }
  for (std::size_t s = 0; s < separator_cells; ++s) {
    const std::size_t n = start[s + 1] - start[s];
    if (n == 0) continue;
    const std::vector<std::uint32_t> cells =
        DrawCells(table.data() + s * fresh_cells, fresh_cells, n, options.systematic, rng);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t row = grouped[start[s] + i];
      std::size_t r = cells[i];
      for (std::size_t k = fresh.size(); k-- > 0;) {
        const auto a = static_cast<std::size_t>(fresh[k]);
        out.columns[a][row] = static_cast<Code>(r % sizes[a]);
        r /= sizes[a];
      }
    }
  }
}

// A marginal the refinement keeps close to the model: its attributes (sorted), each one's
// stride in the cell index (last fastest), the model's counts scaled to the sample's rows and
// the sample's counts.
struct RefinedMarginal {
  Clique attributes;
  std::vector<std::size_t> strides;
  std::vector<double> target;
  std::vector<double> count;
};

}  // namespace

void RefineSampleMarginals(const GraphicalModel& model, EncodedTable& table,
                           double swaps_per_row, Rng& rng) {
  const std::size_t d = table.columns.size();
  const std::size_t n = table.rows;
  if (d < 2 || n < 2 || !(swaps_per_row > 0)) return;
  // Every pair, and every clique of the model of three or more attributes (its higher-order
  // structure: a swap that mends a pair must not break a 3-way relation the model holds).
  std::vector<Clique> sets;
  for (int a = 0; a < static_cast<int>(d); ++a) {
    for (int b = a + 1; b < static_cast<int>(d); ++b) sets.push_back({a, b});
  }
  for (const Clique& c : model.tree().cliques()) {
    if (c.size() >= 3) sets.push_back(c);
  }
  std::vector<RefinedMarginal> marginals;
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> containing(d);  // (marginal, stride)
  for (const Clique& c : sets) {
    std::size_t cells = 1;
    for (int a : c) cells *= table.cardinalities[static_cast<std::size_t>(a)];
    if (cells > kRefineMaxCells) continue;
    const Factor m = model.Marginal(c);
    const double sum = m.Sum();
    if (!(sum > 0)) continue;
    RefinedMarginal r;
    r.attributes = c;
    r.strides.assign(c.size(), 1);
    for (std::size_t k = c.size() - 1; k > 0; --k) {
      r.strides[k - 1] = r.strides[k] * table.cardinalities[static_cast<std::size_t>(c[k])];
    }
    r.target = m.values;
    for (double& x : r.target) x *= static_cast<double>(n) / sum;
    r.count.assign(m.values.size(), 0);
    for (std::size_t row = 0; row < n; ++row) {
      std::size_t cell = 0;
      for (std::size_t k = 0; k < c.size(); ++k) {
        cell += table.columns[static_cast<std::size_t>(c[k])][row] * r.strides[k];
      }
      r.count[cell] += 1;
    }
    for (std::size_t k = 0; k < c.size(); ++k) {
      containing[static_cast<std::size_t>(c[k])].emplace_back(marginals.size(), r.strides[k]);
    }
    marginals.push_back(std::move(r));
  }
  const auto change = [](const RefinedMarginal& m, std::size_t i, double by) {
    return std::abs(m.count[i] + by - m.target[i]) - std::abs(m.count[i] - m.target[i]);
  };
  // The cell of `row` in `m` without attribute a's term (a's stride times its code).
  const auto base = [&](const RefinedMarginal& m, std::size_t row, std::size_t a) {
    std::size_t cell = 0;
    for (std::size_t k = 0; k < m.attributes.size(); ++k) {
      const auto attribute = static_cast<std::size_t>(m.attributes[k]);
      if (attribute != a) cell += table.columns[attribute][row] * m.strides[k];
    }
    return cell;
  };
  const auto attempts = static_cast<std::size_t>(std::min(
      swaps_per_row * static_cast<double>(n), kRefineWorkBudget / static_cast<double>(d - 1)));
  for (std::size_t k = 0; k < attempts; ++k) {
    const auto a = static_cast<std::size_t>(UniformBelow(rng, d));
    const auto r = static_cast<std::size_t>(UniformBelow(rng, n));
    const auto s = static_cast<std::size_t>(UniformBelow(rng, n));
    const Code v = table.columns[a][r];
    const Code w = table.columns[a][s];
    if (v == w) continue;
    // Row r moves from v to w and row s from w to v in every marginal holding a whose other
    // attributes differ between the rows (where they agree, the swap changes nothing).
    double delta = 0;
    for (const auto& [index, stride] : containing[a]) {
      const RefinedMarginal& m = marginals[index];
      const std::size_t br = base(m, r, a);
      const std::size_t bs = base(m, s, a);
      if (br == bs) continue;
      delta += change(m, br + v * stride, -1) + change(m, bs + w * stride, -1) +
               change(m, br + w * stride, 1) + change(m, bs + v * stride, 1);
    }
    if (!(delta < 0)) continue;
    for (const auto& [index, stride] : containing[a]) {
      RefinedMarginal& m = marginals[index];
      const std::size_t br = base(m, r, a);
      const std::size_t bs = base(m, s, a);
      if (br == bs) continue;
      m.count[br + v * stride] -= 1;
      m.count[bs + w * stride] -= 1;
      m.count[br + w * stride] += 1;
      m.count[bs + v * stride] += 1;
    }
    table.columns[a][r] = w;
    table.columns[a][s] = v;
  }
}

EncodedTable SampleModel(const GraphicalModel& model, std::size_t rows,
                         const SamplingOptions& options, Rng& rng) {
  const JunctionTree& tree = model.tree();
  EncodedTable out;
  out.rows = rows;
  out.cardinalities = tree.sizes();
  out.columns.assign(tree.sizes().size(), std::vector<Code>(rows, 0));
  for (int c : tree.order()) {
    const Factor& mu = model.marginals()[static_cast<std::size_t>(c)];
    const Clique& separator = tree.parent_separator(c);
    if (!options.per_attribute) {
      DrawFresh(out, mu, separator, options, rng);
      continue;
    }
    // One attribute at a time, each given the separator and the clique's attributes drawn
    // before it (private-pgm's column-by-column order): the rounding happens in larger groups.
    Clique given = separator;
    for (int a : Difference(mu.attributes, separator)) {
      const Clique with = Union(given, Clique{a});
      DrawFresh(out, SumOnto(mu, with), given, options, rng);
      given = with;
    }
  }
  return out;
}

}  // namespace deniable

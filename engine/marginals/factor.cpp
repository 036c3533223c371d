// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/factor.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iterator>
#include <limits>

namespace deniable {
namespace {

// Strides (in `sub`'s row-major layout) of each attribute of `full`, 0 for attributes that
// `sub` lacks.
std::vector<std::size_t> SubStrides(const Factor& full, const Clique& sub_attributes,
                                    const std::vector<std::uint32_t>& sub_shape) {
  std::vector<std::size_t> strides(full.attributes.size(), 0);
  std::size_t stride = 1;
  for (std::size_t s = sub_attributes.size(); s-- > 0;) {
    const auto it =
        std::lower_bound(full.attributes.begin(), full.attributes.end(), sub_attributes[s]);
    assert(it != full.attributes.end() && *it == sub_attributes[s] && "not a sub-clique");
    strides[static_cast<std::size_t>(it - full.attributes.begin())] = stride;
    stride *= sub_shape[s];
  }
  return strides;
}

// fn(i, j) for every cell i of `shape` (row-major), j = Σ_d index_d · sub_strides[d].
template <typename Fn>
void ForEachCell(const std::vector<std::uint32_t>& shape,
                 const std::vector<std::size_t>& sub_strides, Fn&& fn) {
  const std::size_t k = shape.size();
  if (k == 0) {
    fn(std::size_t{0}, std::size_t{0});
    return;
  }
  for (std::uint32_t s : shape) {
    if (s == 0) return;
  }
  const std::uint32_t inner = shape[k - 1];
  const std::size_t inner_stride = sub_strides[k - 1];
  std::vector<std::uint32_t> index(k, 0);
  std::size_t i = 0;
  std::size_t base = 0;
  while (true) {
    std::size_t j = base;
    for (std::uint32_t t = 0; t < inner; ++t, ++i, j += inner_stride) fn(i, j);
    std::size_t d = k - 1;
    while (d-- > 0) {
      if (++index[d] < shape[d]) {
        base += sub_strides[d];
        break;
      }
      base -= static_cast<std::size_t>(shape[d] - 1) * sub_strides[d];
      index[d] = 0;
    }
    if (d == static_cast<std::size_t>(-1)) return;
  }
}

std::vector<std::uint32_t> ShapeOf(const Factor& f, const Clique& attributes) {
  std::vector<std::uint32_t> shape;
  for (int a : attributes) {
    const auto it = std::lower_bound(f.attributes.begin(), f.attributes.end(), a);
    assert(it != f.attributes.end() && *it == a && "not a sub-clique");
    shape.push_back(f.shape[static_cast<std::size_t>(it - f.attributes.begin())]);
  }
  return shape;
}

}  // namespace

std::size_t CellCount(const Clique& clique, const std::vector<std::uint32_t>& sizes) {
  constexpr std::size_t kCap = std::size_t{1} << 62;
  std::size_t cells = 1;
  for (int a : clique) {
    const std::size_t s = sizes[static_cast<std::size_t>(a)];
    if (s != 0 && cells > kCap / s) return kCap;
    cells *= s;
  }
  return cells;
}

Clique Union(const Clique& a, const Clique& b) {
  Clique out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}
Clique Intersection(const Clique& a, const Clique& b) {
  Clique out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}
Clique Difference(const Clique& a, const Clique& b) {
  Clique out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}
bool IsSubset(const Clique& a, const Clique& b) {
  return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

Factor Factor::Filled(const Clique& attributes, const std::vector<std::uint32_t>& sizes,
                      double value) {
  Factor f;
  f.attributes = attributes;
  for (int a : attributes) f.shape.push_back(sizes[static_cast<std::size_t>(a)]);
  f.values.assign(CellCount(attributes, sizes), value);
  return f;
}

double Factor::Sum() const {
  double sum = 0;
  for (double v : values) sum += v;
  return sum;
}

void AddBroadcast(Factor& out, const Factor& in, double scale) {
  const auto strides = SubStrides(out, in.attributes, in.shape);
  double* o = out.values.data();
  const double* v = in.values.data();
  ForEachCell(out.shape, strides, [&](std::size_t i, std::size_t j) { o[i] += scale * v[j]; });
}

void MultiplyBroadcast(Factor& out, const Factor& in) {
  const auto strides = SubStrides(out, in.attributes, in.shape);
  double* o = out.values.data();
  const double* v = in.values.data();
  ForEachCell(out.shape, strides, [&](std::size_t i, std::size_t j) { o[i] *= v[j]; });
}

Factor SumOnto(const Factor& f, const Clique& onto) {
  Factor out;
  out.attributes = onto;
  out.shape = ShapeOf(f, onto);
  std::size_t cells = 1;
  for (std::uint32_t s : out.shape) cells *= s;
  out.values.assign(cells, 0.0);
  if (onto == f.attributes) {
    out.values = f.values;
    return out;
  }
  const auto strides = SubStrides(f, onto, out.shape);
  double* o = out.values.data();
  const double* v = f.values.data();
  ForEachCell(f.shape, strides, [&](std::size_t i, std::size_t j) { o[j] += v[i]; });
  return out;
}

Factor LogSumExpOnto(const Factor& f, const Clique& onto) {
  double top = -std::numeric_limits<double>::infinity();
  for (double v : f.values) top = std::max(top, v);
  Factor out;
  out.attributes = onto;
  out.shape = ShapeOf(f, onto);
  std::size_t cells = 1;
  for (std::uint32_t s : out.shape) cells *= s;
  out.values.assign(cells, 0.0);
  if (!std::isfinite(top)) {
    out.values.assign(cells, top);
    return out;
  }
  const auto strides = SubStrides(f, onto, out.shape);
  double* o = out.values.data();
  const double* v = f.values.data();
  ForEachCell(f.shape, strides,
              [&](std::size_t i, std::size_t j) { o[j] += std::exp(v[i] - top); });
  for (double& x : out.values) x = std::log(x) + top;
  return out;
}

std::vector<std::uint32_t> CellMap(const Factor& full, const Clique& sub) {
  const auto shape = ShapeOf(full, sub);
  const auto strides = SubStrides(full, sub, shape);
  std::vector<std::uint32_t> map(full.values.size());
  ForEachCell(full.shape, strides,
              [&](std::size_t i, std::size_t j) { map[i] = static_cast<std::uint32_t>(j); });
  return map;
}

std::size_t CellIndex(const Factor& f, const std::vector<std::uint32_t>& codes) {
  std::size_t index = 0;
  for (std::size_t d = 0; d < f.shape.size(); ++d) index = index * f.shape[d] + codes[d];
  return index;
}

}  // namespace deniable

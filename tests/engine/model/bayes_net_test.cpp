// SPDX-License-Identifier: Apache-2.0
#include "engine/model/bayes_net.h"

#include <gtest/gtest.h>

#include "engine/model/encoded_table.h"
#include "engine/model/privbayes.h"

namespace deniable {
namespace {

// attribute 0 (3 values) -> attribute 1 (2 values), parent bucketed {0, 0, 1}.
BayesNet TwoNodeNetwork() {
  BayesNet net;
  BayesNode root;
  root.attribute = 0;
  root.cardinality = 3;
  root.probabilities = {0.5, 0.25, 0.25};
  BayesNode child;
  child.attribute = 1;
  child.cardinality = 2;
  child.parents = {0};
  child.parent_buckets = {{0, 0, 1}};
  child.parent_bucket_counts = {2};
  child.probabilities = {0.9, 0.1, 0.2, 0.8};
  net.nodes = {root, child};
  return net;
}

const std::vector<std::uint32_t> kCardinalities = {3, 2};

TEST(BayesNetValidateTest, AcceptsAValidNetwork) {
  EXPECT_EQ(TwoNodeNetwork().Validate(kCardinalities), "");
}

TEST(BayesNetValidateTest, AcceptsIdentityBuckets) {
  BayesNet net = TwoNodeNetwork();
  net.nodes[1].parent_buckets = {{}};
  net.nodes[1].parent_bucket_counts = {3};
  net.nodes[1].probabilities = {0.9, 0.1, 0.2, 0.8, 0.5, 0.5};
  EXPECT_EQ(net.Validate(kCardinalities), "");
}

TEST(BayesNetValidateTest, RejectsWrongNodeCount) {
  EXPECT_EQ(TwoNodeNetwork().Validate({3, 2, 4}), "the network has 2 nodes for 3 attributes");
}

TEST(BayesNetValidateTest, RejectsDuplicateAttribute) {
  BayesNet net = TwoNodeNetwork();
  net.nodes[1].attribute = 0;
  EXPECT_EQ(net.Validate(kCardinalities), "node 1 (attribute 0): attribute already has node 0");
}

TEST(BayesNetValidateTest, RejectsOutOfRangeAttribute) {
  BayesNet net = TwoNodeNetwork();
  net.nodes[1].attribute = 7;
  EXPECT_EQ(net.Validate(kCardinalities), "node 1 (attribute 7): not an attribute index (0..1)");
}

TEST(BayesNetValidateTest, RejectsParentAfterChild) {
  BayesNet net = TwoNodeNetwork();
  std::swap(net.nodes[0], net.nodes[1]);
  EXPECT_EQ(net.Validate(kCardinalities),
            "node 0 (attribute 1): parent 0 does not come before the node in the network's "
            "order");
}

TEST(BayesNetValidateTest, RejectsSelfParent) {
  BayesNet net = TwoNodeNetwork();
  net.nodes[1].parents = {1};
  net.nodes[1].parent_buckets = {{}};
  net.nodes[1].parent_bucket_counts = {2};
  EXPECT_EQ(net.Validate(kCardinalities),
            "node 1 (attribute 1): parent 1 does not come before the node in the network's "
            "order");
}

TEST(BayesNetValidateTest, RejectsMissingBucketEntries) {
  BayesNet net = TwoNodeNetwork();
  net.nodes[1].parent_buckets.clear();
  EXPECT_EQ(net.Validate(kCardinalities),
            "node 1 (attribute 1): parent_buckets and parent_bucket_counts must have one entry "
            "per parent (1 parents, 0 bucket maps, 1 bucket counts)");
}

TEST(BayesNetValidateTest, RejectsBucketMapOfWrongSize) {
  BayesNet net = TwoNodeNetwork();
  net.nodes[1].parent_buckets = {{0, 1}};
  EXPECT_EQ(net.Validate(kCardinalities),
            "node 1 (attribute 1): the bucket map of parent 0 has 2 entries for cardinality 3");
}

TEST(BayesNetValidateTest, RejectsBucketBeyondCount) {
  BayesNet net = TwoNodeNetwork();
  net.nodes[1].parent_buckets = {{0, 2, 1}};
  EXPECT_EQ(net.Validate(kCardinalities),
            "node 1 (attribute 1): parent 0 maps code 1 to bucket 2, not below its bucket "
            "count 2");
}

TEST(BayesNetValidateTest, RejectsIdentityMapWithOtherCount) {
  BayesNet net = TwoNodeNetwork();
  net.nodes[1].parent_buckets = {{}};
  EXPECT_EQ(net.Validate(kCardinalities),
            "node 1 (attribute 1): parent 0 has an identity bucket map, so its bucket count "
            "must be its cardinality 3 (got 2)");
}

TEST(BayesNetValidateTest, RejectsTableOfWrongSize) {
  BayesNet net = TwoNodeNetwork();
  net.nodes[1].probabilities.push_back(0.0);
  EXPECT_EQ(net.Validate(kCardinalities),
            "node 1 (attribute 1): the conditional table has 5 entries, expected 2 "
            "configurations x 2 values = 4");
}

TEST(BayesNetValidateTest, RejectsDistributionNotSummingToOne) {
  BayesNet net = TwoNodeNetwork();
  net.nodes[1].probabilities[3] = 0.7;
  EXPECT_EQ(net.Validate(kCardinalities),
            "node 1 (attribute 1): the distribution of configuration 1 sums to 0.900000, not 1");
}

TEST(BayesNetValidateTest, RejectsNegativeProbability) {
  BayesNet net = TwoNodeNetwork();
  net.nodes[0].probabilities = {1.25, -0.25, 0.0};
  EXPECT_EQ(net.Validate(kCardinalities),
            "node 0 (attribute 0): configuration 0 has probability -0.250000 for value 1");
}

TEST(BayesNetValidateTest, RejectsWrongCardinality) {
  BayesNet net = TwoNodeNetwork();
  EXPECT_EQ(net.Validate({4, 2}),
            "node 0 (attribute 0): cardinality 3 does not match the attribute's 4");
}

TEST(UniformNetworkTest, IsValidAndUniform) {
  const BayesNet net = UniformNetwork({4, 1, 3});
  ASSERT_EQ(net.Validate({4, 1, 3}), "");
  ASSERT_EQ(net.nodes.size(), 3u);
  EXPECT_EQ(net.nodes[0].probabilities, std::vector<double>(4, 0.25));
  EXPECT_EQ(net.nodes[1].probabilities, std::vector<double>{1.0});
  EXPECT_TRUE(net.nodes[2].parents.empty());
  EXPECT_EQ(net.nodes[2].attribute, 2);
}

TEST(SelectRowsTest, KeepsListedRowsInOrder) {
  EncodedTable table;
  table.rows = 4;
  table.cardinalities = {5, 2};
  table.columns = {{0, 1, 2, 3}, {1, 0, 1, 0}};
  const EncodedTable selected = SelectRows(table, {3, 0, 3});
  EXPECT_EQ(selected.rows, 3u);
  EXPECT_EQ(selected.cardinalities, table.cardinalities);
  EXPECT_EQ(selected.columns[0], (std::vector<Code>{3, 0, 3}));
  EXPECT_EQ(selected.columns[1], (std::vector<Code>{0, 1, 0}));
  EXPECT_EQ(SelectRows(table, {}).rows, 0u);
}

}  // namespace
}  // namespace deniable

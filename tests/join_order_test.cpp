// order_joins(): the cheapest join tree over relations and conditions given
// as numbers, checked against trees and costs computed by hand.
#include <catch2/catch.hpp>

#include <string>

#include "planner/join_order.hpp"

using namespace gpusql;

namespace {

// The tree as text: a relation's index, or (a b) for a join.
std::string shape(const JoinTree& t) {
  if (!t.a) return std::to_string(std::countr_zero(t.relations));
  return "(" + shape(*t.a) + " " + shape(*t.b) + ")";
}

}  // namespace

TEST_CASE("join order: a star joins its most selective dimension first", "[plan]") {
  // 0 the fact table (1000 rows); dimensions 1 (10 rows of 100 keys kept),
  // 2 (50 of 100), 3 (4 of 10). fact x dimension keeps |fact| * kept / keys.
  const std::vector<double> rows{1000, 10, 50, 4};
  const std::vector<JoinCondition> conditions{{1, 2, 0.01}, {1, 4, 0.01}, {1, 8, 0.1}};
  auto tree = order_joins(rows, conditions);
  // (0 1) 100 rows, then 3: 40, then 2: 20 -- against 2 before 3: 50.
  CHECK(shape(*tree) == "(((0 1) 3) 2)");
  CHECK(tree->rows == Approx(1000 * 10 * 50 * 4 * 0.01 * 0.01 * 0.1));
  CHECK(tree->a->rows == Approx(40));
}

TEST_CASE("join order: a small dimension of a dimension joins it before the fact table (bushy)", "[plan]") {
  // TPC-H Q21's shape: lineitem 0 (20 M) -- supplier 1 (100 K) -- nation 2 (1 row of 25).
  const std::vector<double> rows{20e6, 1e5, 1};
  const std::vector<JoinCondition> conditions{{1, 2, 1e-5}, {2, 4, 1.0 / 25}};
  auto tree = order_joins(rows, conditions);
  // (1 2) makes 4,000 rows, then 800,000 with 0; (0 1) first would make 20 M.
  CHECK(shape(*tree) == "(0 (1 2))");
  CHECK(tree->b->rows == Approx(4000));
  CHECK(tree->rows == Approx(8e5));
}

TEST_CASE("join order: no cross product while equalities connect; one where nothing does", "[plan]") {
  // 1 and 2 are tiny, but only 0 joins each: joining them first is a cross product.
  const std::vector<double> rows{1e6, 2, 3};
  auto tree = order_joins(rows, {{1, 2, 1e-3}, {1, 4, 1e-3}});
  CHECK((shape(*tree) == "((0 1) 2)"));
  // Nothing joins 2 to the others: the whole needs a cross product, and the
  // cheapest is of the two small ones (6 rows, then 6,000) rather than of
  // (0 1) with 2 (2,000, then 6,000).
  tree = order_joins(rows, {{1, 2, 1e-3}});
  CHECK(shape(*tree) == "(0 (1 2))");
  CHECK(tree->b->rows == Approx(6));
  CHECK(tree->rows == Approx(1e6 * 2 * 3 * 1e-3));
  // A condition that is no equality only scales the rows of the sets holding all it reads.
  tree = order_joins(rows, {{1, 2, 1e-3}, {7, 0, 0.5, false}});
  CHECK(tree->b->rows == Approx(6));
  CHECK(tree->rows == Approx(3000));
  // A single relation is a leaf.
  tree = order_joins({5}, {});
  CHECK(shape(*tree) == "0");
  CHECK_THROWS(order_joins({}, {}));
  CHECK_THROWS(order_joins(std::vector<double>(13, 1), {}));
}

TEST_CASE("join order: a condition over two relations on one side joins once both are in", "[plan]") {
  // 0.x + 1.y = 2.z: only the split ({0, 1}, {2}) uses it; 0 and 1 join by their own key.
  const std::vector<double> rows{100, 100, 10};
  auto tree = order_joins(rows, {{3, 4, 0.1}, {1, 2, 0.01}});
  CHECK(shape(*tree) == "((0 1) 2)");
  CHECK(tree->rows == Approx(100 * 100 * 10 * 0.1 * 0.01));
}

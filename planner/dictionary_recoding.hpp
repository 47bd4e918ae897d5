// Where VARCHAR values of different dictionaries meet -- a comparison or a
// join of two columns, the results of one CASE -- the binder recodes each
// into one dictionary: the sorted union of theirs and of the string literals
// among them. Codes then compare, join, group and sort as the strings do, on
// both executors, with no operator knowing about it: a column's recoding is a
// Lookup node whose table maps each of its codes to the union's code, built
// once at bind time (as LIKE's table is).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "planner/bound_expression.hpp"

namespace gpusql {

// The union of the operands' dictionaries and literals (NULLs aside). When
// one operand's dictionary already holds every value, it is that dictionary,
// and that operand needs no recoding.
std::shared_ptr<const Dictionary> common_dictionary(const std::vector<const BoundExpr*>& operands);

// `e` (a VARCHAR expression with a dictionary) mapped through a string
// function: each entry's image, sorted and distinct, is the new dictionary,
// and a Lookup node maps each code to its image's. `key` names the function
// with its constant arguments ("substring 1 2"): the mapping is kept with
// the dictionary (Dictionary::derived) and made once.
BoundExpr map_strings(BoundExpr e, const std::string& key, const std::function<std::string(std::string_view)>& f);

// a || b of two VARCHAR expressions with dictionaries: every entry of a's
// followed by every entry of b's, sorted and distinct, is the new
// dictionary, and a Lookup maps code a * |b| + b to its image's code (kept
// with a's dictionary, made once). Past kMaxConcatPairs pairs or
// kMaxConcatBytes of text it fails with "not supported yet" at `offset`:
// the general case builds strings per row, which no executor does yet.
inline constexpr std::size_t kMaxConcatPairs = std::size_t{1} << 22;
inline constexpr std::size_t kMaxConcatBytes = std::size_t{256} << 20;
BoundExpr concat_strings(BoundExpr a, BoundExpr b, std::size_t offset);

// `e` (a VARCHAR expression with a dictionary, a string literal or a NULL)
// as codes of `target`, which must hold all of its values.
BoundExpr recode(BoundExpr e, const std::shared_ptr<const Dictionary>& target);

}  // namespace gpusql

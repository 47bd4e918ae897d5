// Filter: evaluates a whole WHERE predicate, reading each column once, and
// compacts the ids of the selected rows.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/expr_program.hpp"
#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// Evaluates `predicate` for each of `count` input positions (row ids from
// d_selection when given, else 0..count-1) and writes the ids of the rows it
// selects to d_out (room for `count`), in ascending position order. Fast
// predicates (ANDed clauses of column-vs-constant comparisons, BOOLEAN
// columns) over plain columns of one width without NULLs take the bitmask
// filter (kernels/filter_bitmask.hpp: one pass over 16-byte vectors, tile
// offsets by look-back overlapped with the next tile's loads);
// other fast predicates cub::DeviceSelect (those comparing two columns the
// ordered kernel) -- each one pass, a block compacting its tile with a
// block-wide scan and finding the tile's output offset by decoupled
// look-back over the tiles before it. The rest run through the interpreter,
// a byte per id at full occupancy, then cub::DeviceSelect::Flagged.
// Selects nothing from no rows. Run-time errors
// are OR-ed into *d_error. Returns the number selected (synchronizes).
std::size_t filter_rows(const ExprProgram& predicate, const ColumnSet& columns, const uint32_t* d_selection,
                        std::size_t count, uint32_t* d_out, uint32_t* d_error, DeviceContext& context);

}  // namespace gpusql::kernels

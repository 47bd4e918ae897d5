// PRIMARY KEY and UNIQUE checks over a new version of a table (after an
// INSERT, COPY or UPDATE): the change is refused, and the table left as it
// was, when two rows share a key.
#pragma once

#include <cstddef>

#include "storage/table.hpp"

namespace gpusql {

// Throws Error(Constraint) -- `Duplicate key "k: 1" violates primary key
// constraint.`, DuckDB's text -- when a row at or past `first_new_row`
// has the key of another row. Rows before it are taken to be unique among
// themselves (the old version's). Rows with a NULL in the key never clash.
void check_unique_key(const Table& table, const UniqueKey& key, std::size_t first_new_row);

}  // namespace gpusql

// UPDATE and DELETE, run as queries over the table (on the GPU when the
// database uses it), all or nothing:
//   DELETE FROM t WHERE c   reads  SELECT * FROM t WHERE NOT (c IS TRUE)
//   UPDATE t SET a = e WHERE c  reads
//     SELECT CASE WHEN c THEN CAST(e AS a's type) ELSE a END AS a, b, ... FROM t
// (every right-hand side sees the row as it was, as in the standard). The
// answer, its NOT NULL, PRIMARY KEY and UNIQUE constraints checked, becomes
// the table's new version; on any error the table stays as it was. Rows
// keep their order.
#pragma once

#include <memory>
#include <string_view>

#include "engine/database_impl.hpp"
#include "storage/result_data.hpp"
#include "parser/ast.hpp"

namespace gpusql {

// "updated 2 rows in t"
std::shared_ptr<ResultData> update_rows(const ast::UpdateStatement& s, Database::Impl& database, std::string_view sql);
// "deleted 2 rows from t"
std::shared_ptr<ResultData> delete_rows(const ast::DeleteStatement& s, Database::Impl& database, std::string_view sql);

}  // namespace gpusql

// The statements that create, fill, drop or describe tables: CREATE TABLE
// [AS SELECT], COPY, INSERT, DROP TABLE, SHOW TABLES, DESCRIBE. Each either
// completes or leaves the catalog exactly as it was.
#pragma once

#include <memory>
#include <string_view>

#include "engine/database_impl.hpp"

namespace gpusql {

std::shared_ptr<ResultData> execute_catalog_statement(const ast::Statement& statement, Database::Impl& database,
                                                      std::string_view sql);

}  // namespace gpusql

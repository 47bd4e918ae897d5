#include "engine/catalog_statements.hpp"

namespace gpusql {

std::shared_ptr<ResultData> execute_catalog_statement(const ast::Statement& statement, Database::Impl&,
                                                      std::string_view) {
  throw Error(ErrorKind::NotSupported, "not supported yet: this statement", statement.offset);
}

}  // namespace gpusql

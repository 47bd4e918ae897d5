// The one resolver of type names written in SQL, for DDL (CREATE TABLE) and
// CAST alike, so that a name means the same type everywhere.
#pragma once

#include "parser/ast.hpp"
#include "storage/data_type.hpp"

namespace gpusql {

// What a column type written in SQL means: INTEGER (also INT, INT4, SMALLINT,
// TINYINT), BIGINT (INT8, LONG), REAL (FLOAT, FLOAT4), DOUBLE (FLOAT8),
// DECIMAL/NUMERIC[(p[,s])] (default (18,3); p up to 38,
// s up to 18), DATE, VARCHAR (TEXT,
// STRING, CHAR; a length is accepted and ignored), BOOLEAN (BOOL).
// Throws Error(Catalog) for an unknown name, Error(Binder) for bad parameters.
DataType data_type_from_name(const ast::TypeName& type);

}  // namespace gpusql

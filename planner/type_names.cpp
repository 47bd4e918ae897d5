#include "planner/type_names.hpp"

#include "storage/catalog.hpp"  // closest_name
#include "storage/table.hpp"    // to_lower

namespace gpusql {

DataType data_type_from_name(const ast::TypeName& type) {
  const std::string name = to_lower(type.name);
  const auto& p = type.parameters;
  auto no_parameters = [&](DataType t) {
    if (!p.empty())
      throw Error(ErrorKind::Binder, "Type " + t.to_string() + " does not take parameters", type.offset);
    return t;
  };
  if (name == "boolean" || name == "bool" || name == "logical") return no_parameters(DataType::boolean());
  if (name == "integer" || name == "int" || name == "int4" || name == "int32" || name == "signed" ||
      name == "smallint" || name == "int2" || name == "int16" || name == "short" || name == "tinyint" ||
      name == "int1")
    return no_parameters(DataType::integer());
  if (name == "bigint" || name == "int8" || name == "int64" || name == "long") return no_parameters(DataType::bigint());
  if (name == "real" || name == "float" || name == "float4") return no_parameters(DataType::real());
  if (name == "double" || name == "float8" || name == "double precision") return no_parameters(DataType::double_());
  if (name == "date") return no_parameters(DataType::date());
  if (name == "varchar" || name == "text" || name == "string" || name == "char" || name == "bpchar" ||
      name == "character varying" || name == "character") {
    if (p.size() > 1) throw Error(ErrorKind::Binder, "Type VARCHAR takes at most one parameter", type.offset);
    return DataType::varchar();
  }
  if (name == "decimal" || name == "numeric" || name == "dec") {
    if (p.size() > 2) throw Error(ErrorKind::Binder, "Type DECIMAL takes at most two parameters", type.offset);
    int64_t precision = p.empty() ? 18 : p[0], scale = p.size() > 1 ? p[1] : (p.empty() ? 3 : 0);
    if (precision < 1 || precision > 38)
      throw Error(ErrorKind::Binder, "DECIMAL precision must be between 1 and 38", type.offset);
    if (scale < 0 || scale > precision)
      throw Error(ErrorKind::Binder, "DECIMAL scale must be between 0 and the precision", type.offset);
    if (scale > DataType::kMaxNarrowDecimalDigits)
      throw Error(ErrorKind::NotSupported, "not supported yet: DECIMAL scale above 18", type.offset);
    return DataType{Type::Decimal, static_cast<uint8_t>(precision), static_cast<uint8_t>(scale)};
  }
  std::string hint = closest_name(name, {"integer", "bigint", "double", "real", "boolean", "date", "varchar", "decimal"});
  throw Error(ErrorKind::Catalog,
              "Type with name " + type.name + " does not exist!" + (hint.empty() ? "" : "\nDid you mean \"" + hint + "\"?"),
              type.offset);
}

}  // namespace gpusql

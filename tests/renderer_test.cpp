// The shell's output modes, on results built by hand: the exact text of each.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "storage/result_data.hpp"
#include "shell/renderer.hpp"

namespace {

using gpusql::DataType;
using gpusql::HostColumn;
using gpusql::Result;
using gpusql::ResultData;
using gpusql::shell::RenderMode;
using gpusql::shell::RenderOptions;

template <class T>
HostColumn fixed_column(DataType type, const std::vector<std::optional<T>>& values) {
  HostColumn column(type, values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i])
      column.values<T>()[i] = *values[i];
    else
      column.set_null(i);
  }
  return column;
}

HostColumn integers(const std::vector<std::optional<int32_t>>& values) {
  return fixed_column(DataType::integer(), values);
}
HostColumn bigints(const std::vector<std::optional<int64_t>>& values) {
  return fixed_column(DataType::bigint(), values);
}
HostColumn doubles(const std::vector<std::optional<double>>& values) {
  return fixed_column(DataType::double_(), values);
}
HostColumn booleans(const std::vector<std::optional<bool>>& values) {
  std::vector<std::optional<uint8_t>> bytes;
  for (auto v : values) bytes.push_back(v ? std::optional<uint8_t>(*v ? 1 : 0) : std::nullopt);
  return fixed_column(DataType::boolean(), bytes);
}

// VARCHAR: codes into a sorted dictionary of the distinct values.
HostColumn strings(const std::vector<std::optional<std::string>>& values) {
  std::vector<std::string> present;
  for (const auto& v : values)
    if (v) present.push_back(*v);
  std::shared_ptr<gpusql::Dictionary> dictionary = gpusql::sorted_dictionary(present);
  HostColumn column(DataType::varchar(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i])
      column.values<uint32_t>()[i] = dictionary->lower_bound(*values[i]);
    else
      column.set_null(i);
  }
  column.dictionary = dictionary;
  return column;
}

Result make_result(std::vector<std::pair<std::string, HostColumn>> columns) {
  auto data = std::make_shared<ResultData>();
  for (auto& [name, column] : columns) {
    data->rows = column.size;
    data->names.push_back(name);
    data->columns.push_back(std::move(column));
  }
  return Result(data);
}

Result status_result(std::string status) {
  auto data = std::make_shared<ResultData>();
  data->status = std::move(status);
  return Result(data);
}

std::string render(RenderMode mode, const Result& result, RenderOptions options = {}) {
  std::ostringstream out;
  gpusql::shell::make_renderer(mode, options)->render(result, out);
  return out.str();
}

Result people() {
  return make_result({{"id", integers({1, 2, std::nullopt})},
                      {"name", strings({"ann", std::nullopt, "bob"})},
                      {"score", doubles({1.5, std::nullopt, -0.25})}});
}

Result counting(int rows) {
  std::vector<std::optional<int64_t>> values;
  for (int i = 0; i < rows; ++i) values.push_back(i * 11);
  return make_result({{"n", bigints(values)}});
}

}  // namespace

TEST_CASE("mode names round-trip", "[shell]") {
  for (RenderMode mode : {RenderMode::Box, RenderMode::Csv, RenderMode::Json, RenderMode::Markdown, RenderMode::List,
                          RenderMode::Line, RenderMode::Column, RenderMode::Table, RenderMode::Trash})
    CHECK(gpusql::shell::parse_render_mode(gpusql::shell::render_mode_name(mode)) == mode);
  CHECK_FALSE(gpusql::shell::parse_render_mode("tabular"));
  CHECK(gpusql::shell::render_mode_names() == "box|csv|json|markdown|list|line|column|table|trash");
}

TEST_CASE("box: names and types centered, numbers right, text left, NULL shown", "[shell]") {
  CHECK(render(RenderMode::Box, people()) ==
        "┌─────────┬─────────┬────────┐\n"
        "│   id    │  name   │ score  │\n"
        "│ integer │ varchar │ double │\n"
        "├─────────┼─────────┼────────┤\n"
        "│       1 │ ann     │    1.5 │\n"
        "│       2 │ NULL    │   NULL │\n"
        "│    NULL │ bob     │  -0.25 │\n"
        "└─────────┴─────────┴────────┘\n");
}

TEST_CASE("box: booleans, bigints and wide values size their column", "[shell]") {
  Result r = make_result({{"flag", booleans({true, false, std::nullopt})},
                          {"big", bigints({9223372036854775807LL, -1, 0})}});
  CHECK(render(RenderMode::Box, r) ==
        "┌─────────┬─────────────────────┐\n"
        "│  flag   │         big         │\n"
        "│ boolean │       bigint        │\n"
        "├─────────┼─────────────────────┤\n"
        "│ true    │ 9223372036854775807 │\n"
        "│ false   │                  -1 │\n"
        "│ NULL    │                   0 │\n"
        "└─────────┴─────────────────────┘\n");
}

TEST_CASE("box: width counts characters, not UTF-8 bytes", "[shell]") {
  Result r = make_result({{"city", strings({"Zürich", "Köln"})}});
  CHECK(render(RenderMode::Box, r) ==
        "┌─────────┐\n"
        "│  city   │\n"
        "│ varchar │\n"
        "├─────────┤\n"
        "│ Zürich  │\n"
        "│ Köln    │\n"
        "└─────────┘\n");
}

TEST_CASE("box: width counts terminal columns: two for CJK and emoji, none for a combining mark", "[shell]") {
  Result r = make_result({{"word", strings({"日本語", "e\u0301t\u00e9", "\U0001F600!"})}});
  CHECK(render(RenderMode::Box, r) ==
        "┌─────────┐\n"
        "│  word   │\n"
        "│ varchar │\n"
        "├─────────┤\n"
        "│ 日本語  │\n"
        "│ e\u0301t\u00e9     │\n"
        "│ \U0001F600!     │\n"
        "└─────────┘\n");
}

TEST_CASE("box: line breaks and control characters are escaped", "[shell]") {
  Result r = make_result({{"s", strings({"a\nb", std::string("t\tu\x01", 4)})}});
  CHECK(render(RenderMode::Box, r) ==
        "┌──────────┐\n"
        "│    s     │\n"
        "│ varchar  │\n"
        "├──────────┤\n"
        "│ a\\nb     │\n"
        "│ t\\tu\\x01 │\n"
        "└──────────┘\n");
}

TEST_CASE("box: long results keep their first and last rows, with a footer", "[shell]") {
  std::vector<std::optional<int64_t>> numbers;
  std::vector<std::optional<std::string>> labels;
  for (int i = 0; i < 11; ++i) {
    numbers.push_back(i);
    labels.push_back("row " + std::to_string(i));
  }
  Result r = make_result({{"n", bigints(numbers)}, {"label text", strings(labels)}});
  RenderOptions options;
  options.max_rows = 5;  // odd: the extra row goes to the top
  CHECK(render(RenderMode::Box, r, options) ==
        "┌────────┬────────────┐\n"
        "│   n    │ label text │\n"
        "│ bigint │  varchar   │\n"
        "├────────┼────────────┤\n"
        "│      0 │ row 0      │\n"
        "│      1 │ row 1      │\n"
        "│      2 │ row 2      │\n"
        "│      · │ ·          │\n"
        "│      · │ ·          │\n"
        "│      · │ ·          │\n"
        "│      9 │ row 9      │\n"
        "│     10 │ row 10     │\n"
        "├────────┴────────────┤\n"
        "│ 11 rows (5 shown)   │\n"
        "└─────────────────────┘\n");
}

TEST_CASE("box: a narrow table splits the footer over two lines", "[shell]") {
  RenderOptions options;
  options.max_rows = 4;
  CHECK(render(RenderMode::Box, counting(10), options) ==
        "┌───────────┐\n"
        "│     n     │\n"
        "│  bigint   │\n"
        "├───────────┤\n"
        "│         0 │\n"
        "│        11 │\n"
        "│         · │\n"
        "│         · │\n"
        "│         · │\n"
        "│        88 │\n"
        "│        99 │\n"
        "├───────────┤\n"
        "│ 10 rows   │\n"
        "│ (4 shown) │\n"
        "└───────────┘\n");
}

TEST_CASE("box: rows up to the limit, or any number with limit 0, are all shown", "[shell]") {
  RenderOptions options;
  options.max_rows = 3;
  const std::string all =
      "┌────────┐\n"
      "│   n    │\n"
      "│ bigint │\n"
      "├────────┤\n"
      "│      0 │\n"
      "│     11 │\n"
      "│     22 │\n"
      "└────────┘\n";
  CHECK(render(RenderMode::Box, counting(3), options) == all);
  options.max_rows = 0;
  std::string rendered = render(RenderMode::Box, counting(1000), options);
  CHECK(std::count(rendered.begin(), rendered.end(), '\n') == 1000 + 5);
  CHECK(rendered.find("·") == std::string::npos);
}

TEST_CASE("box: an empty result shows its header and 0 rows", "[shell]") {
  Result r = make_result({{"id", integers({})}, {"name", strings({})}});
  CHECK(render(RenderMode::Box, r) ==
        "┌─────────┬─────────┐\n"
        "│   id    │  name   │\n"
        "│ integer │ varchar │\n"
        "├─────────┴─────────┤\n"
        "│ 0 rows            │\n"
        "└───────────────────┘\n");
}

TEST_CASE("every mode but trash prints the status of a result without columns", "[shell]") {
  for (RenderMode mode : {RenderMode::Box, RenderMode::Csv, RenderMode::Json, RenderMode::Markdown}) {
    CHECK(render(mode, status_result("loaded 3 rows into t")) == "loaded 3 rows into t\n");
    CHECK(render(mode, status_result("")) == "");
    CHECK(render(mode, Result()) == "");
  }
  CHECK(render(RenderMode::Trash, status_result("loaded 3 rows into t")) == "");
}

TEST_CASE("trash prints nothing", "[shell]") { CHECK(render(RenderMode::Trash, people()) == ""); }

TEST_CASE("csv: header, NULL as an empty field, numbers as Result::text", "[shell]") {
  CHECK(render(RenderMode::Csv, people()) ==
        "id,name,score\n"
        "1,ann,1.5\n"
        "2,,\n"
        ",bob,-0.25\n");
}

TEST_CASE("csv: no header line with headers off", "[shell]") {
  RenderOptions options;
  options.headers = false;
  CHECK(render(RenderMode::Csv, people(), options) == "1,ann,1.5\n2,,\n,bob,-0.25\n");
}

TEST_CASE("list: values joined by the separator, NULL as the null value, no quoting", "[shell]") {
  CHECK(render(RenderMode::List, people()) ==
        "id|name|score\n"
        "1|ann|1.5\n"
        "2||\n"
        "|bob|-0.25\n");
  RenderOptions options;
  options.headers = false;
  options.null_value = "NULL";
  options.separator = ", ";
  CHECK(render(RenderMode::List, people(), options) ==
        "1, ann, 1.5\n"
        "2, NULL, NULL\n"
        "NULL, bob, -0.25\n");
  CHECK(render(RenderMode::List, make_result({{"s", strings({"a|b", "x\"y"})}})) == "s\na|b\nx\"y\n");
  CHECK(render(RenderMode::List, make_result({{"n", integers({})}})) == "n\n");
}

TEST_CASE("line: one column a line, names right-aligned, rows apart", "[shell]") {
  CHECK(render(RenderMode::Line, people()) ==
        "   id = 1\n"
        " name = ann\n"
        "score = 1.5\n"
        "\n"
        "   id = 2\n"
        " name = \n"
        "score = \n"
        "\n"
        "   id = \n"
        " name = bob\n"
        "score = -0.25\n");
  RenderOptions options;
  options.null_value = "NULL";
  CHECK(render(RenderMode::Line, make_result({{"é", integers({std::nullopt})}, {"ab", integers({7})}}), options) ==
        " é = NULL\n"
        "ab = 7\n");
  CHECK(render(RenderMode::Line, make_result({{"n", integers({})}})) == "");
}

TEST_CASE("csv: quotes only fields that need it, doubling quotes", "[shell]") {
  Result r = make_result({{"a,b", strings({"plain", "x,y", "say \"hi\"", "two\nlines", "cr\r", "", std::nullopt,
                                           " spaced "})}});
  CHECK(render(RenderMode::Csv, r) ==
        "\"a,b\"\n"
        "plain\n"
        "\"x,y\"\n"
        "\"say \"\"hi\"\"\"\n"
        "\"two\nlines\"\n"
        "\"cr\r\"\n"
        "\"\"\n"
        "\n"
        " spaced \n");
}

TEST_CASE("csv: booleans, extreme and non-finite doubles, empty results", "[shell]") {
  Result r = make_result({{"b", booleans({true, false, std::nullopt})},
                          {"d", doubles({1e20, std::numeric_limits<double>::infinity(), std::nan("")})}});
  CHECK(render(RenderMode::Csv, r) ==
        "b,d\n"
        "true,1e+20\n"
        "false,inf\n"
        ",nan\n");
  CHECK(render(RenderMode::Csv, make_result({{"id", integers({})}})) == "id\n");
}

TEST_CASE("json: one object per row, numbers bare, NULL as null", "[shell]") {
  CHECK(render(RenderMode::Json, people()) ==
        "[{\"id\":1,\"name\":\"ann\",\"score\":1.5},\n"
        "{\"id\":2,\"name\":null,\"score\":null},\n"
        "{\"id\":null,\"name\":\"bob\",\"score\":-0.25}]\n");
}

TEST_CASE("json: strings and keys escaped, non-finite doubles as null", "[shell]") {
  Result r = make_result({{"k\"ey", strings({"q\"b\\s/", std::string("nl\n tab\t cr\r bs\b ff\f \x01\x1f\x7f", 24),
                                             "ünï"})},
                          {"d", doubles({std::numeric_limits<double>::infinity(), std::nan(""), 0.1})},
                          {"b", booleans({true, false, std::nullopt})},
                          {"big", bigints({-9223372036854775807LL - 1, 0, 42})}});
  CHECK(render(RenderMode::Json, r) ==
        "[{\"k\\\"ey\":\"q\\\"b\\\\s/\",\"d\":null,\"b\":true,\"big\":-9223372036854775808},\n"
        "{\"k\\\"ey\":\"nl\\n tab\\t cr\\r bs\\b ff\\f \\u0001\\u001f\\u007f\",\"d\":null,\"b\":false,\"big\":0},\n"
        "{\"k\\\"ey\":\"ünï\",\"d\":0.1,\"b\":null,\"big\":42}]\n");
}

TEST_CASE("json: an empty result is an empty array", "[shell]") {
  CHECK(render(RenderMode::Json, make_result({{"id", integers({})}})) == "[]\n");
}

TEST_CASE("markdown: a pipe table, numbers right-aligned, pipes escaped", "[shell]") {
  CHECK(render(RenderMode::Markdown, people()) ==
        "|   id | name | score |\n"
        "|-----:|------|------:|\n"
        "|    1 | ann  |   1.5 |\n"
        "|    2 | NULL |  NULL |\n"
        "| NULL | bob  | -0.25 |\n");
  Result r = make_result({{"a|b", strings({"x|y", "line\nbreak"})}});
  CHECK(render(RenderMode::Markdown, r) ==
        "| a\\|b        |\n"
        "|-------------|\n"
        "| x\\|y        |\n"
        "| line\\nbreak |\n");
  CHECK(render(RenderMode::Markdown, make_result({{"id", integers({})}})) ==
        "| id |\n"
        "|---:|\n");
}

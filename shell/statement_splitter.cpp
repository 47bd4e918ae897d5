#include "shell/statement_splitter.hpp"

namespace gpusql::shell {

namespace {

constexpr std::string_view WHITESPACE = " \t\r\n\f\v";

std::string_view trim(std::string_view text) {
  std::size_t first = text.find_first_not_of(WHITESPACE);
  if (first == std::string_view::npos) return {};
  std::size_t last = text.find_last_not_of(WHITESPACE);
  return text.substr(first, last - first + 1);
}

enum class Lexeme { Code, SingleQuoted, DoubleQuoted, LineComment, BlockComment };

}  // namespace

SplitResult split_statements(std::string_view text) {
  SplitResult result;
  Lexeme state = Lexeme::Code;
  std::size_t start = 0;
  // Whether the current statement has anything besides whitespace and comments.
  bool has_code = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    switch (state) {
      case Lexeme::Code:
        if (c == '\'') {
          state = Lexeme::SingleQuoted;
          has_code = true;
        } else if (c == '"') {
          state = Lexeme::DoubleQuoted;
          has_code = true;
        } else if (c == '-' && next == '-') {
          state = Lexeme::LineComment;
          ++i;
        } else if (c == '/' && next == '*') {
          state = Lexeme::BlockComment;
          ++i;
        } else if (c == ';') {
          if (has_code) result.statements.emplace_back(trim(text.substr(start, i - start)));
          start = i + 1;
          has_code = false;
        } else if (WHITESPACE.find(c) == std::string_view::npos) {
          has_code = true;
        }
        break;
      // A doubled quote inside a string ('it''s') closes and reopens it,
      // which leaves the state right without a special case.
      case Lexeme::SingleQuoted:
        if (c == '\'') state = Lexeme::Code;
        break;
      case Lexeme::DoubleQuoted:
        if (c == '"') state = Lexeme::Code;
        break;
      case Lexeme::LineComment:
        if (c == '\n') state = Lexeme::Code;
        break;
      case Lexeme::BlockComment:
        if (c == '*' && next == '/') {
          state = Lexeme::Code;
          ++i;
        }
        break;
    }
  }
  result.rest = std::string(text.substr(start));
  result.rest_is_blank = !has_code && (state == Lexeme::Code || state == Lexeme::LineComment);
  return result;
}

std::vector<InputItem> StatementReader::feed_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (buffer_.empty()) {
    std::string_view command = trim(line);
    if (!command.empty() && command.front() == '.')
      return {InputItem{InputItem::Kind::DotCommand, std::string(command), false}};
  }
  if (!buffer_.empty()) buffer_ += '\n';
  buffer_ += line;

  SplitResult split = split_statements(buffer_);
  std::vector<InputItem> items;
  items.reserve(split.statements.size());
  for (std::string& statement : split.statements)
    items.push_back(InputItem{InputItem::Kind::Sql, std::move(statement), true});
  if (split.rest_is_blank)
    buffer_.clear();
  else
    buffer_ = std::move(split.rest);
  return items;
}

std::optional<InputItem> StatementReader::finish() {
  std::string rest = std::move(buffer_);
  buffer_.clear();
  std::string_view statement = trim(rest);
  if (statement.empty()) return std::nullopt;
  return InputItem{InputItem::Kind::Sql, std::string(statement), false};
}

}  // namespace gpusql::shell

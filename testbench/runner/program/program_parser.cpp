#include "testbench/runner/program/program_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "testbench/runner/program/program_lexer.h"
#include "tlm/common/errors.h"

namespace hs::runner::program {

namespace fp = hs::fw::program;
using fp::Expr;
using fp::Op;
using fp::Pos;
using fp::ProgramError;
using fp::Stmt;

namespace {

const std::map<std::string, Op> kStatements = {{"compute", Op::Compute},
                                               {"send", Op::Send},
                                               {"recv", Op::Recv},
                                               {"sendrecv", Op::Sendrecv},
                                               {"wait", Op::Wait},
                                               {"waitall", Op::Waitall},
                                               {"barrier", Op::Barrier},
                                               {"bcast", Op::Bcast},
                                               {"reduce", Op::Reduce},
                                               {"allreduce", Op::Allreduce},
                                               {"allgather", Op::Allgather},
                                               {"alltoall", Op::Alltoall},
                                               {"loop", Op::Loop},
                                               {"if", Op::If},
                                               {"let", Op::Let}};

// Words a name may not be: statements, options and selector words.
const std::set<std::string> kReserved = {
    "compute", "send",    "recv",  "sendrecv", "isend",     "irecv",     "wait",
    "waitall", "barrier", "bcast", "reduce",   "allreduce", "allgather", "alltoall",
    "loop",    "if",      "else",  "let",      "ranks",     "all",       "even",
    "odd",     "any",     "tag",   "op",       "type",      "as"};

const std::map<std::string, std::pair<fp::Func, std::pair<size_t, size_t>>> kFuncs = {
    {"coord", {fp::Func::Coord, {3, 4}}},
    {"min", {fp::Func::Min, {2, 2}}},
    {"max", {fp::Func::Max, {2, 2}}},
    {"abs", {fp::Func::Abs, {1, 1}}}};

// Binary operators by precedence level, loosest first.
const std::vector<std::vector<std::string>> kLevels = {
    {"||"}, {"&&"}, {"==", "!="}, {"<", "<=", ">", ">="}, {"+", "-"}, {"*", "/", "%"}};

class Parser {
 public:
  // `file` names the program in statements' labels: its name without the directory, short
  // enough for a timeline.
  Parser(std::vector<Token> tokens, const std::string& file)
      : t_(std::move(tokens)), file_(std::filesystem::path(file).filename().string()) {
    scopes_.emplace_back();
    for (int b = 0; b < fp::kBuiltinSlots; ++b) {
      scopes_.back()[fp::builtin_name(static_cast<fp::Builtin>(b))] = b;
    }
  }

  fp::Program program() {
    skip_separators();
    while (peek().kind != Token::End) {
      const Token& w = next();
      if (w.kind != Token::Name || w.text != "ranks") {
        throw ProgramError(w.pos, fmt::format("expected 'ranks' to start a group of ranks, found "
                                              "{}",
                                              describe(w)));
      }
      fp::Group g;
      g.ranks = selector(w.pos);
      g.body = block(0);
      p_.groups.push_back(std::move(g));
      skip_separators();
    }
    if (p_.groups.empty()) throw ProgramError(peek().pos, "the program has no 'ranks' group");
    return std::move(p_);
  }

 private:
  const Token& peek(size_t ahead = 0) const { return t_[std::min(i_ + ahead, t_.size() - 1)]; }
  const Token& next() {
    const Token& t = peek();
    if (i_ < t_.size() - 1) ++i_;
    return t;
  }
  bool is(const char* punct_or_word, size_t ahead = 0) const {
    const Token& t = peek(ahead);
    return (t.kind == Token::Punct || t.kind == Token::Name) && t.text == punct_or_word;
  }
  bool accept(const char* s) {
    if (!is(s)) return false;
    next();
    return true;
  }
  const Token& expect(const char* s, const char* what) {
    if (!is(s)) {
      throw ProgramError(peek().pos,
                         fmt::format("expected '{}' {}, found {}", s, what, describe(peek())));
    }
    return next();
  }
  void skip_separators() {
    while (peek().kind == Token::Newline || is(";")) next();
  }

  fp::Selector selector(Pos pos) {
    fp::Selector s;
    s.pos = pos;
    if (accept("all")) {
      s.kind = fp::Selector::All;
    } else if (accept("even")) {
      s.kind = fp::Selector::Even;
    } else if (accept("odd")) {
      s.kind = fp::Selector::Odd;
    } else if (accept("if")) {
      s.kind = fp::Selector::Condition;
      s.condition = expr();
    } else {
      if (is("{")) {
        throw ProgramError(peek().pos,
                           "expected which ranks: all, even, odd, if CONDITION or a "
                           "list such as 0..3, 7");
      }
      s.kind = fp::Selector::List;
      do {
        Expr lo = expr();
        Expr hi = accept("..") ? expr() : lo;
        s.ranges.emplace_back(std::move(lo), std::move(hi));
      } while (accept(","));
    }
    return s;
  }

  // '{' statements '}' in a new scope.
  std::vector<Stmt> block(int depth) {
    if (depth >= kMaxBlockNesting) {
      throw ProgramError(peek().pos,
                         fmt::format("blocks nested more than {} deep", kMaxBlockNesting));
    }
    const Token& open = expect("{", "to open a block");
    scopes_.emplace_back();
    std::vector<Stmt> body;
    skip_separators();
    while (!is("}")) {
      if (peek().kind == Token::End) {
        throw ProgramError(open.pos, "this '{' is never closed (no matching '}')");
      }
      body.push_back(statement(depth));
      if (!is("}")) {
        if (peek().kind != Token::Newline && !is(";") && peek().kind != Token::End) {
          throw ProgramError(peek().pos, fmt::format("expected the end of the statement, found "
                                                     "{}",
                                                     describe(peek())));
        }
        skip_separators();
      }
    }
    next();
    scopes_.pop_back();
    return body;
  }

  std::string new_name(const Token& t, const char* what) {
    if (t.kind != Token::Name) {
      throw ProgramError(t.pos, fmt::format("expected {}, found {}", what, describe(t)));
    }
    if (kReserved.count(t.text) || kFuncs.count(t.text)) {
      throw ProgramError(t.pos, fmt::format("'{}' is a reserved word, not a name", t.text));
    }
    if (scopes_.front().count(t.text)) {
      throw ProgramError(
          t.pos, fmt::format("'{}' is a built-in variable and cannot be redefined", t.text));
    }
    return t.text;
  }
  int bind(const std::string& name) {
    scopes_.back()[name] = p_.slots;
    return p_.slots++;
  }

  Stmt statement(int depth) {
    const Token& w = next();
    Stmt s;
    s.pos = w.pos;
    if (w.kind == Token::Name && is("=")) {
      // NAME = isend|irecv ...
      s.request = new_name(w, "a request name");
      next();
      const Token& kind = next();
      if (kind.text != "isend" && kind.text != "irecv") {
        throw ProgramError(kind.pos, fmt::format("expected isend or irecv after '{} =', found {}",
                                                 s.request, describe(kind)));
      }
      s.op = kind.text == "isend" ? Op::Isend : Op::Irecv;
      s.label = fmt::format("{}:{} {}", file_, w.pos.line, kind.text);
      transfer(s, s.op == Op::Irecv);
      return s;
    }
    if (w.kind != Token::Name || !kStatements.count(w.text)) {
      if (w.kind == Token::Name && (w.text == "isend" || w.text == "irecv")) {
        throw ProgramError(
            w.pos, fmt::format("{} returns a request: write 'NAME = {} ...'", w.text, w.text));
      }
      throw ProgramError(w.pos, fmt::format("unknown statement {}", describe(w)));
    }
    s.label = fmt::format("{}:{} {}", file_, w.pos.line, w.text);
    s.op = kStatements.at(w.text);
    switch (s.op) {
      case Op::Compute:
        s.args.push_back(expr());
        break;
      case Op::Send:
      case Op::Recv:
        transfer(s, s.op == Op::Recv);
        break;
      case Op::Sendrecv:
        s.args.push_back(expr());
        s.args.push_back(expr());
        source(s);
        s.args.push_back(expr());
        tag(s, false);
        break;
      case Op::Wait:
        s.request = name_of_request();
        break;
      case Op::Waitall:
        while (peek().kind == Token::Name) s.requests.push_back(name_of_request());
        break;
      case Op::Barrier:
        break;
      case Op::Bcast:
      case Op::Reduce:
        s.args.push_back(expr());
        s.args.push_back(expr());
        if (s.op == Op::Reduce) reduction(s);
        break;
      case Op::Allreduce:
        s.args.push_back(expr());
        reduction(s);
        break;
      case Op::Allgather:
      case Op::Alltoall:
        s.args.push_back(expr());
        break;
      case Op::Loop: {
        s.args.push_back(expr());
        std::string index = "i";
        if (accept("as")) index = new_name(next(), "a name for the loop index");
        scopes_.emplace_back();
        s.slot = bind(index);
        s.body = block(depth + 1);
        scopes_.pop_back();
        break;
      }
      case Op::If:
        s.args.push_back(expr());
        s.body = block(depth + 1);
        if (accept("else")) {
          if (is("if")) {
            s.else_body.push_back(statement(depth + 1));
          } else {
            s.else_body = block(depth + 1);
          }
        }
        break;
      case Op::Let: {
        const std::string name = new_name(next(), "a name after 'let'");
        expect("=", "after the name");
        s.args.push_back(expr());
        s.slot = bind(name);  // after its value: `let n = n + 1` reads the earlier n
        break;
      }
      case Op::Isend:
      case Op::Irecv:
        break;
    }
    return s;
  }

  std::string name_of_request() {
    const Token& t = next();
    if (t.kind != Token::Name) {
      throw ProgramError(t.pos, fmt::format("expected a request name, found {}", describe(t)));
    }
    return t.text;
  }

  // DEST|SRC BYTES [tag T]
  void transfer(Stmt& s, bool receive) {
    if (receive) {
      source(s);
    } else {
      s.args.push_back(expr());
    }
    s.args.push_back(expr());
    tag(s, receive);
  }
  void source(Stmt& s) {
    if (is("any")) {
      s.any_source = true;
      s.args.push_back(placeholder(next().pos));
    } else {
      s.args.push_back(expr());
    }
  }
  void tag(Stmt& s, bool any_allowed) {
    if (!accept("tag")) return;
    s.has_tag = true;
    if (is("any")) {
      if (!any_allowed) throw ProgramError(peek().pos, "a send's tag cannot be 'any'");
      s.any_tag = true;
      s.args.push_back(placeholder(next().pos));
    } else {
      s.args.push_back(expr());
    }
  }
  // The argument slot of an `any` source or tag: it keeps the arguments' positions (and the
  // word's place for errors); the statement's any_source / any_tag flag says it is not read.
  static Expr placeholder(Pos pos) {
    Expr e;
    e.pos = pos;
    return e;
  }
  // [op sum|max|min] [type double|int64], in either order.
  void reduction(Stmt& s) {
    for (;;) {
      if (accept("op")) {
        const Token& v = next();
        try {
          s.reduce_op = fw::mpi::parse_op(v.text);
        } catch (const std::invalid_argument&) {
          throw ProgramError(v.pos,
                             fmt::format("unknown reduction {}: sum, max or min", describe(v)));
        }
      } else if (accept("type")) {
        const Token& v = next();
        try {
          s.type = fw::mpi::parse_datatype(v.text);
        } catch (const std::invalid_argument&) {
          throw ProgramError(v.pos,
                             fmt::format("unknown element type {}: double or int64", describe(v)));
        }
      } else {
        return;
      }
    }
  }

  // ---- Expressions ----
  Expr expr(int depth = 0) {
    if (depth >= kMaxExprDepth) too_deep(peek().pos);
    return binary(0, depth);
  }
  Expr binary(size_t level, int depth) {
    if (level == kLevels.size()) return unary(depth);
    Expr left = binary(level + 1, depth);
    for (;;) {
      const Token& t = peek();
      if (t.kind != Token::Punct) return left;
      const auto& ops = kLevels[level];
      if (std::find(ops.begin(), ops.end(), t.text) == ops.end()) return left;
      next();
      Expr e;
      e.kind = Expr::Binary;
      e.pos = t.pos;
      e.op = t.text;
      e.args.push_back(std::move(left));
      e.args.push_back(binary(level + 1, depth));
      fold(e);
      if (height(e) > kMaxExprDepth) too_deep(e.pos);
      left = std::move(e);
    }
  }
  Expr unary(int depth) {
    if (is("-") || is("!")) {
      const Token& t = next();
      if (depth + 1 >= kMaxExprDepth) too_deep(t.pos);
      Expr e;
      e.kind = Expr::Unary;
      e.pos = t.pos;
      e.op = t.text;
      e.args.push_back(unary(depth + 1));
      fold(e);
      return e;
    }
    return primary(depth);
  }
  Expr primary(int depth) {
    const Token& t = next();
    Expr e;
    e.pos = t.pos;
    if (t.kind == Token::Number) {
      e.value = t.value;
      return e;
    }
    if (t.kind == Token::Punct && t.text == "(") {
      e = expr(depth + 1);
      expect(")", "to close the parenthesis");
      return e;
    }
    if (t.kind != Token::Name) {
      throw ProgramError(
          t.pos, fmt::format("expected a number, a variable or '(', found {}", describe(t)));
    }
    if (auto f = kFuncs.find(t.text); f != kFuncs.end()) {
      e.kind = Expr::Call;
      e.func = f->second.first;
      expect("(", fmt::format("after {}", t.text).c_str());
      if (!is(")")) {
        do {
          e.args.push_back(expr(depth + 1));
        } while (accept(","));
      }
      expect(")", "to close the call");
      const auto [lo, hi] = f->second.second;
      if (e.args.size() < lo || e.args.size() > hi) {
        throw ProgramError(
            t.pos, fmt::format("{} takes {} argument{}, not {}", t.text,
                               lo == hi ? std::to_string(lo) : fmt::format("{} or {}", lo, hi),
                               hi == 1 ? "" : "s", e.args.size()));
      }
      return e;
    }
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      if (auto v = s->find(t.text); v != s->end()) {
        e.kind = Expr::Variable;
        e.slot = v->second;
        return e;
      }
    }
    if (kReserved.count(t.text)) {
      throw ProgramError(t.pos, fmt::format("expected a value, found the word '{}'", t.text));
    }
    throw ProgramError(t.pos, fmt::format("unknown variable '{}' (variables: rank size x y z t X Y "
                                          "Z T, a loop index, or a name given by let)",
                                          t.text));
  }

  [[noreturn]] static void too_deep(Pos pos) {
    throw ProgramError(pos, fmt::format("expression nested more than {} deep (a long chain of "
                                        "operators counts too: split it with let)",
                                        kMaxExprDepth));
  }
  static int height(const Expr& e) {
    int h = 0;
    for (const auto& a : e.args) h = std::max(h, height(a));
    return h + 1;
  }

  // Constants are evaluated now: a mistake among them is the text's, whatever the rank.
  static bool constant(const Expr& e) {
    if (e.kind == Expr::Variable || e.kind == Expr::Call) return false;
    for (const auto& a : e.args) {
      if (!constant(a)) return false;
    }
    return true;
  }
  void fold(Expr& e) {
    if (!constant(e)) return;
    static const fp::Layout one{{1, 1, 1}, 1, {{0, 0, 0, 0}}, {0}};
    static const fp::Program none;
    const int64_t v = fp::Env(none, one, 0).eval(e);
    const Pos pos = e.pos;
    e = Expr{};
    e.pos = pos;
    e.value = v;
  }

  std::vector<Token> t_;
  std::string file_;  // the program's file name, for statements' labels
  size_t i_ = 0;
  fp::Program p_;
  std::vector<std::map<std::string, int>> scopes_;
};

}  // namespace

fp::Program parse_program(const std::string& text, const std::string& file) {
  try {
    return Parser(tokenize(text), file).program();
  } catch (const ProgramError& e) {
    throw InputError(fmt::format("{}:{}:{}: {}", file, e.pos.line, e.pos.col, e.what()));
  }
}

}  // namespace hs::runner::program

// codereward's testlib.h: an independent, header-only implementation of the interface that
// checkers, validators, interactors and generators written for testlib program against
// (registerTestlibCmd, inf/ouf/ans, readInt(min, max, name), quitf(_wa, ...), rnd, opt<T>).
// Written for codereward from the interface as it is documented and used; it shares no
// code with testlib itself. What it keeps of testlib's behaviour, because checkers rely on
// it:
//   - a checker runs as `checker INPUT OUTPUT ANSWER [RESULT]`; its verdict is its exit
//     code: _ok 0, _wa 1, _pe 2, _fail 3, _dirt 4, _points 7, _unexpected_eof 8;
//   - a read that fails on the contestant's output (`ouf`) is the contestant's fault
//     (wrong answer, or presentation for a missing token); on the input or the answer it
//     is the checker's (_fail);
//   - `quit(_ok)` in a checker with unread non-blank output left becomes _dirt;
//   - validators read stdin strictly (every space and newline must be read).
// Limits of this implementation: token patterns support literals, escapes, classes with
// ranges and negation, groups in parentheses with `|`, and the quantifiers ? * + {n} {n,m};
// the generator's random stream is its own (seeded from the arguments, as testlib's is),
// so a generator prints different tests than it would under testlib.
#ifndef CODEREWARD_TESTLIB_H
#define CODEREWARD_TESTLIB_H

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

enum TResult {
  _ok = 0,
  _wa = 1,
  _pe = 2,
  _fail = 3,
  _dirt = 4,
  _points = 5,
  _unexpected_eof = 8,
  _partially = 16
};

enum TMode { _input, _output, _answer };

namespace testlib_impl {

enum Role { role_none, role_checker, role_validator, role_interactor, role_generator };

inline Role& role() {
  static Role r = role_none;
  return r;
}

inline std::string& result_path() {
  static std::string p;
  return p;
}

inline int exit_code(TResult r) {
  switch (r) {
    case _ok: return 0;
    case _wa: return 1;
    case _pe: return 2;
    case _fail: return 3;
    case _dirt: return 4;
    case _points: return 7;
    case _unexpected_eof: return 8;
    default: return r >= _partially ? 50 + (static_cast<int>(r) - _partially) : 3;
  }
}

inline const char* label(TResult r) {
  switch (r) {
    case _ok: return "ok";
    case _wa: return "wrong answer";
    case _pe: return "wrong output format";
    case _fail: return "FAIL";
    case _dirt: return "wrong output format";
    case _points: return "points";
    case _unexpected_eof: return "wrong output format";
    default: return "partially correct";
  }
}

inline std::string vformat(const char* fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  if (n < 0) return std::string(fmt);
  std::string out(static_cast<size_t>(n) + 1, '\0');
  std::vsnprintf(&out[0], out.size(), fmt, ap);
  out.resize(static_cast<size_t>(n));
  return out;
}

// A message longer than this is cut: a checker echoing a huge token must not flood the log.
inline std::string shorten(const std::string& s, size_t limit = 256) {
  if (s.size() <= limit) return s;
  return s.substr(0, limit / 2) + "..." + s.substr(s.size() - limit / 2);
}

void finish(TResult result, const std::string& message);

// ---- token patterns: a small backtracking matcher over a parsed expression ----
struct PatternNode {
  enum Kind { chars, group } kind = chars;
  std::vector<bool> accept = std::vector<bool>(256, false);  // kind == chars
  std::vector<std::vector<PatternNode>> alternatives;        // kind == group
  int min_rep = 1;
  int max_rep = 1;
};

class Pattern {
 public:
  explicit Pattern(const std::string& text) : text_(text), pos_(0) {
    root_ = parse_alternatives();
    if (pos_ != text_.size()) bad("unexpected ')'");
  }
  bool matches(const std::string& s) const {
    std::vector<PatternNode> seq(1, root_);
    return match_seq(seq, 0, s, 0);
  }
  std::string sample(std::mt19937_64* gen) const;  // defined with random_t below
  const PatternNode& root() const { return root_; }

 private:
  std::string text_;
  size_t pos_;
  PatternNode root_;

  [[noreturn]] void bad(const char* why) const {
    finish(_fail, std::string("bad pattern \"") + text_ + "\": " + why);
    std::abort();
  }
  int read_number() {
    if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
      bad("a number expected in {}");
    long v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      v = v * 10 + (text_[pos_++] - '0');
      if (v > 1000000) bad("repetition too large");
    }
    return static_cast<int>(v);
  }
  unsigned char read_literal() {
    if (pos_ >= text_.size()) bad("unexpected end");
    char c = text_[pos_++];
    if (c == '\\') {
      if (pos_ >= text_.size()) bad("dangling backslash");
      c = text_[pos_++];
    }
    return static_cast<unsigned char>(c);
  }
  PatternNode parse_class() {
    PatternNode node;
    bool negate = false;
    if (pos_ < text_.size() && text_[pos_] == '^') {
      negate = true;
      ++pos_;
    }
    bool first = true;
    while (true) {
      if (pos_ >= text_.size()) bad("unclosed '['");
      if (text_[pos_] == ']' && !first) {
        ++pos_;
        break;
      }
      first = false;
      unsigned char lo = read_literal();
      unsigned char hi = lo;
      if (pos_ + 1 < text_.size() && text_[pos_] == '-' && text_[pos_ + 1] != ']') {
        ++pos_;
        hi = read_literal();
        if (hi < lo) bad("reversed range");
      }
      for (int c = lo; c <= hi; ++c) node.accept[static_cast<size_t>(c)] = true;
    }
    if (negate)
      for (size_t c = 0; c < 256; ++c) node.accept[c] = !node.accept[c];
    return node;
  }
  void parse_quantifier(PatternNode* node) {
    if (pos_ >= text_.size()) return;
    char c = text_[pos_];
    if (c == '?') {
      node->min_rep = 0, node->max_rep = 1, ++pos_;
    } else if (c == '*') {
      node->min_rep = 0, node->max_rep = INT_MAX, ++pos_;
    } else if (c == '+') {
      node->min_rep = 1, node->max_rep = INT_MAX, ++pos_;
    } else if (c == '{') {
      ++pos_;
      node->min_rep = read_number();
      node->max_rep = node->min_rep;
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        node->max_rep = read_number();
      }
      if (pos_ >= text_.size() || text_[pos_] != '}') bad("unclosed '{'");
      ++pos_;
      if (node->max_rep < node->min_rep) bad("{n,m} with m < n");
    }
  }
  std::vector<PatternNode> parse_sequence() {
    std::vector<PatternNode> seq;
    while (pos_ < text_.size() && text_[pos_] != '|' && text_[pos_] != ')') {
      PatternNode node;
      char c = text_[pos_];
      if (c == '[') {
        ++pos_;
        node = parse_class();
      } else if (c == '(') {
        ++pos_;
        node = parse_alternatives();
        if (pos_ >= text_.size() || text_[pos_] != ')') bad("unclosed '('");
        ++pos_;
      } else {
        node.accept[read_literal()] = true;
      }
      parse_quantifier(&node);
      seq.push_back(node);
    }
    return seq;
  }
  PatternNode parse_alternatives() {
    PatternNode node;
    node.kind = PatternNode::group;
    node.alternatives.push_back(parse_sequence());
    while (pos_ < text_.size() && text_[pos_] == '|') {
      ++pos_;
      node.alternatives.push_back(parse_sequence());
    }
    return node;
  }
  // does seq[i..] with node seq[i] repeated `count` times so far match s[at..]?
  bool match_seq(const std::vector<PatternNode>& seq, size_t i, const std::string& s,
                 size_t at) const {
    if (i == seq.size()) return at == s.size();
    return match_rep(seq, i, 0, s, at);
  }
  bool match_rep(const std::vector<PatternNode>& seq, size_t i, int count, const std::string& s,
                 size_t at) const {
    const PatternNode& node = seq[i];
    if (node.kind == PatternNode::chars) {
      // the longest run first, then shorter ones: no recursion per character, so a
      // 10^5-character token does not cost 10^5 stack frames
      size_t run = 0;
      size_t room = static_cast<size_t>(node.max_rep - count);
      while (run < room && at + run < s.size() &&
             node.accept[static_cast<unsigned char>(s[at + run])])
        ++run;
      size_t need = node.min_rep > count ? static_cast<size_t>(node.min_rep - count) : 0;
      for (size_t take = run + 1; take-- > need;) {
        if (match_seq(seq, i + 1, s, at + take)) return true;
      }
      return false;
    }
    if (count < node.max_rep) {
      for (const auto& alt : node.alternatives) {
        // alt against s[at, end) for every end, then one more repetition of the group
        for (size_t end = s.size() + 1; end-- > at;) {
          if (end == at && count >= node.min_rep) continue;  // no empty loops
          if (match_seq(alt, 0, s.substr(0, end), at) && match_rep(seq, i, count + 1, s, end))
            return true;
        }
      }
    }
    return count >= node.min_rep && match_seq(seq, i + 1, s, at);
  }
};

}  // namespace testlib_impl

// ---- random numbers for generators ----
class random_t {
 public:
  random_t() : gen_(3905348978240129619ULL) {}
  void setSeed(unsigned long long seed) { gen_.seed(seed); }
  void setSeed(int argc, char* argv[]) {
    unsigned long long h = 14695981039346656037ULL;
    for (int i = 1; i < argc; ++i) {
      for (const char* p = argv[i]; *p; ++p) h = (h ^ static_cast<unsigned char>(*p)) * 1099511628211ULL;
      h = (h ^ 0x20) * 1099511628211ULL;
    }
    gen_.seed(h);
  }
  // [0, n)
  int next(int n) { return static_cast<int>(next(static_cast<long long>(n))); }
  unsigned int next(unsigned int n) { return static_cast<unsigned int>(next(static_cast<long long>(n))); }
  long next(long n) { return static_cast<long>(next(static_cast<long long>(n))); }
  unsigned long next(unsigned long n) {
    return static_cast<unsigned long>(next(static_cast<unsigned long long>(n)));
  }
  long long next(long long n) {
    if (n <= 0) fail("n must be positive");
    return static_cast<long long>(next(static_cast<unsigned long long>(n)));
  }
  unsigned long long next(unsigned long long n) {
    if (n == 0) fail("n must be positive");
    unsigned long long limit = std::numeric_limits<unsigned long long>::max() -
                               std::numeric_limits<unsigned long long>::max() % n;
    unsigned long long v;
    do v = gen_(); while (v >= limit);
    return v % n;
  }
  // [from, to], inclusive
  int next(int from, int to) { return static_cast<int>(next(static_cast<long long>(from), static_cast<long long>(to))); }
  long next(long from, long to) { return static_cast<long>(next(static_cast<long long>(from), static_cast<long long>(to))); }
  long long next(long long from, long long to) {
    if (from > to) fail("from > to");
    unsigned long long span = static_cast<unsigned long long>(to) - static_cast<unsigned long long>(from);
    if (span == std::numeric_limits<unsigned long long>::max()) return static_cast<long long>(gen_());
    return static_cast<long long>(static_cast<unsigned long long>(from) + next(span + 1));
  }
  unsigned long long next(unsigned long long from, unsigned long long to) {
    if (from > to) fail("from > to");
    return from + next(to - from + 1ULL);
  }
  // [0, 1), [0, n), [from, to)
  double next() { return static_cast<double>(gen_() >> 11) * (1.0 / 9007199254740992.0); }
  double next(double n) { return n * next(); }
  double next(double from, double to) { return from + (to - from) * next(); }
  // the max (type > 0) or min (type < 0) of |type|+1 draws: skewed towards n or 0
  int wnext(int n, int type) { return static_cast<int>(wnext(static_cast<long long>(n), type)); }
  long long wnext(long long n, int type) {
    long long best = next(n);
    for (int i = 0; i < std::abs(type); ++i) {
      long long v = next(n);
      best = type > 0 ? std::max(best, v) : std::min(best, v);
    }
    return best;
  }
  int wnext(int from, int to, int type) { return from + wnext(to - from + 1, type); }
  long long wnext(long long from, long long to, int type) { return from + wnext(to - from + 1, type); }
  double wnext(double n, int type) {
    double best = next(n);
    for (int i = 0; i < std::abs(type); ++i) {
      double v = next(n);
      best = type > 0 ? std::max(best, v) : std::min(best, v);
    }
    return best;
  }
  template <typename C>
  typename C::value_type any(const C& c) {
    if (c.empty()) fail("any() of an empty container");
    auto it = c.begin();
    std::advance(it, static_cast<long>(next(static_cast<long long>(c.size()))));
    return *it;
  }
  template <typename It>
  typename std::iterator_traits<It>::value_type any(const It& first, const It& last) {
    long long size = static_cast<long long>(std::distance(first, last));
    if (size <= 0) fail("any() of an empty range");
    It it = first;
    std::advance(it, static_cast<long>(next(size)));
    return *it;
  }
  template <typename It>
  void shuffle(It first, It last) {
    long long size = static_cast<long long>(std::distance(first, last));
    for (long long i = size - 1; i > 0; --i) std::iter_swap(first + i, first + next(i + 1));
  }
  template <typename T = int>
  std::vector<T> perm(T size, T first = 0) {
    std::vector<T> p(static_cast<size_t>(size));
    for (T i = 0; i < size; ++i) p[static_cast<size_t>(i)] = first + i;
    shuffle(p.begin(), p.end());
    return p;
  }
  // `size` distinct values from [from, to]
  template <typename T>
  std::vector<T> distinct(int size, T from, T to) {
    if (size < 0 || static_cast<long long>(to) - static_cast<long long>(from) + 1 < size)
      fail("distinct(): not enough values");
    std::set<T> seen;
    std::vector<T> out;
    while (static_cast<int>(out.size()) < size) {
      T v = static_cast<T>(next(static_cast<long long>(from), static_cast<long long>(to)));
      if (seen.insert(v).second) out.push_back(v);
    }
    return out;
  }
  template <typename T>
  std::vector<T> distinct(int size, T upper) {
    return distinct(size, static_cast<T>(0), static_cast<T>(upper - 1));
  }
  // a random string matching a token pattern
  std::string next(const std::string& pattern);
  std::string next(const char* format, ...);
  std::mt19937_64& engine() { return gen_; }

 private:
  std::mt19937_64 gen_;
  [[noreturn]] void fail(const char* why) {
    testlib_impl::finish(_fail, std::string("rnd: ") + why);
    std::abort();
  }
};

inline random_t rnd;

namespace testlib_impl {

inline void sample_into(const PatternNode& node, std::mt19937_64* gen, std::string* out) {
  int max_rep = node.max_rep == INT_MAX ? node.min_rep + 20 : node.max_rep;
  int reps = node.min_rep + static_cast<int>((*gen)() % static_cast<unsigned long long>(max_rep - node.min_rep + 1));
  for (int r = 0; r < reps; ++r) {
    if (node.kind == PatternNode::chars) {
      std::vector<char> options;
      for (int c = 0; c < 256; ++c)
        if (node.accept[static_cast<size_t>(c)]) options.push_back(static_cast<char>(c));
      if (options.empty()) return;
      out->push_back(options[(*gen)() % options.size()]);
    } else {
      const auto& alt = node.alternatives[(*gen)() % node.alternatives.size()];
      for (const auto& child : alt) sample_into(child, gen, out);
    }
  }
}

inline std::string Pattern::sample(std::mt19937_64* gen) const {
  std::string out;
  sample_into(root_, gen, &out);
  return out;
}

}  // namespace testlib_impl

inline std::string random_t::next(const std::string& pattern) {
  return testlib_impl::Pattern(pattern).sample(&gen_);
}

inline std::string random_t::next(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  std::string pattern = testlib_impl::vformat(format, ap);
  va_end(ap);
  return next(pattern);
}

// ---- input streams ----
class InStream {
 public:
  InStream() = default;
  InStream(const InStream&) = delete;
  InStream& operator=(const InStream&) = delete;
  ~InStream() {
    if (file_ && owned_) std::fclose(file_);
  }

  // open a file (checker, interactor) or take stdin (validator, interactor's ouf)
  void init(const std::string& path, TMode mode, bool strict = false) {
    mode_ = mode;
    strict_ = strict;
    name_ = path;
    file_ = std::fopen(path.c_str(), "rb");
    owned_ = true;
    if (!file_) {
      // a missing output file is the contestant's (no output); anything else is ours
      if (mode == _output) quit(_pe, "output file not found: \"" + path + "\"");
      quit(_fail, "cannot open \"" + path + "\"");
    }
  }
  void init(FILE* f, const std::string& name, TMode mode, bool strict = false) {
    mode_ = mode;
    strict_ = strict;
    name_ = name;
    file_ = f;
    owned_ = false;
  }

  bool strict_mode() const { return strict_; }

  // ---- characters ----
  int peek() { return file_ ? look() : EOF; }
  char curChar() { return static_cast<char>(peek()); }
  char nextChar() { return readChar(); }
  char readChar() {
    int c = get();
    if (c == EOF) eof_error("a character");
    return static_cast<char>(c);
  }
  char readChar(char expected) {
    int c = get();
    if (c != static_cast<unsigned char>(expected))
      error(_pe, "expected '" + printable(expected) + "', found " + found(c));
    return expected;
  }
  char readSpace() { return readChar(' '); }
  void unreadChar(char c) { pushback_.push_back(static_cast<unsigned char>(c)); }
  void skipChar() { get(); }
  void skipBlanks() {
    while (is_blank(look())) get();
  }

  // ---- line and file ends ----
  bool eof() { return look() == EOF; }
  bool seekEof() {
    skipBlanks();
    return eof();
  }
  bool eoln() {
    int c = look();
    return c == '\n' || c == '\r' || c == EOF;
  }
  bool seekEoln() {
    while (look() == ' ' || look() == '\t') get();
    return eoln();
  }
  void nextLine() {
    int c;
    while ((c = get()) != EOF && c != '\n') {
    }
  }
  void readEoln() {
    if (!strict_) {
      while (look() == ' ' || look() == '\t') get();
    }
    int c = get();
    if (c == '\r') c = get();
    if (c != '\n') error(_pe, "expected end of line, found " + found(c));
  }
  void readEof() {
    if (!strict_) skipBlanks();
    int c = look();
    if (c != EOF) error(mode_ == _output ? _dirt : _pe, "expected end of file, found " + found(c));
  }

  // ---- tokens ----
  std::string readWord() { return readToken(); }
  std::string readToken() {
    if (!strict_) skipBlanks();
    std::string s;
    while (!is_blank(look()) && look() != EOF) s.push_back(static_cast<char>(get()));
    if (s.empty()) {
      if (look() == EOF) eof_error("a token");
      error(_pe, "expected a token, found " + found(look()));
    }
    return s;
  }
  std::string readWord(const std::string& pattern, const std::string& name = "") {
    return readToken(pattern, name);
  }
  std::string readToken(const std::string& pattern, const std::string& name = "") {
    std::string s = readToken();
    if (!testlib_impl::Pattern(pattern).matches(s))
      error(_wa, what(name) + " \"" + testlib_impl::shorten(s) + "\" does not match \"" +
                     pattern + "\"");
    return s;
  }
  std::vector<std::string> readTokens(int size, const std::string& pattern = "",
                                      const std::string& name = "", int = 1) {
    std::vector<std::string> out;
    for (int i = 0; i < size; ++i) {
      if (i && strict_) readSpace();
      out.push_back(pattern.empty() ? readToken() : readToken(pattern, name));
    }
    return out;
  }
  std::vector<std::string> readWords(int size, const std::string& pattern = "",
                                     const std::string& name = "", int indexBase = 1) {
    return readTokens(size, pattern, name, indexBase);
  }

  // ---- lines ----
  std::string readLine() {
    std::string s;
    int c = look();
    if (c == EOF) eof_error("a line");
    while ((c = get()) != EOF && c != '\n') s.push_back(static_cast<char>(c));
    if (!s.empty() && s.back() == '\r') s.pop_back();
    return s;
  }
  std::string readString() { return readLine(); }
  std::string readLine(const std::string& pattern, const std::string& name = "") {
    std::string s = readLine();
    if (!testlib_impl::Pattern(pattern).matches(s))
      error(_wa, what(name) + " \"" + testlib_impl::shorten(s) + "\" does not match \"" +
                     pattern + "\"");
    return s;
  }
  std::string readString(const std::string& pattern, const std::string& name = "") {
    return readLine(pattern, name);
  }
  std::vector<std::string> readLines(int size, const std::string& pattern = "",
                                     const std::string& name = "", int = 1) {
    std::vector<std::string> out;
    for (int i = 0; i < size; ++i) out.push_back(pattern.empty() ? readLine() : readLine(pattern, name));
    return out;
  }

  // ---- numbers ----
  long long readLong() { return parse_integer(readToken(), "an integer"); }
  long long readLong(long long lo, long long hi, const std::string& name = "") {
    long long v = readLong();
    if (v < lo || v > hi) range_error(name, std::to_string(v), std::to_string(lo), std::to_string(hi));
    return v;
  }
  unsigned long long readUnsignedLong() {
    std::string t = readToken();
    if (t.empty() || t[0] == '-') error(_pe, "expected an unsigned integer, found \"" + testlib_impl::shorten(t) + "\"");
    return parse_unsigned(t);
  }
  unsigned long long readUnsignedLong(unsigned long long lo, unsigned long long hi,
                                      const std::string& name = "") {
    unsigned long long v = readUnsignedLong();
    if (v < lo || v > hi) range_error(name, std::to_string(v), std::to_string(lo), std::to_string(hi));
    return v;
  }
  int readInt() {
    std::string t = readToken();
    long long v = parse_integer(t, "an int");
    if (v < INT_MIN || v > INT_MAX) error(_pe, "expected an int, found \"" + testlib_impl::shorten(t) + "\"");
    return static_cast<int>(v);
  }
  int readInt(int lo, int hi, const std::string& name = "") {
    int v = readInt();
    if (v < lo || v > hi) range_error(name, std::to_string(v), std::to_string(lo), std::to_string(hi));
    return v;
  }
  int readInteger() { return readInt(); }
  int readInteger(int lo, int hi, const std::string& name = "") { return readInt(lo, hi, name); }
  std::vector<int> readInts(int size, int lo = INT_MIN, int hi = INT_MAX, const std::string& name = "",
                            int = 1) {
    std::vector<int> out;
    for (int i = 0; i < size; ++i) {
      if (i && strict_) readSpace();
      out.push_back(readInt(lo, hi, name));
    }
    return out;
  }
  std::vector<int> readIntegers(int size, int lo = INT_MIN, int hi = INT_MAX,
                                const std::string& name = "", int indexBase = 1) {
    return readInts(size, lo, hi, name, indexBase);
  }
  std::vector<long long> readLongs(int size, long long lo = LLONG_MIN, long long hi = LLONG_MAX,
                                   const std::string& name = "", int = 1) {
    std::vector<long long> out;
    for (int i = 0; i < size; ++i) {
      if (i && strict_) readSpace();
      out.push_back(readLong(lo, hi, name));
    }
    return out;
  }
  double readDouble() { return parse_real(readToken()); }
  double readReal() { return readDouble(); }
  double readDouble(double lo, double hi, const std::string& name = "") {
    double v = readDouble();
    if (v < lo || v > hi) range_error(name, num(v), num(lo), num(hi));
    return v;
  }
  double readReal(double lo, double hi, const std::string& name = "") { return readDouble(lo, hi, name); }
  std::vector<double> readDoubles(int size, double lo, double hi, const std::string& name = "", int = 1) {
    std::vector<double> out;
    for (int i = 0; i < size; ++i) {
      if (i && strict_) readSpace();
      out.push_back(readDouble(lo, hi, name));
    }
    return out;
  }
  std::vector<double> readReals(int size, double lo, double hi, const std::string& name = "",
                                int indexBase = 1) {
    return readDoubles(size, lo, hi, name, indexBase);
  }
  // a fixed-point number with between minDigits and maxDigits digits after the point
  double readStrictDouble(double lo, double hi, int minDigits, int maxDigits,
                          const std::string& name = "") {
    std::string t = readToken();
    size_t i = (t[0] == '-') ? 1 : 0;
    size_t int_digits = 0;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i, ++int_digits;
    int frac = 0;
    bool point = i < t.size() && t[i] == '.';
    if (point) {
      ++i;
      while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i, ++frac;
    }
    bool leading_zero = int_digits > 1 && t[t[0] == '-' ? 1 : 0] == '0';
    if (i != t.size() || int_digits == 0 || (point && frac == 0) || frac < minDigits ||
        frac > maxDigits || leading_zero || t == "-0" || (t[0] == '-' && parse_real(t) == 0.0))
      error(_pe, "expected a fixed-point number with " + std::to_string(minDigits) + ".." +
                     std::to_string(maxDigits) + " digits, found \"" + testlib_impl::shorten(t) + "\"");
    double v = parse_real(t);
    if (v < lo || v > hi) range_error(name, t, num(lo), num(hi));
    return v;
  }
  double readStrictReal(double lo, double hi, int minDigits, int maxDigits, const std::string& name = "") {
    return readStrictDouble(lo, hi, minDigits, maxDigits, name);
  }

  // ---- verdicts tied to this stream ----
  [[noreturn]] void quit(TResult result, const std::string& message) {
    // a checker's "wrong answer" about the jury's own files is the jury's failure
    if (mode_ != _output && result != _ok && testlib_impl::role() == testlib_impl::role_checker)
      result = _fail;
    testlib_impl::finish(result, message);
    std::abort();
  }
  [[noreturn]] void quitf(TResult result, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::string m = testlib_impl::vformat(fmt, ap);
    va_end(ap);
    quit(result, m);
  }
  void ensuref(bool cond, const char* fmt, ...) {
    if (cond) return;
    va_list ap;
    va_start(ap, fmt);
    std::string m = testlib_impl::vformat(fmt, ap);
    va_end(ap);
    quit(_wa, m);
  }
  const std::string& name() const { return name_; }
  TMode mode() const { return mode_; }

  bool strict = false;  // testlib exposes this member; the reader follows strict_

 private:
  FILE* file_ = nullptr;
  bool owned_ = false;
  bool strict_ = false;
  TMode mode_ = _input;
  std::string name_;
  std::vector<int> pushback_;

  static bool is_blank(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
  int look() {
    if (!pushback_.empty()) return pushback_.back();
    if (!file_) return EOF;
    int c = std::getc(file_);
    if (c != EOF) std::ungetc(c, file_);
    return c;
  }
  int get() {
    if (!pushback_.empty()) {
      int c = pushback_.back();
      pushback_.pop_back();
      return c;
    }
    return file_ ? std::getc(file_) : EOF;
  }
  static std::string printable(char c) {
    if (c == '\n') return "\\n";
    if (c == '\r') return "\\r";
    if (c == '\t') return "\\t";
    if (static_cast<unsigned char>(c) < 32) return "\\x" + std::to_string(static_cast<unsigned char>(c));
    return std::string(1, c);
  }
  static std::string found(int c) { return c == EOF ? "end of file" : "'" + printable(static_cast<char>(c)) + "'"; }
  static std::string num(double v) {
    std::ostringstream o;
    o.precision(10);
    o << v;
    return o.str();
  }
  std::string what(const std::string& name) const { return name.empty() ? std::string("token") : name; }
  [[noreturn]] void error(TResult result, const std::string& message) {
    // the contestant's output breaking the format is a presentation error; ranges are
    // wrong answers; the jury's files breaking either is our failure (quit maps it)
    quit(result, message + " (" + stream_name() + ")");
  }
  [[noreturn]] void eof_error(const std::string& expected) {
    quit(mode_ == _output ? _unexpected_eof : _fail,
         "unexpected end of file: " + expected + " expected (" + stream_name() + ")");
  }
  [[noreturn]] void range_error(const std::string& name, const std::string& v, const std::string& lo,
                                const std::string& hi) {
    error(_wa, what(name) + "=" + testlib_impl::shorten(v) + " violates the range [" + lo + ", " + hi + "]");
  }
  std::string stream_name() const {
    switch (mode_) {
      case _output: return "output";
      case _answer: return "answer";
      default: return "input";
    }
  }
  long long parse_integer(const std::string& t, const char* expected) {
    bool neg = !t.empty() && t[0] == '-';
    if (neg && t.size() == 1) error(_pe, std::string("expected ") + expected + ", found \"-\"");
    unsigned long long mag = parse_unsigned(neg ? t.substr(1) : t);
    // strict readers (validators) refuse "-0" and leading zeros, as test data must be canonical
    if (strict_ && ((neg && mag == 0) || (t.size() > static_cast<size_t>(1 + neg) && t[neg ? 1 : 0] == '0')))
      error(_pe, std::string("expected ") + expected + " in canonical form, found \"" + testlib_impl::shorten(t) + "\"");
    if (neg) {
      if (mag > static_cast<unsigned long long>(LLONG_MAX) + 1ULL)
        error(_pe, std::string("expected ") + expected + ", found \"" + testlib_impl::shorten(t) + "\"");
      return mag == static_cast<unsigned long long>(LLONG_MAX) + 1ULL ? LLONG_MIN : -static_cast<long long>(mag);
    }
    if (mag > static_cast<unsigned long long>(LLONG_MAX))
      error(_pe, std::string("expected ") + expected + ", found \"" + testlib_impl::shorten(t) + "\"");
    return static_cast<long long>(mag);
  }
  unsigned long long parse_unsigned(const std::string& t) {
    if (t.empty()) error(_pe, "expected an integer, found an empty token");
    unsigned long long v = 0;
    for (char ch : t) {
      if (!std::isdigit(static_cast<unsigned char>(ch)))
        error(_pe, "expected an integer, found \"" + testlib_impl::shorten(t) + "\"");
      unsigned d = static_cast<unsigned>(ch - '0');
      if (v > (std::numeric_limits<unsigned long long>::max() - d) / 10)
        error(_pe, "integer out of range: \"" + testlib_impl::shorten(t) + "\"");
      v = v * 10 + d;
    }
    return v;
  }
  double parse_real(const std::string& t) {
    // digits with an optional sign, point and exponent; no hex, inf or nan
    size_t i = 0;
    if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
    size_t digits = 0;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i, ++digits;
    if (i < t.size() && t[i] == '.') {
      ++i;
      while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i, ++digits;
    }
    if (digits && i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
      size_t j = i + 1;
      if (j < t.size() && (t[j] == '-' || t[j] == '+')) ++j;
      size_t exp_digits = 0;
      while (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j]))) ++j, ++exp_digits;
      if (exp_digits) i = j;
    }
    if (!digits || i != t.size()) error(_pe, "expected a real number, found \"" + testlib_impl::shorten(t) + "\"");
    errno = 0;
    double v = std::strtod(t.c_str(), nullptr);
    if (!std::isfinite(v)) error(_pe, "real number out of range: \"" + testlib_impl::shorten(t) + "\"");
    return v;
  }
};

inline InStream inf;
inline InStream ouf;
inline InStream ans;
inline std::ofstream tout;  // an interactor's log of the dialogue, read by its checker

namespace testlib_impl {

inline void finish(TResult result, const std::string& message_in) {
  std::string message = message_in;
  if (role() == role_checker && result == _ok && !ouf.seekEof()) {
    result = _dirt;
    message = "extra information in the output file";
  }
  std::string text = std::string(label(result)) + (message.empty() ? "" : " " + message);
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", text.c_str());
  std::fflush(stderr);
  if (!result_path().empty()) {
    if (FILE* f = std::fopen(result_path().c_str(), "w")) {
      std::fprintf(f, "%s\n", text.c_str());
      std::fclose(f);
    }
  }
  std::exit(exit_code(result));
}

inline std::map<std::string, std::string>& options() {
  static std::map<std::string, std::string> o;
  return o;
}

inline std::vector<std::string>& positional() {
  static std::vector<std::string> p;
  return p;
}

template <typename T>
T convert(const std::string& name, const std::string& value) {
  std::istringstream in(value);
  T out{};
  in >> out;
  if (in.fail() || !in.eof()) {
    finish(_fail, "option " + name + " = \"" + value + "\" is not a valid value");
  }
  return out;
}

template <>
inline std::string convert<std::string>(const std::string&, const std::string& value) {
  return value;
}

template <>
inline bool convert<bool>(const std::string& name, const std::string& value) {
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  finish(_fail, "option " + name + " = \"" + value + "\" is not a boolean");
  return false;
}

}  // namespace testlib_impl

// ---- verdicts ----
[[noreturn]] inline void quit(TResult result, const std::string& message) {
  testlib_impl::finish(result, message);
  std::abort();
}
[[noreturn]] inline void quit(TResult result, const char* message) { quit(result, std::string(message)); }

[[noreturn]] inline void quitf(TResult result, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string m = testlib_impl::vformat(fmt, ap);
  va_end(ap);
  quit(result, m);
}

inline void quitif(bool cond, TResult result, const char* fmt, ...) {
  if (!cond) return;
  va_list ap;
  va_start(ap, fmt);
  std::string m = testlib_impl::vformat(fmt, ap);
  va_end(ap);
  quit(result, m);
}

[[noreturn]] inline void quitp(double points, const char* fmt = "", ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string m = testlib_impl::vformat(fmt, ap);
  va_end(ap);
  std::ostringstream o;
  o << points;
  quit(_points, o.str() + (m.empty() ? "" : " " + m));
}

inline void ensuref(bool cond, const char* fmt, ...) {
  if (cond) return;
  va_list ap;
  va_start(ap, fmt);
  std::string m = testlib_impl::vformat(fmt, ap);
  va_end(ap);
  quit(_fail, m);
}

#define ensure(cond) ::ensuref(static_cast<bool>(cond), "condition failed: %s", #cond)

// ---- registration: which program this is, and where its streams come from ----
inline void registerTestlibCmd(int argc, char* argv[]) {
  testlib_impl::role() = testlib_impl::role_checker;
  if (argc < 4) quit(_fail, "usage: checker <input-file> <output-file> <answer-file> [<result-file>]");
  if (argc > 4) testlib_impl::result_path() = argv[4];
  inf.init(argv[1], _input);
  ans.init(argv[3], _answer);
  ouf.init(argv[2], _output);
}

inline void registerTestlib(int argc, ...) {
  // the older form: registerTestlib(3, input, output, answer)
  va_list ap;
  va_start(ap, argc);
  std::vector<char*> args(1, const_cast<char*>("checker"));
  for (int i = 0; i < argc; ++i) args.push_back(va_arg(ap, char*));
  va_end(ap);
  registerTestlibCmd(static_cast<int>(args.size()), args.data());
}

inline void registerValidation() {
  testlib_impl::role() = testlib_impl::role_validator;
  inf.init(stdin, "stdin", _input, true);
}

inline void registerValidation(int, char*[]) { registerValidation(); }

inline void registerInteraction(int argc, char* argv[]) {
  testlib_impl::role() = testlib_impl::role_interactor;
  if (argc < 3) quit(_fail, "usage: interactor <input-file> <output-file> [<answer-file> [<result-file>]]");
  inf.init(argv[1], _input);
  tout.open(argv[2], std::ios_base::out);
  if (!tout) quit(_fail, std::string("cannot write \"") + argv[2] + "\"");
  if (argc > 3) ans.init(argv[3], _answer);
  if (argc > 4) testlib_impl::result_path() = argv[4];
  ouf.init(stdin, "stdin", _output);
}

inline void registerGen(int argc, char* argv[], int = 1) {
  testlib_impl::role() = testlib_impl::role_generator;
  rnd.setSeed(argc, argv);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.size() > 1 && a[0] == '-' && !std::isdigit(static_cast<unsigned char>(a[1]))) {
      size_t start = a.find_first_not_of('-');
      size_t eq = a.find('=');
      if (eq != std::string::npos) {
        testlib_impl::options()[a.substr(start, eq - start)] = a.substr(eq + 1);
      } else if (i + 1 < argc) {
        testlib_impl::options()[a.substr(start)] = argv[++i];
      } else {
        testlib_impl::options()[a.substr(start)] = "true";
      }
    } else {
      testlib_impl::positional().push_back(a);
    }
  }
}

inline bool has_opt(const std::string& name) { return testlib_impl::options().count(name) > 0; }

template <typename T = std::string>
T opt(const std::string& name) {
  auto it = testlib_impl::options().find(name);
  if (it == testlib_impl::options().end()) quit(_fail, "option \"" + name + "\" is not given");
  return testlib_impl::convert<T>(name, it->second);
}

template <typename T = std::string>
T opt(const std::string& name, const T& default_value) {
  return has_opt(name) ? opt<T>(name) : default_value;
}

template <typename T = std::string>
T opt(int index) {
  auto& p = testlib_impl::positional();
  if (index < 1 || static_cast<size_t>(index) > p.size())
    quit(_fail, "positional argument " + std::to_string(index) + " is not given");
  return testlib_impl::convert<T>(std::to_string(index), p[static_cast<size_t>(index) - 1]);
}

// ---- helpers checkers use ----
inline std::string format(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string m = testlib_impl::vformat(fmt, ap);
  va_end(ap);
  return m;
}

template <typename T>
std::string vtos(const T& v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

template <typename T>
std::string toString(const T& v) {
  return vtos(v);
}

inline std::string englishEnding(int x) {
  int last2 = std::abs(x) % 100;
  if (last2 >= 11 && last2 <= 13) return "th";
  switch (std::abs(x) % 10) {
    case 1: return "st";
    case 2: return "nd";
    case 3: return "rd";
    default: return "th";
  }
}

inline std::string upperCase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

inline std::string lowerCase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

inline std::string compress(const std::string& s) { return testlib_impl::shorten(s, 64); }

inline std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

// expected and result agree within an absolute or relative error of maxError
inline bool doubleCompare(double expected, double result, double maxError) {
  if (std::isnan(expected) || std::isnan(result)) return std::isnan(expected) && std::isnan(result);
  if (std::isinf(expected) || std::isinf(result)) return expected == result;
  double tolerance = maxError * std::max(1.0, std::fabs(expected)) + 1e-15;
  return std::fabs(result - expected) <= tolerance;
}

inline double doubleDelta(double expected, double result) {
  double absolute = std::fabs(result - expected);
  if (std::fabs(expected) > 1e-9) return std::min(absolute, absolute / std::fabs(expected));
  return absolute;
}

template <typename It>
void shuffle(It first, It last) {
  rnd.shuffle(first, last);
}

inline void setName(const char*, ...) {}  // a checker's description: unused here
inline void startTest(int) {}

template <typename... Ts>
void println(const Ts&... values) {
  bool first = true;
  ((std::cout << (first ? "" : " ") << values, first = false), ...);
  std::cout << '\n';
}

#endif  // CODEREWARD_TESTLIB_H

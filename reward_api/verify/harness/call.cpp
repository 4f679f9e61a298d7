// codereward: the trusted harness of a C++ call test (reward_api/verify/calls.py).
// It follows the program in one translation unit, after the program's macros are
// undefined. The argument types are deduced from the entry point's own signature (a
// pointer to it), the JSON-like argument stream on stdin is decoded into them, and the
// returned value is encoded as JSON by the functions below (never by the program's
// operators), then reported on fd 3 as NONCE LENGTH '\n' JSON, and the process ends.
#include <charconv>
#include <cmath>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>
#include <unistd.h>

namespace __cr_call {
struct Bad { std::string why; };
struct In { std::string s; size_t p = 0; };

template <class T> struct is_vec : std::false_type {};
template <class T, class A> struct is_vec<std::vector<T, A>> : std::true_type {};
template <class T> struct is_map : std::false_type {};
template <class K, class V, class C, class A> struct is_map<std::map<K, V, C, A>> : std::true_type {};
template <class K, class V, class H, class E, class A>
struct is_map<std::unordered_map<K, V, H, E, A>> : std::true_type {};
template <class T> struct is_set : std::false_type {};
template <class K, class C, class A> struct is_set<std::set<K, C, A>> : std::true_type {};
template <class K, class H, class E, class A>
struct is_set<std::unordered_set<K, H, E, A>> : std::true_type {};
template <class T> struct is_pair : std::false_type {};
template <class A, class B> struct is_pair<std::pair<A, B>> : std::true_type {};
template <class T> struct is_opt : std::false_type {};
template <class T> struct is_opt<std::optional<T>> : std::true_type {};
template <class T> struct dependent_false : std::false_type {};
template <class T> struct is_list_node : std::false_type {};
template <class T> struct is_tree_node : std::false_type {};
#ifdef __CR_LIST_NODE
template <> struct is_list_node<::ListNode*> : std::true_type {};
#endif
#ifdef __CR_TREE_NODE
template <> struct is_tree_node<::TreeNode*> : std::true_type {};
#endif
constexpr size_t kMaxNodes = 1u << 22;  // a returned list or tree past this is a cycle or a bomb

inline char tag(In& in) {
  if (in.p >= in.s.size()) throw Bad{"the argument stream ended early"};
  return in.s[in.p++];
}
inline std::string until(In& in, char end) {
  size_t e = in.s.find(end, in.p);
  if (e == std::string::npos) throw Bad{"the argument stream is malformed"};
  std::string t = in.s.substr(in.p, e - in.p);
  in.p = e + 1;
  return t;
}
inline size_t count(In& in) {
  std::string t = until(in, ':');
  return static_cast<size_t>(std::strtoull(t.c_str(), nullptr, 10));
}
inline char kind(In& in) {
  if (in.p >= in.s.size()) throw Bad{"the argument stream ended early"};
  return in.s[in.p];
}
inline const char* kind_name(char k) {
  switch (k) {
    case 'n': return "null";
    case 't': case 'f': return "a boolean";
    case 'i': return "an integer";
    case 'd': return "a float";
    case 's': return "a string";
    case 'l': return "a list";
    case 'm': return "an object";
  }
  return "a value";
}
[[noreturn]] inline void mismatch(In& in, const char* want) {
  throw Bad{std::string("expected ") + want + ", got " + kind_name(kind(in))};
}
inline std::string str(In& in) {
  if (kind(in) != 's') mismatch(in, "a string");
  in.p++;
  size_t n = count(in);
  if (n > in.s.size() - in.p) throw Bad{"the argument stream is malformed"};
  std::string t = in.s.substr(in.p, n);
  in.p += n;
  return t;
}

template <class T> void dec(In& in, T& out);

template <class N> N* node(In& in) {  // by the program's constructor from a value, if it has one
  std::decay_t<decltype(std::declval<N&>().val)> v{};
  dec(in, v);
  if constexpr (std::is_constructible<N, decltype(v)>::value) {
    return new N(v);
  } else {
    N* n = new N();
    n->val = v;
    return n;
  }
}

template <class T> void dec_int(In& in, T& out) {
  if (kind(in) != 'i') mismatch(in, "an integer");
  in.p++;
  std::string t = until(in, ';');
  errno = 0;
  if (t.size() && t[0] == '-') {
    long long v = std::strtoll(t.c_str(), nullptr, 10);
    if (errno || (std::is_unsigned<T>::value) || v < static_cast<long long>(std::numeric_limits<T>::min()))
      throw Bad{"the integer " + t + " does not fit the parameter type"};
    out = static_cast<T>(v);
  } else {
    unsigned long long v = std::strtoull(t.c_str(), nullptr, 10);
    if (errno || v > static_cast<unsigned long long>(std::numeric_limits<T>::max()))
      throw Bad{"the integer " + t + " does not fit the parameter type"};
    out = static_cast<T>(v);
  }
}

template <class T> void dec(In& in, T& out) {
  if constexpr (std::is_same<T, bool>::value) {
    char k = kind(in);
    if (k != 't' && k != 'f') mismatch(in, "a boolean");
    in.p++;
    out = k == 't';
  } else if constexpr (std::is_same<T, char>::value) {
    std::string t = str(in);
    if (t.size() != 1) throw Bad{"expected a one-character string for a char"};
    out = t[0];
  } else if constexpr (std::is_integral<T>::value) {
    dec_int(in, out);
  } else if constexpr (std::is_floating_point<T>::value) {
    char k = kind(in);
    if (k != 'i' && k != 'd') mismatch(in, "a number");
    in.p++;
    std::string t = until(in, ';');
    out = static_cast<T>(std::strtod(t.c_str(), nullptr));
  } else if constexpr (std::is_same<T, std::string>::value) {
    out = str(in);
  } else if constexpr (is_vec<T>::value || is_set<T>::value) {
    if (kind(in) != 'l') mismatch(in, "a list");
    in.p++;
    size_t n = count(in);
    out.clear();
    for (size_t i = 0; i < n; i++) {
      typename T::value_type x{};
      dec(in, x);
      if constexpr (is_vec<T>::value) out.push_back(std::move(x));
      else out.insert(std::move(x));
    }
  } else if constexpr (is_map<T>::value) {
    if (kind(in) != 'm') mismatch(in, "an object");
    in.p++;
    size_t n = count(in);
    out.clear();
    for (size_t i = 0; i < n; i++) {
      typename T::key_type k{};
      if constexpr (std::is_same<typename T::key_type, std::string>::value) {
        k = str(in);
      } else {  // a JSON key is a string: "3" for an integer key
        std::string t = str(in);
        In sub{"i" + t + ";"};
        dec(sub, k);
      }
      typename T::mapped_type v{};
      dec(in, v);
      out.emplace(std::move(k), std::move(v));
    }
  } else if constexpr (is_pair<T>::value) {
    if (kind(in) != 'l') mismatch(in, "a list of two");
    in.p++;
    if (count(in) != 2) throw Bad{"expected a list of two"};
    dec(in, out.first);
    dec(in, out.second);
  } else if constexpr (is_opt<T>::value) {
    if (kind(in) == 'n') {
      in.p++;
      out.reset();
    } else {
      typename T::value_type x{};
      dec(in, x);
      out = std::move(x);
    }
  } else if constexpr (is_list_node<T>::value) {  // LeetCode's [1,2,3]
    out = nullptr;
    if (kind(in) == 'n') { in.p++; return; }
    if (kind(in) != 'l') mismatch(in, "a list for a ListNode");
    in.p++;
    size_t n = count(in);
    T* tail = &out;
    for (size_t i = 0; i < n; i++) {
      T n = node<std::remove_pointer_t<T>>(in);
      n->next = nullptr;
      *tail = n;
      tail = &n->next;
    }
  } else if constexpr (is_tree_node<T>::value) {  // LeetCode's level order, null for no child
    out = nullptr;
    if (kind(in) == 'n') { in.p++; return; }
    if (kind(in) != 'l') mismatch(in, "a list for a TreeNode");
    in.p++;
    size_t n = count(in);
    std::vector<T*> slots{&out};
    size_t next = 0;
    for (size_t i = 0; i < n; i++) {
      if (kind(in) == 'n') {
        in.p++;
      } else {
        if (next >= slots.size()) throw Bad{"the level order places a node under no parent"};
        T n = node<std::remove_pointer_t<T>>(in);
        n->left = n->right = nullptr;
        *slots[next] = n;
        slots.push_back(&n->left);
        slots.push_back(&n->right);
      }
      next++;
    }
  } else {
    static_assert(dependent_false<T>::value, "codereward: this parameter type is not supported by call tests");
  }
}

inline void enc_str(std::string& o, const std::string& s) {
  static const char hex[] = "0123456789abcdef";
  o += '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') { o += '\\'; o += static_cast<char>(c); }
    else if (c < 0x20) { o += "\\u00"; o += hex[c >> 4]; o += hex[c & 15]; }
    else o += static_cast<char>(c);
  }
  o += '"';
}

template <class F> void enc_float(std::string& o, F v) {
  if (std::isnan(v)) { o += "NaN"; return; }
  if (std::isinf(v)) { o += v > 0 ? "Infinity" : "-Infinity"; return; }
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  o.append(buf, r.ptr);
}

template <class T> void enc(std::string& o, const T& v) {
  if constexpr (std::is_same<T, bool>::value) {
    o += v ? "true" : "false";
  } else if constexpr (std::is_same<T, char>::value) {
    enc_str(o, std::string(1, v));
  } else if constexpr (std::is_integral<T>::value && std::is_signed<T>::value) {
    o += std::to_string(static_cast<long long>(v));
  } else if constexpr (std::is_integral<T>::value) {
    o += std::to_string(static_cast<unsigned long long>(v));
  } else if constexpr (std::is_same<T, float>::value) {
    enc_float(o, v);
  } else if constexpr (std::is_floating_point<T>::value) {
    enc_float(o, static_cast<double>(v));
  } else if constexpr (std::is_same<T, std::string>::value) {
    enc_str(o, v);
  } else if constexpr (std::is_same<T, const char*>::value || std::is_same<T, char*>::value) {
    if (v == nullptr) o += "null";
    else enc_str(o, std::string(v));
  } else if constexpr (is_vec<T>::value || is_set<T>::value) {
    o += '[';
    bool first = true;
    for (const auto& x : v) {
      if (!first) o += ',';
      first = false;
      enc<typename T::value_type>(o, x);
    }
    o += ']';
  } else if constexpr (is_map<T>::value) {
    o += '{';
    bool first = true;
    for (const auto& kv : v) {
      if (!first) o += ',';
      first = false;
      if constexpr (std::is_same<typename T::key_type, std::string>::value) {
        enc_str(o, kv.first);
      } else {
        std::string k;
        enc<typename T::key_type>(k, kv.first);
        if (k.size() && k[0] == '"') o += k;
        else enc_str(o, k);
      }
      o += ':';
      enc<typename T::mapped_type>(o, kv.second);
    }
    o += '}';
  } else if constexpr (is_pair<T>::value) {
    o += '[';
    enc<typename T::first_type>(o, v.first);
    o += ',';
    enc<typename T::second_type>(o, v.second);
    o += ']';
  } else if constexpr (is_opt<T>::value) {
    if (!v) o += "null";
    else enc<typename T::value_type>(o, *v);
  } else if constexpr (is_list_node<T>::value) {
    std::unordered_set<const void*> seen;
    o += '[';
    for (T n = v; n != nullptr; n = n->next) {
      if (!seen.insert(n).second || seen.size() > kMaxNodes) throw Bad{"the returned list has a cycle"};
      if (n != v) o += ',';
      enc<std::decay_t<decltype(n->val)>>(o, n->val);
    }
    o += ']';
  } else if constexpr (is_tree_node<T>::value) {  // level order, trailing nulls cut
    std::unordered_set<const void*> seen;
    std::vector<T> level{v};
    std::string items;
    size_t keep = 0;
    for (size_t i = 0; i < level.size(); i++) {
      if (i) items += ',';
      T n = level[i];
      if (n == nullptr) { items += "null"; continue; }
      if (!seen.insert(n).second || seen.size() > kMaxNodes) throw Bad{"the returned tree has a cycle or a shared node"};
      enc<std::decay_t<decltype(n->val)>>(items, n->val);
      keep = items.size();
      level.push_back(n->left);
      level.push_back(n->right);
    }
    o += '[';
    o.append(items, 0, keep);
    o += ']';
  } else {
    static_assert(dependent_false<T>::value, "codereward: this return type is not supported by call tests");
  }
}

inline void report(const std::string& nonce, const std::string& json) {
  std::string msg = nonce + std::to_string(json.size()) + "\n" + json;
  const char* p = msg.data();
  size_t left = msg.size();
  while (left) {
    ssize_t w = ::write(3, p, left);
    if (w <= 0) ::_exit(1);
    p += w;
    left -= static_cast<size_t>(w);
  }
  ::_exit(0);
}

inline void fail(const std::string& nonce, const char* kind, const std::string& why) {
  std::string o = "{\"error\":";
  enc_str(o, why);
  o += ",\"kind\":\"";
  o += kind;
  o += "\"}";
  report(nonce, o);
}

inline In read_all() {
  In in;
  char buf[65536];
  for (;;) {
    ssize_t r = ::read(0, buf, sizeof buf);
    if (r <= 0) break;
    in.s.append(buf, static_cast<size_t>(r));
  }
  return in;
}

// what an argument is decoded into: its own type, or for a std::string_view parameter the
// std::string it views (LeetCode's driver passes a std::string, which converts)
template <class T> struct stored { using type = std::decay_t<T>; };
template <> struct stored<std::string_view> { using type = std::string; };
template <class T> using stored_t = typename stored<std::decay_t<T>>::type;

template <class Ret, class... A, class F> void call(const std::string& nonce, F&& f) {
  In in = read_all();
  std::tuple<stored_t<A>...> args{};
  try {
    if (tag(in) != 'l') throw Bad{"the arguments are not a list"};
    size_t n = count(in);
    if (n != sizeof...(A))
      throw Bad{"the entry point takes " + std::to_string(sizeof...(A)) + " arguments, the test gives " +
                std::to_string(n)};
    size_t i = 0;
    std::apply([&](auto&... a) {
      auto one = [&](auto& x) {
        try { dec(in, x); } catch (Bad& b) { throw Bad{"argument " + std::to_string(i + 1) + ": " + b.why}; }
        i++;
      };
      (one(a), ...);
    }, args);
  } catch (Bad& b) {
    fail(nonce, "args", b.why);
  }
  std::string o = "{\"ok\":";
  if constexpr (std::is_void<Ret>::value) {
    std::apply(f, args);
    o += "null";
  } else {
    const std::decay_t<Ret>& v = std::apply(f, args);
    try { enc<std::decay_t<Ret>>(o, v); } catch (Bad& b) { fail(nonce, "value", b.why); }
  }
  o += '}';
  report(nonce, o);
}

template <class Ret, class... A> void entry(const std::string& nonce, Ret (*f)(A...)) {
  call<Ret, A...>(nonce, [f](auto&... a) -> decltype(auto) { return f(a...); });
}
// a method, called on a fresh T (the named class: the pointer's class C may be a base it
// inherits the method from), or a static one; one overload per cv- and ref-qualifier (each
// part of the pointer's type; noexcept is deduced away): the fresh object is an lvalue, as
// LeetCode's driver calls it
#define __CR_CALL_METHOD(QUALIFIERS)                                                        \
  template <class T, class C, class Ret, class... A>                                         \
  void method(const std::string& nonce, Ret (C::*f)(A...) QUALIFIERS) {                      \
    call<Ret, A...>(nonce, [f](auto&... a) -> decltype(auto) { return ((new T())->*f)(a...); }); \
  }
__CR_CALL_METHOD()
__CR_CALL_METHOD(const)
__CR_CALL_METHOD(&)
__CR_CALL_METHOD(const&)
#undef __CR_CALL_METHOD
template <class T, class Ret, class... A> void method(const std::string& nonce, Ret (*f)(A...)) {
  entry(nonce, f);
}
}  // namespace __cr_call

__CR_MAIN__

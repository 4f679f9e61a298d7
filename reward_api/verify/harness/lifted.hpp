// codereward: the two halves of a lifted C++ assert test (reward_api/verify/lifted.py).
//
// The recorder (in the candidate's build, after the program): writes on fd 3 one line of
// the call sites' types, then, as each call of the program returns, one line of its value.
// The judge (the test's own code with each call replaced by __cr_take, built and run apart
// from every program): reads those lines on stdin and hands each value back, typed.
//
// Types are written in a small alphabet (one letter a fundamental type, a letter and <..>
// a standard container), which the host re-spells as C++ for the judge; values in a prefix
// code of ASCII only: t/f a bool, i<decimal>; an integer or a char, d<%.17g>; a float
// (nan, inf, -inf), x<n>:<2n hex digits> a string's bytes, l<n>: then n items a sequence or
// set, m<n>: then n keys and values a map, n / o<value> an optional; a pair is its two
// values. A type the recorder does not know is '?': the test is then run the old way.
//
// The recorder knows a standard container only where the program's own includes declared
// it (the guard its libstdc++ header defines): a call can return no other, and a program
// that includes none of them compiles none of them again (their parsing was most of the
// recorder's build). The judge includes <bits/stdc++.h> first, so it knows them all.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <utility>
#if defined(_BASIC_STRING_H)
#include <string>
#define __CR_LIFT_STRING 1
#endif
#if defined(_STL_VECTOR_H)
#include <vector>
#define __CR_LIFT_VECTOR 1
#endif
#if defined(_STL_SET_H)
#include <set>
#define __CR_LIFT_SET 1
#endif
#if defined(_UNORDERED_SET_H)
#include <unordered_set>
#define __CR_LIFT_UNORDERED_SET 1
#endif
#if defined(_STL_MAP_H)
#include <map>
#define __CR_LIFT_MAP 1
#endif
#if defined(_UNORDERED_MAP_H)
#include <unordered_map>
#define __CR_LIFT_UNORDERED_MAP 1
#endif
#if defined(_GLIBCXX_OPTIONAL)
#include <optional>
#define __CR_LIFT_OPTIONAL 1
#endif

namespace __cr_lift {

// the system calls the recorder and the judge make, as the system calls themselves
// (x86-64): no declaration of <unistd.h>'s, whose names a program may take for its own
// (``namespace pause {}`` made the recorder fail to compile)
inline long sys3(long nr, long a, long b, long c) {
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "0"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
  return r;
}
[[noreturn]] inline void leave(int status) {
  for (;;) sys3(231, status, 0, 0);  // exit_group
}
template <class T> struct kind { static constexpr const char* name = nullptr; };
template <> struct kind<bool> { static constexpr const char* name = "b"; };
template <> struct kind<char> { static constexpr const char* name = "c"; };
template <> struct kind<signed char> { static constexpr const char* name = "a"; };
template <> struct kind<unsigned char> { static constexpr const char* name = "h"; };
template <> struct kind<short> { static constexpr const char* name = "s"; };
template <> struct kind<unsigned short> { static constexpr const char* name = "t"; };
template <> struct kind<int> { static constexpr const char* name = "i"; };
template <> struct kind<unsigned> { static constexpr const char* name = "j"; };
template <> struct kind<long> { static constexpr const char* name = "l"; };
template <> struct kind<unsigned long> { static constexpr const char* name = "m"; };
template <> struct kind<long long> { static constexpr const char* name = "x"; };
template <> struct kind<unsigned long long> { static constexpr const char* name = "y"; };
template <> struct kind<float> { static constexpr const char* name = "f"; };
template <> struct kind<double> { static constexpr const char* name = "d"; };
template <> struct kind<long double> { static constexpr const char* name = "e"; };
#ifdef __CR_LIFT_STRING
template <> struct kind<std::string> { static constexpr const char* name = "S"; };
#endif

// a type's name written into a fixed buffer, one volatile store a character: no library
// call (the types' line is written before any code of the program's runs, and a program
// may define memcpy or write)
struct Buf {
  volatile char d[4096];
  size_t n = 0;
  void put(char c) {
    if (n < sizeof d) d[n++] = c;
  }
  void put(const char* s) {
    while (*s) put(*s++);
  }
};
// whether a type is known (``value``, at compile time), and its name (only the default
// comparators, hashes, allocators)
template <class T> struct known {
  static constexpr bool value = kind<T>::name != nullptr;
  static bool name(Buf& o) {
    if (!kind<T>::name) return false;
    o.put(kind<T>::name);
    return true;
  }
};
template <class T> bool one(Buf& o, char c) {
  o.put(c);
  o.put('<');
  bool ok = known<T>::name(o);
  o.put('>');
  return ok;
}
template <class A, class B> bool two(Buf& o, char c) {
  o.put(c);
  o.put('<');
  bool ok = known<A>::name(o);
  o.put(',');
  ok = known<B>::name(o) && ok;
  o.put('>');
  return ok;
}
#ifdef __CR_LIFT_VECTOR
template <class T> struct known<std::vector<T>> { static constexpr bool value = known<T>::value; static bool name(Buf& o) { return one<T>(o, 'V'); } };
#endif
#ifdef __CR_LIFT_SET
template <class T> struct known<std::set<T>> { static constexpr bool value = known<T>::value; static bool name(Buf& o) { return one<T>(o, 'E'); } };
#endif
#ifdef __CR_LIFT_UNORDERED_SET
template <class T> struct known<std::unordered_set<T>> { static constexpr bool value = known<T>::value; static bool name(Buf& o) { return one<T>(o, 'F'); } };
#endif
#ifdef __CR_LIFT_OPTIONAL
template <class T> struct known<std::optional<T>> { static constexpr bool value = known<T>::value; static bool name(Buf& o) { return one<T>(o, 'O'); } };
#endif
#ifdef __CR_LIFT_MAP
template <class K, class V> struct known<std::map<K, V>> { static constexpr bool value = known<K>::value && known<V>::value; static bool name(Buf& o) { return two<K, V>(o, 'M'); } };
#endif
#ifdef __CR_LIFT_UNORDERED_MAP
template <class K, class V> struct known<std::unordered_map<K, V>> { static constexpr bool value = known<K>::value && known<V>::value; static bool name(Buf& o) { return two<K, V>(o, 'N'); } };
#endif
template <class A, class B> struct known<std::pair<A, B>> { static constexpr bool value = known<A>::value && known<B>::value; static bool name(Buf& o) { return two<A, B>(o, 'P'); } };

// what a call site's lambda returns: the value itself where the call returned a reference
// to a known type, copied while the call's temporaries live. A function that returns a
// reference to its argument (std::max's shape: `const vector<int>& longest(const
// vector<int>& a, const vector<int>& b)`) is handed the test's literals as temporaries of
// the lambda's return statement; a reference returned past it was read after they died
template <class T>
using held = std::conditional_t<std::is_reference<T>::value && known<std::decay_t<T>>::value,
                                std::decay_t<T>, T>;

// one call site's type on the types' line: its name, or '?' when it is not known
template <class T> void type_of(Buf& o) {
  Buf one;
  if (known<T>::name(one) && one.n < sizeof one.d) {
    for (size_t i = 0; i < one.n; i++) o.put(one.d[i]);
  } else {
    o.put('?');
  }
}
template <> inline void type_of<void>(Buf& o) { o.put('?'); }

// write(3, ...) as the system call itself (x86-64): no function of the C library's, which
// the program could define
inline void raw_line(const Buf& b) {
  char out[sizeof b.d];
  size_t n = b.n < sizeof out ? b.n : sizeof out;
  for (size_t i = 0; i < n; i++) out[i] = b.d[i];
  size_t done = 0;
  while (done < n) {
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "0"(1L), "D"(3L), "S"(out + done), "d"(n - done) : "rcx", "r11", "memory");
    if (r <= 0) return;
    done += static_cast<size_t>(r);
  }
}

template <class T> struct is_seq : std::false_type {};
#ifdef __CR_LIFT_VECTOR
template <class T> struct is_seq<std::vector<T>> : std::true_type {};
#endif
#ifdef __CR_LIFT_SET
template <class T> struct is_seq<std::set<T>> : std::true_type {};
#endif
#ifdef __CR_LIFT_UNORDERED_SET
template <class T> struct is_seq<std::unordered_set<T>> : std::true_type {};
#endif
template <class T> struct is_map : std::false_type {};
#ifdef __CR_LIFT_MAP
template <class K, class V> struct is_map<std::map<K, V>> : std::true_type {};
#endif
#ifdef __CR_LIFT_UNORDERED_MAP
template <class K, class V> struct is_map<std::unordered_map<K, V>> : std::true_type {};
#endif
template <class T> struct is_pair : std::false_type {};
template <class A, class B> struct is_pair<std::pair<A, B>> : std::true_type {};
template <class T> struct is_opt : std::false_type {};
#ifdef __CR_LIFT_OPTIONAL
template <class T> struct is_opt<std::optional<T>> : std::true_type {};
#endif

// ---------------------------------------------------------------- the recorder
// a value line, written on fd 3 as it fills (by the system call itself)
struct Out {
  char d[8192];
  size_t n = 0;
  void flush() {
    const char* p = d;
    size_t left = n;
    while (left) {
      long w = sys3(1, 3, reinterpret_cast<long>(p), static_cast<long>(left));
      if (w == -EINTR) continue;
      if (w <= 0) leave(1);
      p += w;
      left -= static_cast<size_t>(w);
    }
    n = 0;
  }
  void add(char c) {
    if (n == sizeof d) flush();
    d[n++] = c;
  }
  void add(const char* s) {
    while (*s) add(*s++);
  }
  void add(const char* s, const char* e) {
    while (s < e) add(*s++);
  }
  // an integer in decimal: no <charconv>, whose parse was a sixth of a recorder's build
  void decimal(unsigned long long v, bool minus) {
    char buf[24];
    char* e = buf + sizeof buf;
    char* p = e;
    do {
      *--p = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v);
    if (minus) *--p = '-';
    add(p, e);
  }
  void count(size_t v) { decimal(v, false); }
};

template <class T> void put(Out& o, const T& v) {
  if constexpr (std::is_same<T, bool>::value) {
    o.add(v ? 't' : 'f');
  } else if constexpr (std::is_integral<T>::value) {
    o.add('i');
    if constexpr (std::is_signed<T>::value) {
      long long x = v;
      o.decimal(x < 0 ? 0ULL - static_cast<unsigned long long>(x) : static_cast<unsigned long long>(x), x < 0);
    } else {
      o.decimal(v, false);
    }
    o.add(';');
  } else if constexpr (std::is_same<T, long double>::value) {
    o.add('e');  // exactly, as a hexadecimal float (a double would round it)
    if (__builtin_isnan(v)) o.add("nan");
    else if (__builtin_isinf(v)) o.add(v > 0 ? "inf" : "-inf");
    else {
      char buf[64];
      int n = std::snprintf(buf, sizeof buf, "%La", v);
      if (n > 0 && n < static_cast<int>(sizeof buf)) o.add(buf, buf + n);
    }
    o.add(';');
  } else if constexpr (std::is_floating_point<T>::value) {
    double d = static_cast<double>(v);  // a float is exactly a double: no second rounding
    o.add('d');
    if (__builtin_isnan(d)) o.add("nan");
    else if (__builtin_isinf(d)) o.add(d > 0 ? "inf" : "-inf");
    else {
      char buf[64];  // 17 significant digits: read back, exactly the double
      int n = std::snprintf(buf, sizeof buf, "%.17g", d);
      if (n > 0 && n < static_cast<int>(sizeof buf)) o.add(buf, buf + n);
    }
    o.add(';');
#ifdef __CR_LIFT_STRING
  } else if constexpr (std::is_same<T, std::string>::value) {
    static const char hex[] = "0123456789abcdef";
    o.add('x');
    o.count(v.size());
    o.add(':');
    for (unsigned char c : v) {
      o.add(hex[c >> 4]);
      o.add(hex[c & 15]);
    }
#endif
  } else if constexpr (is_seq<T>::value) {
    o.add('l');
    o.count(v.size());
    o.add(':');
    for (const auto& x : v) put<typename T::value_type>(o, x);
  } else if constexpr (is_map<T>::value) {
    o.add('m');
    o.count(v.size());
    o.add(':');
    for (const auto& kv : v) {
      put<typename T::key_type>(o, kv.first);
      put<typename T::mapped_type>(o, kv.second);
    }
  } else if constexpr (is_pair<T>::value) {
    put<typename T::first_type>(o, v.first);
    put<typename T::second_type>(o, v.second);
  } else if constexpr (is_opt<T>::value) {
    if (!v) o.add('n');
    else { o.add('o'); put<typename T::value_type>(o, *v); }
  }
}

// one call site: the program's function runs here, in the order the test would run it,
// and its value is written once it returned
template <class F> void record(F&& f) {
  Out o;
  if constexpr (std::is_void<decltype(f())>::value) {
    f();
    o.add('?');
  } else {
    using R = std::decay_t<decltype(f())>;
    const auto& v = f();
    if constexpr (known<R>::value) {
      put<R>(o, v);
      o.add('\n');
      o.flush();
      // a copy made and dropped, as the test's own comparison makes an expected value of
      // the type: a program that wrote past a buffer it returned corrupted the heap after
      // it, which the next allocation finds (glibc aborts), as it does in plain execution
      // (MBCPP/648's mutant swapped the top chunk's size and returned the right values).
      // Only a known type (fundamentals, strings, the containers of them) is copied: a
      // vector of unique_ptr says it is copy constructible and fails to compile the copy
      R copy(v);
      __asm__ volatile("" : : "r"(&copy) : "memory");
      return;
    } else {
      o.add('?');
    }
  }
  o.add('\n');
  o.flush();
}

#ifdef __CR_LIFT_JUDGE  // the judge's (it includes <bits/stdc++.h> first: it knows every type)
// (<cstdlib>, for strtod, is the judge's alone: after a program's own `double abs(double)`,
// its std::abs(double) made the recorder of an honest program fail to compile)
#include <cstdlib>
// ---------------------------------------------------------------- the judge
struct In { const char* p; const char* e; };
[[noreturn]] inline void malformed() { leave(4); }
inline char next(In& in) {
  if (in.p >= in.e) malformed();
  return *in.p++;
}
inline std::string until(In& in, char end) {
  const char* s = in.p;
  while (in.p < in.e && *in.p != end) in.p++;
  if (in.p >= in.e) malformed();
  std::string t(s, in.p);
  in.p++;
  return t;
}
inline size_t count(In& in) {
  std::string t = until(in, ':');
  size_t n = 0;
  auto r = std::from_chars(t.data(), t.data() + t.size(), n);
  if (r.ec != std::errc() || r.ptr != t.data() + t.size() || n > static_cast<size_t>(in.e - in.p)) malformed();
  return n;
}
template <class T> void get(In& in, T& out) {
  if constexpr (std::is_same<T, bool>::value) {
    char c = next(in);
    if (c != 't' && c != 'f') malformed();
    out = c == 't';
  } else if constexpr (std::is_integral<T>::value) {
    if (next(in) != 'i') malformed();
    std::string t = until(in, ';');
    auto r = std::from_chars(t.data(), t.data() + t.size(), out);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size()) malformed();
  } else if constexpr (std::is_same<T, long double>::value) {
    if (next(in) != 'e') malformed();
    std::string t = until(in, ';');
    char* end = nullptr;
    long double d = std::strtold(t.c_str(), &end);
    if (t.empty() || end != t.c_str() + t.size()) malformed();
    out = d;
  } else if constexpr (std::is_floating_point<T>::value) {
    if (next(in) != 'd') malformed();
    std::string t = until(in, ';');
    errno = 0;
    char* end = nullptr;
    double d = std::strtod(t.c_str(), &end);
    if (t.empty() || end != t.c_str() + t.size()) malformed();
    out = static_cast<T>(d);
  } else if constexpr (std::is_same<T, std::string>::value) {
    if (next(in) != 'x') malformed();
    size_t n = count(in);
    if (n > static_cast<size_t>(in.e - in.p) / 2) malformed();
    out.clear();
    out.reserve(n);
    auto nib = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      malformed();
    };
    for (size_t i = 0; i < n; i++) {
      int hi = nib(in.p[0]), lo = nib(in.p[1]);
      out += static_cast<char>((hi << 4) | lo);
      in.p += 2;
    }
  } else if constexpr (is_seq<T>::value) {
    if (next(in) != 'l') malformed();
    size_t n = count(in);
    out.clear();
    for (size_t i = 0; i < n; i++) {
      typename T::value_type x{};
      get(in, x);
      if constexpr (std::is_same<T, std::vector<typename T::value_type>>::value) out.push_back(std::move(x));
      else out.insert(std::move(x));
    }
  } else if constexpr (is_map<T>::value) {
    if (next(in) != 'm') malformed();
    size_t n = count(in);
    out.clear();
    for (size_t i = 0; i < n; i++) {
      typename T::key_type k{};
      typename T::mapped_type v{};
      get(in, k);
      get(in, v);
      out.emplace(std::move(k), std::move(v));
    }
  } else if constexpr (is_pair<T>::value) {
    get(in, out.first);
    get(in, out.second);
  } else if constexpr (is_opt<T>::value) {
    char c = next(in);
    if (c == 'n') {
      out.reset();
    } else {
      if (c != 'o') malformed();
      typename T::value_type x{};
      get(in, x);
      out = std::move(x);
    }
  }
}

struct Lines {
  std::string all;
  std::vector<std::pair<size_t, size_t>> at;  // the value lines, after the types' line
  Lines() {
    char buf[65536];
    for (;;) {
      long r = sys3(0, 0, reinterpret_cast<long>(buf), static_cast<long>(sizeof buf));
      if (r == -EINTR) continue;
      if (r <= 0) break;
      all.append(buf, static_cast<size_t>(r));
    }
    size_t p = all.find('\n');  // the types' line (the host checked it)
    if (p == std::string::npos) malformed();
    for (size_t s = p + 1; s < all.size();) {
      size_t e = all.find('\n', s);
      if (e == std::string::npos) malformed();
      at.emplace_back(s, e);
      s = e + 1;
    }
  }
};
inline Lines& lines() {
  static Lines l;
  return l;
}

// the value the k-th call site's call returned; exit 3 when that call never returned (the
// candidate failed there: its own verdict decides, every comparison before it held)
template <class T> T take(size_t k) {
  Lines& l = lines();
  if (k >= l.at.size()) leave(3);
  In in{l.all.data() + l.at[k].first, l.all.data() + l.at[k].second};
  T v{};
  get(in, v);
  if (in.p != in.e) malformed();
  return v;
}
#endif
}  // namespace __cr_lift

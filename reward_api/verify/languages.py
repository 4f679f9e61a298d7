"""Languages other than Python: how a program becomes a build, how its tests run, and what
counts as a pass (CONTRACT.md, "Other languages").

This module owns the production recipe of each language (the flags measured in
sandbox_images/README.md, "Languages"; ``sandbox_images/runtime/toolchains.py`` holds the
same ones for measuring, and a test keeps the two equal), the assembly of a program with
its test code into one compilation unit with a trusted harness around the test, and the
grading of what the runner reported. The runner (``reward_api.sandbox.runner``) compiles
each build once, in the language's own cell, under compile limits, before any program of
the sample runs, and runs each test as a fork and exec of the artifact.

Trust, per test type:

- ``stdio``: the program alone is built; its stdout is compared on the host, so an expected
  output never enters the cell (as for Python). A problem's checker (``checkers``) is a
  build of the same recipes, run in a checker cell of its language, never in this one.
- ``call`` (``reward_api.verify.calls``): the program and a trusted harness are built once
  per entry point (``class_name``, ``fn_name``) and run once per test with the test's
  arguments on stdin (arguments are not secret). The harness takes the parameter and
  return types from the entry point's own signature as the compiler or runtime reads it
  (C++ template deduction, Java and Go reflection, Rust trait inference; JavaScript and
  TypeScript take JSON values; C's is read from its text under LeetCode's conventions),
  converts the arguments, calls, encodes the value as JSON
  with its own code and writes ``NONCE LENGTH "\n" JSON`` on the pass channel after the
  call returned, then ends the process at once. The host compares the JSON with
  ``output`` as Python's call tests do; the expected output never enters the cell. An
  exit before the report, a report cut, padded or preceded by the program's own bytes
  on fd 3, or a non-zero exit is never a pass.
- ``assert``: the test code must share the program's process (HumanEval-X, MultiPL-E, MBXP
  build them as one unit), so the pass signal cannot be the exit status. The harness
  reports completion on a pipe at fd 3 (the *pass channel*) with a 128-bit nonce drawn
  for this build, written only after the test's own code ran to its end: C/C++: a
  ``__wrap_main`` linked in with ``--wrap=main`` (in its own file, so the program and the
  test compile to the same code as plain execution's) that calls the test's ``main``
  directly, only when a tag-named pointer the unit defines holds the symbol ``main``
  (an asm label of the program could move the symbol; a program that made the
  pointer's page writable could move the pointer) and reports when it returned 0; Go (``func main``): the test's ``main`` renamed and called from
  ours; Go (``func TestX``):
  our ``TestMain`` after ``m.Run()`` returned 0, with the test flags parsed again from
  our own arguments, and every test function marked done by our wrapper of it; Java: our class's ``main`` after the test's ``Main.main``
  returned; JavaScript/TypeScript: a call after the test's last statement (an asynchronous
  test's: once its promises have settled and node's loop has drained, ``js_prelude``); Rust: a report
  in each ``#[test]`` function, with a nonce of its own, of the nonce and the function's
  name after its body (run as a closure it calls) returned, never while a foreign
  exception unwinds through it (under ``#[should_panic]``: when a panic whose message
  holds the expected one was caught, before it resumes; a guard's ``Drop`` while a panic
  unwinds only where the attribute is in a form not read),
  so a program that catches one test's report learns nothing of another's. A test passes
  only when the channel holds exactly the expected report (Rust's lines in any order:
  libtest orders tests by path) and the process exited 0 within its limits. So an early exit (``exit(0)`` in a
  global constructor, static block, ``init``, exit handler, shutdown hook, panic hook, or
  ``process.exit`` anywhere) is never a pass, and a program that writes on fd 3 itself
  spoils its own report. Java's test ``main`` runs once: its first statement is a
  call of the harness's ``enter``, which halts the process when it is entered again (a
  program ran ``Main.main`` itself once per guess, caught the ``AssertionError`` and
  learned from how far each dry run got which guess passed); so do a C/C++ test's
  ``main`` (``_enter_once``), Go's ``main``, ``TestX`` wrappers and ``TestMain``
  (``_go_enter_once``) and each Rust ``#[test]`` function, which end the process (86)
  when entered again: a Go program ran HumanEval-X's ``TestX`` itself with a
  ``testing.T`` of its own and read testify's ``expected: 5`` from its log, and a Rust
  program ran MultiPL-E's crate-root test function in a thread and read libtest's
  ``right: `14``` from the panic, each answering the real run from it. A Java test written inside
  the program's class (MultiPL-E's: its ``main`` closes ``class Problem``) is first moved
  into a top-level class of the verifier's (``compiled_eq.java_test_in_own_class``: inside
  the program's class, a decoy class or a field named ``Arrays`` or ``java`` decided what
  the test's code meant), and each ``assert`` statement of a Java test is an ``if`` that
  throws (``compiled_eq.java_asserts_always_on``: ``setClassAssertionStatus``, which no
  permission guards, turned off the assertions of test classes initialized after the
  program's first call). A native test's process (C, C++, Go, Rust: ``ONE_PROCESS``) can
  start threads but neither a child nor another program (the runner's seccomp filter), so
  a program cannot run its own test binary again to read the expected values from a
  failing run's messages (libtest's ``right: `5` ``, testify's ``expected: 5``) and
  answer from them. Nor can it write the test's code: the same filter refuses
  executable protections (``mprotect``, a writable and executable ``mmap``, ``mremap``
  to a fixed address, ``memfd_create``), and a Landlock ruleset keeps ``/proc`` from it
  (``/proc/self/mem`` writes through page protections): a red team's constructor wrote
  ``xor eax, eax; ret`` at the test's ``main`` both ways and was paid 1.0 (the
  runner's ``_one_process_filter`` and ``_landlock_proc``); a C/C++ assert build links
  with ``-z now`` and its harness seals the executable's code and RELRO (``mseal``)
  before any constructor of the program runs (``_X86_64_SEAL``: the program wrote the
  lazy GOT slot of ``strcmp``). Where the harness runs before any program code (Java's run
  class, node's prelude), the nonce is not in the build at all: the runner hands it over
  on fd 4 when the test starts, and the harness reads and closes that pipe first and
  keeps the nonce in a local (a class file or a prelude is a file the program can read;
  a red team forged reports from both), and then keeps the program from reading the
  process's memory, where that local's bytes lie (a red team read them through
  ``/proc/self/mem``, and in Java through ``sun.misc.Unsafe``): Java's run class installs
  a security manager before the test (``_java_guard``: no file under ``/proc``, no
  process, link, native library, reflection past access checks, restricted package,
  class loader, management, attach or socket for the program's and the test's code; the
  JDK's own privileged actions unchanged, except that a file under ``/proc`` or in the
  build's folder opens there only for the class loader: ``java.util.Currency`` read
  ``Main.class`` as the properties file named by ``java.util.currency.data`` and logged
  the test's literals), node's prelude guards the file system binding
  (nothing under ``/proc``, no link) and refuses child processes, worker threads, native
  addons, WASI, the inspector's sessions (however the module is loaded) and ``SIGUSR1``.
  Both also keep the test's own text from the program, which answered each call with the
  expected value it found there: Java's guard refuses the build's folder (``Main.class``),
  node's prelude the unit's folder once the unit compiles (``main.js``), and the test's
  function is strict (a sloppy one was the program's function's ``caller``, and its source
  the test's). Native builds, where a program's constructors and resolvers run before any harness
  code, still carry it, split.
- Redefinitions: C/C++: every macro name the program ``#define``s (found on the spliced
  text, comments included, by over-approximation) is ``#undef``ined before the test and
  ``<assert.h>`` is included again without ``NDEBUG``; a build whose program defines a
  function the C, math, C++ or GCC runtime library exports (``strcmp``, ``memcmp``,
  ``operator new``, ``malloc``: the test's own calls would bind to it; for C, ``static``
  ones too) fails, and so does a C++ program that declares into ``namespace std`` (or a
  reserved one) or specialises its templates (``std::uninitialized_copy<const int *, int
  *>`` built the test's expected vector), both read by the toolchain from the program
  alone, macros expanded (``_c_assert_build``); Rust: ``macro_rules!`` forwarders
  for ``assert``, ``assert_eq``, ``vec``, ``panic`` and the other std macros a test uses
  follow the program, so a shadowing ``macro_rules!`` of the program never reaches the
  test (textual scope: the later definition wins), and the prelude's names (``Some``,
  ``Ok``, ``String``, ...), the primitive types and the crates ``std`` and ``core`` are
  imported explicitly after the test's ``use super::*`` and at the start of each test
  function's body, so a program's ``fn Some``, ``mod std`` or ``mod f64`` reaches the
  test neither through the glob nor at the crate root (MultiPL-E's test functions);
  a test that has no ``#[test]`` but a ``fn main()`` (MultiPL-E's raw shape, which
  ``--test`` would never run) has that ``main`` as its test function; Go: the packages the test names
  (``json.``, ``reflect.``, ``assert.``) are imported under those names when the program
  does not import them itself (the program's package clause and imports read from Go's
  tokens, ``_go_header``: a header read by a pattern hid ``import u "unsafe"`` behind
  ``package main;``, and the harness's own imports carry the build's tag, so a program
  cannot stand in for them), so a program's ``var json fakeJSON`` is a compile error,
  not the test's ``json`` (a program that imports another package under such a name is
  untrusted, and so is one that imports ``unsafe``: the runtime keeps every function's
  name, so ``runtime.FuncForPC`` found the harness's report function and a cast of its
  entry called it; and so is one that names a standard function whose signature holds an
  ``unsafe.Pointer``, ``GO_UNSAFE_POINTER_API``: ``reflect``'s ``UnsafePointer()`` cast to
  ``*func()`` needs no import and did the same; and so is one that declares a
  ``MarshalJSON``, ``String``, ``Error``
  or other method ``encoding/json`` and ``fmt`` call by themselves: MBXP's
  ``deepCompare`` marshals the answer while the expected value is its caller's argument,
  which ``runtime.Stack`` prints; and so is one that declares a predeclared identifier at
  package level: its ``func panic(v interface{}) {}`` was the test's ``panic``);
  JavaScript/TypeScript: a prelude in its
  own file (``cr_pre.js``, loaded by ``node -r`` before the unit, so nothing the program
  hoists reaches it) loads and freezes the modules the test names (``assert``, lodash,
  ...) and freezes ``console``, makes
  the existing methods of the builtins fixed (``Array.prototype.every = ...``,
  ``JSON.stringify = ...`` and ``Object.is = ...`` change nothing, while an assignment
  through an object that inherits one makes its own property, as plain node does; nor can ``toJSON`` be
  put on their prototypes: a constant one made ``JSON.stringify(f(x)) ===
  JSON.stringify([...])`` hold for any answer), and runs the test as
  the body of a function whose parameters are a trusted ``require``, the real ``JSON``,
  ``Object`` and the other builtins (so ``var JSON = ...`` or a hoisted ``function
  require`` of the program shadows them for the program only), and whose first
  parameters are the program's names the test uses, each function among them a wrapper
  whose results are copies of plain data (``compiled_eq.js_prelude``'s "Answers": an
  answer's own ``every`` or ``join``, however it was put there, a subclass's, a returned
  ``Proxy``'s, is not what the test calls; class instances, ``Map``, ``Set``, ``Date``
  go through as they are); the trusted ``require``
  answers the test's modules with the frozen objects, whatever ``require.cache`` or
  ``Module._load`` hold by then. A TypeScript test's ``import * as``, ``import x =
  require`` and ``import {...}`` lines become ``const`` declarations of that function
  (other imports stay at the top level). The prelude runs the function once, only if its
  source text is the unit's, and reports when it returned; the unit hands it over as
  ``({}).__cr_run(...)``, a property the prelude fixes on ``Object.prototype``, never by
  a name (a program's hoisted ``function __cr_run`` was handed the test's function, ran
  it with a fake ``require`` that recorded the expected values, then answered from them).
- Comparisons (``reward_api.verify.compiled_eq``): C++'s ``==``/``!=`` and Java's
  ``equals``/``Objects.equals`` in the test become calls of trusted per-build code that
  compares the standard library's types itself, so a global or ``std``-injected
  ``operator==`` of the program, a returned type whose ``operator==`` accepts anything, or
  a returned ``ArrayList`` subclass whose ``equals`` says yes, decides nothing; each C++
  call in the test of a name of the program's must return, at compile time, a type of the
  language or the standard library (``compiled_eq.check_cpp_program_calls``: a returned
  ``struct`` whose ``operator-`` answered 0 made ``abs(f(x) - 0.5) < 1e-4`` hold), unless
  the test names that type itself (and in
  Java, a type of the program named like a JDK type the test uses, ``class Arrays``,
  never stands for the JDK's in the test: those names are written out in full); Rust: a
  function the test calls that returns a type the program declares (or ``impl Trait``,
  or any word that is not a standard type: an alias no pattern reads, ``T::Out``; or a
  generic parameter, where the program declares a trait whose impls could choose it)
  makes the pass untrusted (its ``PartialEq`` would be the program's; the standard types'
  cannot be replaced), unless that type's comparison is ``#[derive(PartialEq)]``'s over
  fields of standard types, with no impl of the program's naming it or a comparison trait
  (``compiled_eq._rust_derived_eq``: HumanEval-X's Rust/137 returns its own ``enum``), and so does a name the test uses that the program binds other than
  by a plain ``fn`` (a tuple struct, an enum variant, a const or static, a renamed import,
  or, where the program has macros, any name it shares with the test that no plain ``fn``
  declares), and so does a program that names ``include_str``, ``include_bytes``
  or ``include`` outside its comments and literals (they would read the unit, test and
  all, while it compiles; ``file!``, ``env!`` and ``module_path!`` only name things, and
  read nothing without them), and so does one that declares a trait with a method of a
  name the test calls (``got.contains(&x)``: method lookup can take the program's trait
  method before the standard type's own), and so does an ``extern crate`` other than a plain one
  (``extern crate self as std`` made every ``::std::`` path of the harness the program's),
  and so does one that declares a ``#[global_allocator]`` (it placed the test's
  expected ``Vec`` in the buffer of its own answer, so ``vec!`` wrote both), and so does
  one that defines symbols (``#[no_mangle]``,
  ``#[export_name]``, ``#[link_section]``, ``asm!``, ``global_asm!``: a ``#[no_mangle] fn
  abort`` replaced the C library's for libtest); JavaScript/TypeScript: the builtins
  above, and a program that declares or assigns ``require`` is untrusted (TypeScript's
  imports call the module's ``require``), and lodash's ``isEqual`` compares frozen copies
  of its values (``js_prelude``: a setter at ``Array.prototype[0]`` was handed the
  expected value that lodash pushed onto its own stack).

Lifted out of the process (``reward_api.verify.lifted``): a C++ assert test whose calls
of the program run once each, in order, with arguments made of literals and the standard
library's names (MBXP's ``T xK = f(args); if (!(compare(xK, E))) throw``, HumanEval-X's
``assert (f(args) == E);``, MultiPL-E's ``auto candidate = f;`` then ``assert
(candidate(args) == E);``: all of MBCPP's 848 tests) runs in two builds. The candidate's
build is the program and a recorder that writes each call's value on the pass channel;
it holds no expected value, no comparison and no nonce. The test's own code, each call
replaced by the value recorded for it, is built and run apart (a *judge*, in the checker
cells of C++, which never run a program), so the program can read all of its memory and
code and finds nothing of the test's. A test goes back beside the program only where
the recorder cannot write a call's type (the program's own ``struct``, ``std::tuple``,
``void``: decided by the types' line the recorder writes from ``.preinit_array`` before
any code of the program's runs, never by a line the program writes) or where the judge
does not compile (the test names a helper the program defines); everything below then
applies to it as before. A Go assert test in MBGP's shape (``actual_K := f(args)``, then
the test's own ``deepCompare``, which sees the value only through ``json.Marshal``: all
of MBGP's tests) is lifted the same way (``reward_api.verify.lifted_go``): the recorder
writes each value's JSON, and the judge, the test's own code fed those bytes, is built
once per test in the checker cells of Go. HumanEval-X's ``go test`` shape (``assert :=
assert.New(t)``, then testify's ``Equal``, ``NotEqual``, ``True``, ``False`` of one call
each, or the ``math.Abs(CALL - E) < EPS`` tolerance: 154 of its 164 Go tests) is lifted
by ``reward_api.verify.lifted_go_testify``: testify compares types, so the recorder writes
each value with its Go type, by ``reflect`` and the value's kind alone, and the host
decides ``ObjectsAreEqual`` on it (checked against Go and testify in their root); the
candidate's build is ``go test -c`` as beside the test (its ``go vet`` checks fail a
program alike). A C assert test of the
same shape (``assert(f(args) == E);``, ``T x = f(args);``: arguments of literals, C's own
words, ``C_ARG_WORDS``, and the test's own data made of literals that the test names
nowhere else, ``int a[] = {1, 2}; count(a, 2)``) is lifted with C's halves of the
recorder and the judge: the recorder names each call's type by ``_Generic`` and writes
the bytes of its value, scalars alone (a pointer is an address in the candidate's
process: a result the program declares a pointer, ``struct`` or ``void`` runs beside the
program at once, ``lifted.c_returns_unwritten``; one it does not spell goes back by the
types' line); the judge, the test's own code with the program's standard headers and
``<assert.h>``, is compiled as C by tcc (``C_JUDGE_BUILD``: 3 ms, its build being on the
path of a problem's first sample), while the recorder is when the program's
declarations spell the calls' types (``lifted.guess_c_types``). The candidate's build is
then one plain compile: none of the checks of a C assert build (``_c_assert_build``) is
needed where no test runs in the program's process. Where a lifted test's comparisons
are with constants (C: ``assert(f(x) == 5)``, ``assert(!f(x))``, ``lifted_c_host``; C++
the same, with ``true``, ``false``, ``not`` and a ``std::string`` result against a string
literal, ``lifted_c_host.decide_cpp``; Go:
MBGP's own ``deepCompare`` on literal expected values, ``lifted_go_host``), the host
computes what the judge would, from the same recorded lines, by the language's own rules
(checked against gcc and Go in their roots), and no judge is built or run; a value it
does not read exactly as the language would goes to the compiled judge. A Rust assert
test of HumanEval-X's or MultiPL-E's shape (``assert_eq!(f(args), E)``, ``assert_ne!``,
``assert!(f(args) == E)``, ``assert!(f(args))``, ``assert!((f(args) - F).abs() < F)``,
after ``let candidate = f;``, with literal arguments and expected values) is lifted
the same way (``reward_api.verify.lifted_rust``): the recorder, built with the test
harness as the unit beside the test would be and run as its only test function, first
writes the calls' Rust types (from closures it never calls, before any code of the
program's runs), then each call's value (integers, floats by their bits, ``bool``,
``char``, strings, ``Vec``, arrays, ``Option``, ``Result``, tuples; a call of any other
type does not compile there and the test goes back beside the program, by the program's
declared types, never by a line it writes); the host types the expected literal against
the declared type as rustc would (a literal the assertion would not compile with, an
empty ``vec![]`` rustc cannot infer, an ``f32``: back beside the program) and compares as
``PartialEq`` does (checked against rustc 1.63 in its root). No judge is built: the
candidate's build is the only compile, as beside the test. A recorder that does not
compile where the program's own lines do sends the test back beside the program; a
program untrusted beside the test, or one with test functions of its own or a method the
expected values call (``lifted_rust.program_unlifted``), is not lifted.

What still runs beside the program, and why: for every other assert test, the test code
and the harness share the program's process, because these conventions call the
program's functions in their own language with their own types; the comparisons are
lifted to trusted code in that process, not out of it. Not covered (for a C, C++ or Rust
test, only where it is not lifted): a program that reads its own executable, source or memory
(``/proc/self/exe``, the unit's file, ``/proc/self/mem``, which a Go program reads and
writes without ``unsafe``, or other goroutines' frames through ``runtime.Stack``) and
finds a native build's nonce there despite its split form, or the test's values, and
replays them (a C or C++ function that reads
the machine code at its return address finds the test's expected value as the immediate
of the comparison after the call, and only the gate's ``c-reads-its-caller`` refuses the
plain ways; a Rust or C function can find its return address by scanning the stack from
one of its locals, with no builtin at all, so the gate's patterns, ``rust-reads-code-memory``
among them, are all that stand against a native program reading the test's code, in
Rust even without ``unsafe``: rustc's implied-bounds hole (#25860) turned a ``usize``
into a ``&u8`` in safe code, which only the gate's pattern for ``&'a &'b`` refuses; a Go
program read the report function's code and the nonce's halves it points at from
``/proc/self/mem`` by a path built from bytes, which only ``go-introspection``'s file
openers refuse); in
Java and node, a way to read the process's memory, reach the harness's locals or read
the test's text that their guards do not name (they refuse what is listed above and
allow the rest: for instance JDK code that reads a file of the program's choosing inside
its own ``doPrivileged`` (outside ``/proc`` and the build's folder), or, in node, a
method of a class instance, ``Map`` or ``Date`` the program returns (answers are copied,
but those go through as they are), a method of the program's object that the test
reaches through a property rather than by calling the program's name, or one the
program put on the test's own argument, or a sloppy library the test calls that is not one of the
modules it names, whose frames' ``.arguments`` a program's hook could reach, or a ``Map``, ``Set`` or
``Date`` of the program's that lodash's ``isEqual`` meets inside an array: its copies keep
them as they are, so a setter of the program's handed the expected value could still
change them before they are read; the gate's
``js-reads-a-file`` and ``java-reads-a-file`` rules are a second line there); a native
program that returns into the harness
past the test (its own return address replaced by the one into ``__wrap_main`` found up
its stack, with a copy of that frame: in one process the harness cannot tell it from the
test's ``main`` returning 0); a C++ overload of a C library function (``strcmp(char *,
const char *)``, which a test's ``char *`` argument prefers) that is ``static`` or
``inline`` or a template (``_C_OBJECT_AWK`` reads no weak C++ or inlined symbol); a
native C/C++ program that maps a page of its own making executable over the test's
code (``mmap`` of a file it wrote, ``PROT_EXEC``, ``MAP_FIXED``: the loader maps
libraries the same way, so the filter cannot tell them apart) or makes the RELRO GOT
writable again (``mprotect``) on a kernel without ``mseal`` (Linux before 6.10; docker
cells have it through their own seccomp filter, ``reward_api.sandbox.seccomp``, where
Docker's default profile answers ENOSYS; the harness seals the executable's code and
RELRO before any constructor: ``_X86_64_SEAL``; the gate's ``c-writes-code`` names both),
a Go or Rust program's code and GOT (not sealed),
and a native program's ``/proc`` on a kernel without Landlock; a native program on a machine other than x86-64, where the one-process filter is not
written, that runs its own test again as a child and reads the expected values from that
run's failure messages (Java's guard and node's prelude refuse child processes);
comparisons other than equality on containers (``<``) and comparisons
inside helpers of the program that the test calls (a standard C++ type ``compiled_eq`` does
not take apart, ``std::complex``, keeps the standard's ``operator==``: a C/C++ assert build
refuses a program that declares into ``std``);
Go has no operator overloading and testify compares by reflection (a lying
``MarshalJSON`` cannot know the expected value). Compile-time reads of host files see
only the language's runtime root (the compile runs in the cell), and compile-time bombs
end at the compile limits as ``compile_error``. C/C++ at compile time: the program's
``#include`` may name only a header (``included_untrusted``: not ``__FILE__``, a macro or
the unit), and the unit compiles from a pipe with the harness not yet written
(``_c_assert_build``), so the assembler finds neither (``.incbin`` in inline asm or in a
section name GCC writes into the assembly unquoted).

Speed: one compile per build (stdio tests share their program's build, call tests of one
entry point share theirs; a program seen
again is unpacked from the verifier's artifact cache, keyed by files, toolchain argv and
environment), C++ against the precompiled ``<bits/stdc++.h>`` or a precompiled header of
the program's own first includes (``reward_api.verify.headers``), Go with the seeded build
cache for ``go test``, and for Java, TypeScript and JavaScript a warm compiler: javac in
one JVM (``warm/CompileServer.java``), tsc through TypeScript's compiler API with the lib
files parsed once, and node's own parser for ``node --check`` (``warm/compile-server.js``),
each with the recipe's options, so a build gets the same verdict as the recipe's command.

Warm compilers live in *compile cells* (``Verifier.compile_pool``): cells of the
language's root, limits and network policy that run compilers only, never a program. The
host sends a sample's builds there, gets each artifact back as a pack (or the compiler's
message) and hands it to the cell that runs the sample, which only unpacks it. Why apart:
a cell that runs programs kills every process but its runner after each test, and a
server beside a program (same uid) could be signalled, traced or fed by it, so a later
sample's build would be the program's to decide. What a compile cell still shares between
samples: the server process (javac's file manager caches the platform's class index; the
TypeScript host caches parsed files under ``/usr`` and ``/node_modules``, read-only in the
cell), never a program's files (each build has its own folder, removed after it is packed,
and ``/tmp`` is swept after each request). A server starts and warms up before it takes a
request (not counted in any compile's time), serves ``MAX_SERVER_COMPILES`` builds, and is
killed when a build outlasts its compile time or it dies (a compile bomb ends in
``compile_error``; the next build gets a fresh server); a server that cannot start is
``sandbox_error``, never a verdict. javac runs with ``-proc:none`` and no plugin, so
compiling never runs program code; TypeScript only parses and checks; the JavaScript
check only compiles.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import platform
import re
import secrets
import shlex
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from signal import SIGABRT
from typing import TYPE_CHECKING, Any

from reward_api.schemas import AssertTest, CallTest, Problem, StdioTest, TestResult, Verdict
from reward_api.verify import compiled_eq, lifted, lifted_c_host, lifted_go, lifted_rust
from reward_api.verify.comparators import comparator

if TYPE_CHECKING:
    from reward_api.verify import lifted_go_testify

COMPILED = frozenset({"c", "cpp", "java", "javascript", "typescript", "go", "rust"})
"""The languages this module builds; python and python3 run in the Python runner."""
ROOT_OF = {"c": "cpp", "cpp": "cpp", "java": "java", "javascript": "node",
           "typescript": "node", "go": "go", "rust": "rust"}  # fmt: skip
"""The runtime root each language's cell runs on (sandbox_images/runtime/root-path.sh)."""
ROOT_DIRS = {"cpp": "bookworm-gcc12", "java": "bookworm-jdk17", "node": "bookworm-node18",
             "go": "bookworm-go119", "rust": "bookworm-rust163"}  # fmt: skip
IMAGES = {"c": "codereward/sandbox-c:12", "cpp": "codereward/sandbox-cpp:12",
          "java": "codereward/sandbox-java:17", "javascript": "codereward/sandbox-javascript:18",
          "typescript": "codereward/sandbox-typescript:5.9", "go": "codereward/sandbox-go:1.19",
          "rust": "codereward/sandbox-rust:1.63"}  # fmt: skip
"""The docker image of each language (sandbox_images/<language>/<version>/metadata.json)."""

COMPILE_TIME_S = 60.0
"""Wall seconds a compile may take (tsc and a cold ``go test`` take seconds on a loaded host)."""
COMPILE_MEMORY_MB = 2048
"""Address space of each compiler process."""
MAX_PROCS = 128
"""Processes and threads of a compiled language's cell (docker's pids limit) and of each
compile or run in it (RLIMIT_NPROC in the process backend's user namespace)."""
COMPILE_CELL_MB = 1536
"""The cell's memory ceiling (less its overhead) while it holds a sample that compiles."""
MAX_COMPILE_MESSAGE_CHARS = 2000
"""The compiler's message in a ``compile_error`` result, its tail."""
PCH_DIR = "/usr/lib/codereward/pch"
JAVAC_ARCHIVE = "/usr/lib/codereward/javac.jsa"
NODE_SNAPSHOT = "/usr/lib/codereward/node.blob"
"""The startup snapshot every JavaScript and TypeScript test's node starts from
(``sandbox_images/runtime/warm/node-boot.js``: what it holds, and why a test cannot tell
it from a plain ``node main.js``). Debian's node has neither Node's own snapshot nor the
code cache of its built-in modules, so a plain start runs the whole bootstrap: 109 ms of
a trivial test here against 59 ms from the snapshot."""
NODE_RUN = ("node", "--snapshot-blob", NODE_SNAPSHOT)
GOLD = "-fuse-ld=gold"
"""C, C++ and Rust link with gold (binutils' own second linker, in every toolchain root):
the same executable semantics as ld.bfd, in about half its time (a C++ link of
libstdc++: 55 ms against 19; a C build 40 ms against 31). Native builds are linked
without a symbol table (``-s``; Go ``-s -w``; Rust ``strip=symbols``): nothing runs
differently, and a program that reads its own binary finds no name that leads it to the
harness's split nonce."""
RUST_FAST = ("-C", "strip=symbols", "-C", f"link-arg={GOLD}", "-C", "lto=off",
             "-C", "embed-bitcode=no")  # fmt: skip
"""Rust's build flags beyond ``-O``: the standard library's debug information and the
symbol table stripped (only a backtrace reads them: 18.7 MB of a test binary's 19.9; and
a binary without symbols does not point a program that reads it at the harness's data), gold, and none of the local
ThinLTO that ``-O`` runs across a crate's codegen units nor the bitcode it embeds for it
(cargo's release profile leaves that LTO on; a single-file program gains little from it,
and it was a third of the optimizer's time: 603 ms a build here, 460 without these)."""
GO_SEED = "/usr/lib/codereward/gocache"
GO_ENV = {"GO111MODULE": "off", "GOPATH": "/usr/share/gocode", "GOCACHE": "/tmp/.gocache",
          "GOPROXY": "off", "GOSUMDB": "off", "GOTELEMETRY": "off", "CGO_ENABLED": "0",
          "GOFLAGS": "-p=2"}  # fmt: skip
GO_BUILD = r"""src=$1 out=$2
for T in /usr/lib/go/pkg/tool/linux_*; do :; done
P=/usr/lib/go/pkg/${T##*/} G=$GOPATH/pkg/${T##*/}
if [ -x "$T/compile" ] && [ -x "$T/link" ]; then
  if "$T/compile" -p main -complete -pack -c=2 -D "_$PWD" -I "$P" -I "$G" -o _go_.a "./$src" >_go_.err 2>&1; then
    if "$T/link" -buildmode=exe -s -w -L "$P" -L "$G" -o "$out" _go_.a >_go_.err 2>&1; then
      rm -f _go_.a _go_.err; exit 0
    fi
  elif ! grep -qE 'could not import|embed' _go_.err; then
    echo '# command-line-arguments' >&2; cat _go_.err >&2; rm -f _go_.a _go_.err; exit 1
  fi
  rm -f _go_.a _go_.err "$out"
fi
exec go build -ldflags="-s -w" -o "$out" "$src"
"""
"""A ``func main`` program's build: what ``go build`` runs for it, the compiler then the
linker over the installed standard library and GOPATH archives, without the go command's
work around them (half the build's time: it hashes the sources of every imported package
to prove the archives fresh). Where the two could differ, ``go build`` itself decides:
an import the archives lack (another GOPATH package, ``import "C"``), ``//go:embed``
(only the go command supplies its files), or any link failure. A compile error reads as
``go build`` prints it. sandbox_images/runtime/toolchains.py's ``go-direct``."""
JVM_FAST = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"]
# a JVM reserves address space far beyond what it uses: these keep it near Xmx + 300 MB
# (sandbox_images/README.md, "Memory limits and runtimes that reserve address space")
JVM_SMALL = ["-XX:ReservedCodeCacheSize=32m", "-XX:CompressedClassSpaceSize=64m",
             "-XX:MaxMetaspaceSize=128m", "-XX:-UsePerfData"]  # fmt: skip
JVM_EXTRA_MB = 640
GO_EXTRA_MB = 512
"""Go's runtime reserves its page summaries up front (some hundreds of MB of address space)."""
NODE_EXTRA_MB = 512
"""Node reserves address space far beyond what it uses (V8's code range and heap
reservations, its worker threads' stacks: about 600 MB of address space for 50 MB
resident): an honest program that loaded ``mathjs`` (124 MB resident, 664 MB of address
space) died of SIGABRT at the default 512 MB, where plain node runs it. (V8 sizes its
heap within the address-space limit; a heap flag such as ``--max-old-space-size`` would
not match the startup snapshot's, which records the flags it was built with.)"""


def default_root(language: str) -> Path:
    """Where ``make runtimes`` puts a language's root (as root-path.sh prints it)."""
    root = ROOT_OF[language]
    given = os.environ.get(f"CODEREWARD_RUNTIME_ROOT_{root.upper()}")
    if given:
        return Path(given)
    if os.geteuid() == 0 or os.access("/var/lib/codereward", os.W_OK):
        return Path("/var/lib/codereward/runtime") / ROOT_DIRS[root]
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "codereward/runtime" / ROOT_DIRS[root]


@dataclass(frozen=True)
class Recipe:
    """How one compilation unit is built and run in its language's cell."""

    source: str
    compile: tuple[str, ...] | None
    run: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)
    remove: tuple[str, ...] = ()
    """Files deleted once compiled (a binary's sources: the nonce is not left lying about)."""
    seed_cache: tuple[str, str] | None = None


def _gcc(cc: str, std: str, src: str, *extra: str) -> Recipe:
    return Recipe(src, (cc, f"-std={std}", "-O2", "-pipe", *extra, GOLD, "-s", "-o", "prog", src),
                  ("./prog",), remove=(src,))  # fmt: skip


C_JUDGE_BUILD = (
    "tcc -Wimplicit-function-declaration -Werror -o prog main.c -lm 2> /dev/null || "
    f"exec gcc -std=gnu11 -O0 -pipe {GOLD} -s -o prog main.c -lm"
)
"""The build of a lifted C test's judge: tcc, the same C (its integer, floating-point, NaN
and ``long double`` comparisons agree with gcc's: ``tests/languages/test_runtimes.py``), and gcc
where tcc fails (a GNU extension it lacks, or any warning: a function the test calls
undeclared, ``fabs`` with no ``<math.h>``, is ``int fabs()`` to tcc and gcc's builtin
to gcc, which a red team's honest program met), with gcc's message."""

RECIPES: dict[str, Recipe] = {
    "c": Recipe("main.c", ("gcc", "-std=gnu11", "-O2", "-pipe", GOLD, "-s", "-o", "prog", "main.c", "-lm"),
                ("./prog",), remove=("main.c",)),
    # a lifted C test's judge (``reward_api.verify.lifted``): the test's own code and no
    # program's, whose build is on the path of a problem's first sample: tcc (3 ms against
    # gcc -O2's 55 and -O0's 38 on a judge), gcc -O0 where tcc refuses the test's code
    "c-judge": Recipe("main.c", ("sh", "-c", C_JUDGE_BUILD), ("./prog",), remove=("main.c",)),
    "cpp": _gcc("g++", "gnu++17", "main.cpp", f"-I{PCH_DIR}"),
    "java": Recipe("Main.java",
                   ("javac", f"-J-XX:SharedArchiveFile={JAVAC_ARCHIVE}", *[f"-J{f}" for f in JVM_FAST[:2]],
                    "-J-Xmx768m", *[f"-J{f}" for f in JVM_SMALL],
                    "-proc:none", "-encoding", "UTF-8", "-nowarn", "-d", ".", "Main.java"),
                   ("java", *JVM_FAST, *JVM_SMALL, "-ea", "-cp", ".", "Main"),
                   {"MALLOC_ARENA_MAX": "1"}, remove=("Main.java",)),
    "javascript": Recipe("main.js", ("node", "--check", "main.js"), (*NODE_RUN, "main.js")),
    "typescript": Recipe("main.ts", ("tsc", "--target", "es2020", "--module", "commonjs",
                                     "--skipLibCheck", "--outDir", ".", "main.ts"),
                         (*NODE_RUN, "main.js"), remove=("main.ts",)),
    "go": Recipe("main.go", ("sh", "-c", GO_BUILD, "go-build", "main.go", "prog"), ("./prog",),
                 GO_ENV, remove=("main.go",)),
    "go-test": Recipe("main_test.go", ("go", "test", "-c", "-ldflags=-s -w", "-o", "prog.test", "main_test.go"),
                      ("./prog.test",), GO_ENV, remove=("main_test.go",), seed_cache=(GO_SEED, GO_ENV["GOCACHE"])),
    "rust": Recipe("main.rs", ("rustc", "--edition", "2021", "-O", *RUST_FAST, "-o", "prog", "main.rs"), ("./prog",),
                   remove=("main.rs",)),
    "rust-test": Recipe("main.rs", ("rustc", "--edition", "2021", "--test", "-O", *RUST_FAST, "-o", "prog", "main.rs"),
                        ("./prog", "--test-threads=1"), remove=("main.rs",)),
}  # fmt: skip


@dataclass(frozen=True)
class Unit:
    """One compilation unit: the build the runner compiles and what its pass report is."""

    recipe: str
    files: dict[str, str]
    run: tuple[str, ...]
    expect: str | None = None
    """For an assert test: exactly what the harness writes on the pass channel; for a
    call test: the nonce its report starts with."""
    untrusted: str | None = None
    """Why a pass of this build's test cannot be trusted (it never becomes ``accepted``)."""
    link: tuple[str, ...] = ()
    """Arguments added to the compile command (a C++ call harness's ``--wrap=main``)."""
    refused: str | None = None
    """A call test's entry point that cannot be called: never built, its tests are
    ``compile_error`` with this detail (``reward_api.verify.calls``)."""
    nonce_fd: str | None = None
    """The report's nonce, handed to the harness when each test starts on a pipe at fd 4
    (the runner's ``NONCE_FD``), where the harness can read it before any program code
    runs: Java and node, whose harness runs first. Their builds then hold no trace of it
    (a class file or a prelude is a file the program can read)."""
    unordered: bool = False
    """The report's lines may come in any order (Rust: libtest runs tests in the order of
    their paths, and each line carries its own nonce, so none can be repeated or made up)."""
    program: str | None = None
    """A C/C++ assert unit's program alone, which its build checks for what it defines
    (``_c_assert_build``): never the test."""
    lift: tuple[str, Any, str | None] | None = None
    """A lifted C, C++ or Go assert test (``reward_api.verify.lifted``, ``lifted_go``): the
    test's code, its ``Plan`` and, when the plan is independent of the program's types,
    its judge's source; the build is the recorder, and the test's code runs in the judge,
    apart, built with the unit's recipe."""
    lift_guess: str | None = None
    """A lifted C test's judge as the program's declarations predict its types
    (``lifted.guess_c_types``), built while the recorder is: used only where the types the
    recorder writes make the same source (the judge is then built, or being built)."""
    lift_line: int = 0
    """A lifted Rust unit's first line of the recorder (``lifted_rust_unit``): a compile
    error reported at or after it is the recorder's, not the program's."""
    entry_points: tuple[str, ...] = ()
    """A C++ assert unit's entry points (the problem's): a C++ function of the program
    with one of these names is the function the test calls, not a library function's
    stand-in, though a library function has that name (HumanEval-X's ``int
    strlen(string)``); its mangled symbol is still checked (``_c_assert_build``)."""

    def reported(self, channel: object) -> bool:
        """Whether the pass channel holds exactly the expected report."""
        if self.expect is None or not isinstance(channel, str):
            return False
        if self.unordered:
            return sorted(channel.splitlines(keepends=True)) == sorted(
                self.expect.splitlines(keepends=True)
            )
        return channel == self.expect


# ------------------------------------------------------------------ assembly
def stdio_unit(language: str, program: str) -> Unit:
    """The program alone, for stdio tests (its stdout is compared on the host)."""
    recipe = RECIPES[language]
    if language == "java":
        name = _java_main_class(program)
        return Unit("java", {f"{name}.java": program}, _java_run(name))
    return Unit(language, {recipe.source: program}, recipe.run)


@dataclass(frozen=True)
class _Secret:
    """A build's pass report and how a native harness (C, C++, Go) holds it: never as the
    report's text (a program that greps its own binary or command line for 32 hex digits
    finds nothing), but as two random 16-byte arrays ``a`` and ``b`` whose XOR is the
    report's bytes, turned into hex only when the test has ended. Java and node never see
    the arrays: their harness reads ``nonce`` from fd 4 (``Unit.nonce_fd``). The harness's
    own names carry ``tag``, drawn apart from the nonce."""

    nonce: str
    tag: str
    a: tuple[int, ...]
    b: tuple[int, ...]

    @classmethod
    def draw(cls) -> _Secret:
        nonce, a = secrets.token_bytes(16), secrets.token_bytes(16)
        b = tuple(x ^ y for x, y in zip(a, nonce, strict=True))
        return cls(nonce.hex(), secrets.token_hex(6), tuple(a), b)

    def arrays(self) -> tuple[str, str]:
        return ", ".join(map(str, self.a)), ", ".join(map(str, self.b))


def assert_unit(language: str, program: str, test: str, entry_points: Collection[str] = ()) -> Unit:
    """The program, then the test code, with the harness of this module's docstring
    (``entry_points``: the problem's own, names the test takes from the program)."""
    secret = _Secret.draw()
    nonce, tag = secret.nonce, secret.tag
    if language in ("c", "cpp"):
        cpp, program = language == "cpp", c_newlines(program)
        wrap = (
            {"harness.s": _x86_64_harness(secret)}
            if _ASSEMBLED_HARNESS
            else {f"harness.{'cpp' if cpp else 'c'}": _c_harness(secret, cpp)}
        )
        unit = _c_unit(program, test, cpp, tag, frozenset(entry_points))
        files = {RECIPES[language].source: unit, **wrap}
        untrusted = (
            included_untrusted(program)
            or line_marker_untrusted(program)
            or macro_untrusted(program)
        )
        entry = tuple(sorted(e for e in entry_points if _C_NAME.fullmatch(e)))
        return Unit(language, files, RECIPES[language].run, nonce, untrusted, program=program,
                    entry_points=entry)  # fmt: skip
    if language == "java":
        refused = compiled_eq.java_refused(program) or compiled_eq.java_reads_the_test(
            program, test
        )
        if refused is not None:
            return Unit("java", {}, (), refused=refused)
        harness, eq = f"__CrHarness{tag}", f"__CrEq{tag}"
        moved = compiled_eq.java_test_in_own_class(program, test, f"__CrTest{tag}")
        if isinstance(moved, str):
            return Unit("java", {}, (), refused=moved)
        if moved is not None:
            program, test = moved
        test = compiled_eq.qualify_java_types(test, program, entry_points)
        program = compiled_eq.java_open_private_types(program)
        test = compiled_eq.rewrite_java_equals(test, eq)
        shape = compiled_eq.JavaProgram.of(program, entry_points)
        test = compiled_eq.wrap_java_answers(test, shape, eq)
        test = compiled_eq.java_fresh_literals(test, eq, lambda: secrets.randbits(64), shape)
        test = compiled_eq.java_asserts_always_on(test)
        test = compiled_eq.java_private_members(test)
        test = _java_enter_once(test, harness)
        named = compiled_eq.java_named_types(test, shape)
        source = f"{program}\n\n{test}\n\n{_java_harness(harness)}{compiled_eq.java_eq(eq, named)}"
        return Unit("java", {"Main.java": source}, _java_run(harness), nonce, nonce_fd=nonce)
    if language in ("javascript", "typescript"):
        files = _js_unit(program, test, language == "typescript", entry_points)
        strict = "--unhandled-rejections=strict"  # compiled_eq.js_prelude: a failure is a failure
        run = (*NODE_RUN, strict, "-r", f"./{JS_PRELUDE}", *RECIPES[language].run[len(NODE_RUN) :])
        return Unit(language, files, run, nonce, compiled_eq.js_untrusted(program), nonce_fd=nonce)
    if language == "go":
        make = _go_test_unit if _GO_TEST_FN.search(test) else _go_main_unit
        # the words of the unit that are not the program's: its test and our harness, as
        # they are around a program of no declaration
        ours = _go_words(make(_GO_NO_PROGRAM, test, secret))
        untrusted = (
            _go_test_imports(program, test)[2]
            or _go_unsafe(program)
            or _go_hooks(program)
            or _go_predeclared(program, ours)
        )
        if make is _go_test_unit:
            return Unit("go-test", {"main_test.go": make(program, test, secret)},
                        RECIPES["go-test"].run, nonce, untrusted)  # fmt: skip
        return Unit("go", {"main.go": make(program, test, secret)}, RECIPES["go"].run,
                    nonce, untrusted)  # fmt: skip
    if language == "rust":
        source, lines = _rust_unit(program, test)
        return Unit("rust-test", {"main.rs": source}, RECIPES["rust-test"].run,
                    "".join(sorted(lines)), compiled_eq.rust_untrusted(program, test),
                    unordered=True)  # fmt: skip
    raise ValueError(f"no build for language {language!r}")


def lifted_unit(program: str, test: str, shape: lifted.Plan) -> Unit:
    """A C++ assert test lifted out of the program's process: the program with the recorder
    (``reward_api.verify.lifted``), a build like a stdio program's (no nonce, cached by
    content), its lines read on the pass channel. Where the judge depends on the types
    the calls return, the judge of the types the program's declarations spell
    (``lifted.guess_cpp_types``) is its guess: built while the recorder is."""
    using = lifted.judge_context(program)  # as the pipeline reads it, from the sample's text
    program = c_newlines(program)
    undefs = "\n".join(f"#undef {m}" for m in sorted(defined_macros(program) | {"main"}))
    source = lifted.recorder(program, test, shape, undefs)
    # a judge known before the program runs is written for the datasets' prompts (which
    # bring std in): a program cannot send the test back by bringing std in its own way
    judge = lifted.judge(test, shape, None, lifted.USING_STD) if shape.independent else None
    types = None if judge is not None else lifted.guess_cpp_types(program, test, shape)
    guess = lifted.judge(test, shape, types, using) if types is not None else None
    return Unit("cpp", {RECIPES["cpp"].source: source}, RECIPES["cpp"].run,
                lift=(test, shape, judge), lift_guess=guess)  # fmt: skip


def lifted_c_unit(program: str, test: str, shape: lifted.Plan) -> Unit:
    """A C assert test lifted out of the program's process (``reward_api.verify.lifted``,
    its C half): the program with the recorder, a build like a stdio program's (one
    compile, no nonce, cached by content), its lines read on the pass channel; the judge,
    the test's own code compiled as C apart from every program."""
    program = c_newlines(program)
    undefs = "\n".join(f"#undef {m}" for m in sorted(defined_macros(program) | {"main"}))
    source = lifted.recorder_c(program, test, shape, undefs)
    headers = lifted.includes_c(program)
    judge = lifted.judge_c(test, shape, None, headers) if shape.independent else None
    types = None if judge is not None else lifted.guess_c_types(program, test, shape)
    guess = lifted.judge_c(test, shape, types, headers) if types is not None else None
    return Unit("c", {RECIPES["c"].source: source}, RECIPES["c"].run,
                lift=(test, shape, judge), lift_guess=guess)  # fmt: skip


def lifted_go_unit(
    program: str, test: str, shape: lifted_go.Plan | lifted_go_testify.Plan
) -> Unit | None:
    """A Go assert test lifted out of the program's process (``reward_api.verify.lifted_go``,
    MBGP's shape; ``lifted_go_testify``, HumanEval-X's): the program with the test's
    imports (``_go_test_imports``, each package the test names kept used, as the test
    would) and the recorder, a build like a stdio program's; for MBGP's shape its judge,
    the test's own code (HumanEval-X's is decided on the host). None, so that the test
    runs beside the program as before, where the program would change what the
    recorder's or the test's words mean: it declares a predeclared identifier, imports a
    package under a name the test uses for another one or for one this module has no use
    for, or opens with no package clause and imports that ``_go_header`` reads; for
    HumanEval-X's shape also where it declares a function ``go test`` would run beside the
    test (``lifted_go_testify.runs_under_go_test``)."""
    from reward_api.verify import lifted_go_testify  # it reads Go's values with lifted_go_host

    testify = isinstance(shape, lifted_go_testify.Plan)
    unnamed: frozenset[str] = frozenset()
    if testify:
        program, unnamed = _go_without_testify(program)
    imports, uses, untrusted = _go_test_imports(program, test)
    if unnamed:
        imports, uses = _go_unbound(imports, uses, unnamed)
    if untrusted or _go_header(program) is None:
        return None
    tag = lifted.tag(program, test)
    if testify and lifted_go_testify.runs_under_go_test(program):
        return None
    code = _GO_LITERAL.sub(" ", test)
    named = {m.group(1) for m in _GO_QUALIFIER.finditer(code)} - set(_GO_TOP_DECL.findall(code))
    for name in sorted(named & _go_program_imports(program).keys()):
        if name not in _GO_TEST_PACKAGES:
            return None
        uses += f"var _ = {name}.{_GO_TEST_PACKAGES[name][1]}\n"
    mine = lifted_go_testify.RECORDER_IMPORTS if testify else lifted_go.RECORDER_IMPORTS
    own = "; ".join(f'__cr_{n}_{tag} "{path}"' for n, path in mine)
    source = _go_imports(program, own + (f"; {imports}" if imports else ""))
    if isinstance(shape, lifted_go_testify.Plan):
        recorder = lifted_go_testify.recorder(tag, shape, uses)
    else:
        recorder = lifted_go.recorder(tag, shape, uses)
    # the recorder runs the test's calls: the words of its code and the test's are ours
    if _go_predeclared(program, _go_words(recorder) | _go_words(test) | _go_words(own)):
        return None
    if isinstance(shape, lifted_go_testify.Plan):  # built by ``go test -c``, as beside the test
        recorded = source + recorder
        return Unit("go-test", {RECIPES["go-test"].source: recorded}, RECIPES["go-test"].run,
                    lift=(test, shape, None))  # fmt: skip
    judge_imports, judge_uses, _ = _go_test_imports("", test)
    return Unit("go", {RECIPES["go"].source: source + recorder},
                RECIPES["go"].run,
                lift=(test, shape, lifted_go.judge(test, shape, judge_imports, judge_uses)))  # fmt: skip


def _lifted_one(problem: Problem, program: str, test: str) -> Unit | None:
    """The lifted unit of an assert test whose shape allows it, or None."""
    entries = problem.entry_points or ()
    if problem.language == "cpp" and _ASSEMBLED_HARNESS:
        if problem.entry_points is not None:
            shape = lifted.plan(test, entries)
        else:  # the contract's default: read from the test alone
            shape = lifted.plan(test, lifted.default_entry_points(test))
            shape = dataclasses.replace(shape, guessed=True) if shape else None
        if shape is None:
            return None
        shape = dataclasses.replace(shape, host=lifted_c_host.checks(test, shape, cpp=True))
        return lifted_unit(program, test, shape)
    if problem.language == "c" and _ASSEMBLED_HARNESS:
        if problem.entry_points is not None:
            shape = lifted.plan(test, entries, "c")
        else:
            shape = lifted.plan(test, lifted.default_entry_points_c(test), "c")
            shape = dataclasses.replace(shape, guessed=True) if shape else None
        if shape is None:
            return None
        called = {m.group(0) for a, _b in shape.calls if (m := re.match(r"\w+", test[a:]))}
        if lifted.c_returns_unwritten(program, called):
            return None
        shape = dataclasses.replace(shape, host=lifted_c_host.checks(test, shape))
        return lifted_c_unit(program, test, shape)
    if problem.language == "go":
        from reward_api.verify import lifted_go_testify

        go_shape = lifted_go.plan(test, entries) or lifted_go_testify.plan(test, entries)
        return lifted_go_unit(program, test, go_shape) if go_shape is not None else None
    if problem.language == "rust":
        rust_shape = lifted_rust.plan(test, entries)
        if rust_shape is None or lifted_rust.program_unlifted(program, test):
            return None  # beside the program, where the same make a pass untrusted
        return lifted_rust_unit(program, test, rust_shape)
    return None


def lifted_rust_unit(program: str, test: str, shape: lifted_rust.Plan) -> Unit:
    """A Rust assert test lifted out of the program's process (``reward_api.verify.lifted_rust``):
    the program with the recorder, built with the test harness like the unit beside the
    test (the program's own ``fn main`` stays unused), with no nonce and cached by content;
    its lines read on the pass channel and decided on the host. ``lift_line``: the first
    line of the recorder, so that a compile error there (and not in the program's lines)
    sends the test back beside the program."""
    tag = lifted.tag(program, test)
    tail = lifted_rust.recorder(tag, shape, _rust_test_uses(test, program), rust_forwards())
    return Unit("rust-test", {"main.rs": f"{program}\n{tail}"}, lifted_rust.recorder_run(tag),
                lift=(test, shape, None), lift_line=program.count("\n") + 2)  # fmt: skip


def call_unit(
    language: str, program: str, class_name: str | None, fn_name: str, arity: int | None = None
) -> Unit:
    """The program with the harness that calls its entry point (``reward_api.verify.calls``;
    ``arity``: its tests' argument count, which picks among overloads)."""
    from reward_api.verify import calls

    built = calls.call_build(language, program, class_name, fn_name, arity)
    if built.refused is not None:
        return Unit(language, {}, (), refused=built.refused)
    if language == "java":
        assert built.run_class is not None
        return Unit("java", built.files, _java_run(built.run_class), built.nonce)
    link = ("-Wl,--wrap=main",) if language == "cpp" else ()
    return Unit(language, built.files, RECIPES[language].run, built.nonce, link=link)


def call_input(language: str, test: CallTest) -> str:
    """What a call test's run reads on stdin: its arguments (never its expected output)."""
    from reward_api.verify import calls

    return (
        calls.js_args(test.args)
        if language in ("javascript", "typescript")
        else calls.arg_stream(test.args)
    )


# ------------------------------------------------------------------ warm compilers
WARM_DIR = Path(__file__).with_name("warm")
WARM_MODES = {"java": "javac", "typescript": "tsc", "javascript": "js"}
"""Recipes built by a warm server in a compile cell, and the server's mode for each."""
COMPILED_APART = frozenset({*WARM_MODES, "rust", "rust-test"})
"""Recipes compiled in a compile cell, not in the cell that runs the program: the warm
servers, and rustc, whose parallel code generation would otherwise share the one core of
a run cell (``compile_cell_cpus``); the run cell unpacks the artifact (``RUST_FAST``
says what Rust's recipes add to ``-O``)."""


def compile_cell_cpus() -> float:
    """A compile cell's CPU quota: two cores where the host has them. A compile runs the
    trusted toolchain alone, under the build's own time limit; a test never runs there."""
    return float(min(2, os.cpu_count() or 1))


SERVER_FILES = {"java": "CompileServer.java", "typescript": "compile-server.js",
                "javascript": "compile-server.js"}  # fmt: skip


@functools.cache
def _server_source(name: str) -> str:
    return (WARM_DIR / name).read_text()


def compile_server(recipe: str) -> dict[str, Any] | None:
    """The warm server of a recipe (the runner's ``_CompileServer`` spec), or None when the
    recipe compiles with one process per build in the cell that runs it."""
    if recipe not in WARM_MODES:
        return None
    name = SERVER_FILES[recipe]
    files = {name: _server_source(name)}
    if recipe == "java":  # Java's source launcher compiles the server once, at its start
        start = ["java", *JVM_FAST[:2], "-Xmx768m", *JVM_SMALL, name]
        return {"files": files, "start": start, "env": {"MALLOC_ARENA_MAX": "1"},
                "memory_mb": COMPILE_MEMORY_MB + JVM_EXTRA_MB, "max_procs": MAX_PROCS}  # fmt: skip
    return {"files": files, "start": ["node", name, WARM_MODES[recipe]], "env": {},
            "memory_mb": COMPILE_MEMORY_MB, "max_procs": MAX_PROCS}  # fmt: skip


ONE_PROCESS = frozenset({"c", "cpp", "go", "go-test", "rust", "rust-test"})
"""Recipes whose runs are one process running one program (the runner's
``_one_process_exec``: threads, but no child and no second ``execve``). A program that
ran its own test binary again as a child, its pass channel closed on exec, read the
failure messages of that run (libtest's ``right: `5` ``, testify's ``expected: 5``,
``assert``'s text), which print the test's expected values, and answered the real run
from them: a self-run oracle no text scan sees (``Command::new("./prog")``,
``exec.Command(os.Args[0])``)."""


def build_spec(
    unit: Unit, memory_mb: int, compile_time_s: float = COMPILE_TIME_S
) -> dict[str, Any]:
    """The runner's build for a unit (``_Builds`` in runner.py)."""
    recipe = RECIPES[unit.recipe]
    compile_argv = list(recipe.compile) if recipe.compile else None
    run = list(unit.run)
    spec: dict[str, Any] = {"files": unit.files, "run": run, "env": dict(recipe.env),
                            "time_s": compile_time_s, "memory_mb": COMPILE_MEMORY_MB,
                            "remove": [f for f in unit.files if f in recipe.remove or
                                       (unit.recipe == "java" and f.endswith(".java"))]}  # fmt: skip
    if unit.recipe in ("c", "cpp") and len(unit.files) > 1:  # an assert test's harness
        spec.update(_c_assert_build(unit))
        compile_argv = spec.pop("compile")
    elif unit.lift is not None and unit.recipe in ("c", "cpp"):
        compile_argv = _lifted_build(recipe)
    if unit.link:
        assert compile_argv is not None
        compile_argv += list(unit.link)
    if unit.recipe == "java":
        assert compile_argv is not None
        compile_argv[-1:] = sorted(unit.files)
        run.insert(1, f"-Xmx{memory_mb}m")
        spec["as_extra_mb"] = JVM_EXTRA_MB
    if unit.recipe in ("go", "go-test"):
        spec["as_extra_mb"] = GO_EXTRA_MB
    if run[:1] == ["node"]:
        spec["as_extra_mb"] = NODE_EXTRA_MB
    if unit.recipe in ONE_PROCESS:
        spec["one_process"] = True
        if unit.recipe in ("c", "cpp") and len(unit.files) > 1:  # an assert test beside it
            spec["one_process"] = "no_fault_handlers"  # runner: ``_one_process_filter``
    spec["max_procs"] = MAX_PROCS
    spec["compile"] = compile_argv
    if unit.recipe in WARM_MODES:
        spec["serve"] = WARM_MODES[unit.recipe]
    if recipe.seed_cache:
        spec["seed_cache"] = list(recipe.seed_cache)
    return spec


def _compile_flags(recipe: Recipe) -> list[str]:
    """A C/C++ recipe's compiler and options, without its files and its link's options."""
    assert recipe.compile is not None
    drop = ("-o", "prog", recipe.source, "-lm", GOLD, "-s")
    return [a for a in recipe.compile if a not in drop]


def _c_assert_flags(recipe_name: str) -> list[str]:
    """The compiler and the options of a C/C++ assert unit's build beside the test
    (``_c_assert_build``): the recipe's, and these."""
    flags = _compile_flags(RECIPES[recipe_name])
    cpp = recipe_name == "cpp"
    # C: every static function of the unit, inlined or not, keeps a symbol in main.o, so
    # ``_C_OBJECT_AWK`` reads the program's ``static int strcmp`` there (the code of the
    # functions that ran is unchanged: the copies are only emitted beside it)
    keep = [] if cpp else ["-fkeep-static-functions", "-fkeep-inline-functions"]
    # and every static variable, read or not: ``static int (*const strcmp)(const char *,
    # const char *) = mine;`` (or a C++ lambda object) is folded into direct calls of
    # ``mine`` and leaves no symbol otherwise (the precompiled header stays valid)
    keep.append("-fno-toplevel-reorder")
    # a function that falls off its end or reaches ``__builtin_unreachable`` (a ``_Noreturn``
    # one that returns) traps: GCC compiled the test's ``main`` that called it to nothing,
    # so the harness ran whatever gold placed next (``<iostream>``'s initializer returns 0)
    # and took it for the test's ``main`` returning 0: ``int add(int a, int b) { }`` was
    # paid 1.0 (the precompiled header stays valid)
    keep += ["-fsanitize=return,unreachable", "-fsanitize-undefined-trap-on-error"]
    return [*flags, *keep]


def _c_assert_build(unit: Unit, header: str | None = None) -> dict[str, Any]:
    """The build of a C/C++ assert unit. The unit (program, then test) comes on stdin,
    then the harness (UTF-8, a lone surrogate as ``?``, as a written file would hold it).
    The unit is written to its file and compiled with the recipe's flags, stdin
    ``/dev/null``, while the harness stays in the pipe: no file of the build folder holds
    it while the compiler and the assembler run (``#include "/proc/self/fd/0"`` finds
    nothing). The unit is preprocessed once, and beside the compile of that text the
    program's own lines of the same text are read (``_C_DEPTH_AWK``, ``_C_TEXT_AWK``); once
    the unit is compiled, its object is read
    (``_C_OBJECT_AWK``: its sections, and every symbol it defines against the root's list
    of library functions) while the rest of the pipe, the harness, is written out and
    linked with ``--wrap=main``. A build whose program defines what the C or C++ library
    defines, writes assembly, renames symbols, or adds to the standard library's
    namespaces fails with the reason (no code of the program's runs in a build, so the
    checks may run beside the compile and the link: the program runs only when all
    passed). A compiler of the unit that read any of the harness from the pipe (through
    the shell's ``/proc/PID/fd/0``) left it short, and the build fails. For C about 16
    processes, the checks' beside the compiler's and the linker's (which gains nothing
    within a run cell's one core: sandbox_images/README.md) (31 before, in turn: the program was
    preprocessed a second time alone, and checked by ``grep``, ``sed``, ``nm``, ``sort``
    and ``comm``)."""
    recipe = RECIPES[unit.recipe]
    assert recipe.compile is not None
    harness = next(f for f in unit.files if f.startswith("harness."))
    unit_bytes = unit.files[recipe.source].encode("utf-8", "replace")
    harness_bytes = unit.files[harness].encode("utf-8", "replace")
    cc, *flags = _c_assert_flags(unit.recipe)  # with the options it says why it keeps
    cpp = unit.recipe == "cpp"
    source = "c++" if cpp else "c"
    # the unit's own file (``cr_unit.c``): it holds the program and the test, never the
    # harness, which stays in the pipe until the unit is compiled. The unit is preprocessed
    # once (``main.i``, C++ ``main.ii``), and that very text is what the compiler compiles
    # and what the checks read (``_C_DEPTH_AWK``: the program's first lines, at include
    # depth 0), the checks beside the compile, on the other core. Preprocessed twice, the
    # check's text and the compiler's could differ: the preprocessor sees the file system
    # (``__has_include``, in any spelling: a macro or ``##`` pastes it), and the build
    # folder changed between the two (the check's own ``main.ii`` was gone once it had
    # read it), so a red team's ``#if !__has_include("main.ii")`` around an
    # ``__assert_fail`` overload or an asm label, after a few constexpr loops that held the
    # compiler's preprocessor back, showed the check none of it while the compiler compiled
    # it all (round 7). C++ keeps its precompiled header (``-fpch-preprocess``: the text
    # names it, the compiler loads it) unless a line of the program comes before it (a
    # ``#pragma GCC target`` would make it invalid where the compiler loads it): the unit
    # is then preprocessed again without it. ``header``: the precompiled header of the
    # program's own first includes (``reward_api.verify.headers``), whose lines the unit
    # has blank, read first as they were (``-include``), its pragma the text's first line
    unit_file = f"cr_unit.{'cc' if cpp else 'c'}"
    kept = "main.ii" if cpp else "main.i"
    pch = ["-fpch-preprocess"] if cpp else []
    if header is not None:
        pch += ["-include", header]
    expand = [cc, *flags, *pch, "-E", "-x", source, unit_file, "-o", kept]
    again = ""
    if cpp:
        whole = [a for a in expand if a not in (f"-I{PCH_DIR}", "-fpch-preprocess")]
        again = (
            f"if awk {shlex.quote(_PCH_LATE_AWK)} {kept}; then "
            f"{shlex.join(whole)} < /dev/null; fi\n"
        )
    # to assembly, then assembled: an asm statement of any spelling leaves ``#APP`` in the
    # compiler's own output, a second line behind the text check's words (red teams hid an
    # asm label and the assembly it named from that check's literal reader three times);
    # it fails the build in the text check's turn, after the object's
    compile_unit = [cc, *flags, "-x", f"{source}-cpp-output" if cpp else "cpp-output",
                    kept, "-S", "-o", "main.s"]  # fmt: skip
    assemble = [cc, "-c", "-o", "main.o", "main.s"]
    libs = ["-lm"] if "-lm" in recipe.compile else []
    # the harness first (its .preinit_array entry runs first), every GOT slot resolved at
    # start and then read-only (RELRO, sealed by the harness: ``_X86_64_SEAL``)
    link = [cc, "-O2", "-pipe", GOLD, "-s", "-o", "prog", harness, "main.o", "-Wl,--wrap=main"]
    link.append("-Wl,-z,now")
    link += libs
    # the program's lines, and two more: the blank line and comment the unit puts after it
    last = (unit.program or "").count("\n") + 3
    # the checks run beside the compile (the text's) and the link (the object's): no code
    # of the program's runs in a build, and each reads only what it checks. The build
    # fails when any fails, with one message, in the order they ran before: the
    # compiler's, then the object's, then the text's (and the assembly's), then the
    # linker's (a sample's
    # latency was their sum, with a second core idle)
    script = (
        "set -e\n"
        f'head -c "$1" > {unit_file}\n'
        f"{shlex.join(expand)} < /dev/null\n"
        f"{again}"
        "(\n"
        f"awk -v last={last} {shlex.quote(_C_DEPTH_AWK)} {kept} | "
        f"awk -v cpp={int(cpp)} {shlex.quote(_C_TEXT_AWK)}\n"
        ") 2> cr_text &\n"
        "text=$!\n"
        f"built=0; {shlex.join(compile_unit)} < /dev/null || built=$?\n"
        f'[ "$built" -ne 0 ] || {shlex.join(assemble)} < /dev/null || built=$?\n'
        'if [ "$built" -ne 0 ]; then wait $text || :; exit "$built"; fi\n'
        "app=0; ! grep -q '^#APP' main.s || app=1\n"
        f"(\n{c_object_check(cc, unit.entry_points, weak_ok=cpp and _no_weak(unit.program), bare=not cpp)}) &\n"
        "object=$!\n"
        f'head -c "$2" > {harness}\n'
        f'if [ "$(wc -c < {harness})" -ne "$2" ]; then\n'
        "  wait $object || :; wait $text || :\n"
        '  echo "codereward: the harness was read before the link" >&2\n  exit 1\nfi\n'
        f"linked=0; {shlex.join(link)} 2> cr_link || linked=$?\n"
        # every job waited for before the build ends, whatever failed: none outlives it
        "checked=0; wait $object || checked=$?\n"
        'if ! wait $text; then [ "$checked" -ne 0 ] || cat cr_text >&2; exit 1; fi\n'
        '[ "$checked" -eq 0 ] || exit "$checked"\n'
        'if [ "$app" -ne 0 ]; then\n'
        '  echo "codereward: the program writes assembly (an asm statement reached the '
        "compiler's output): the test's calls could reach its code\" >&2\n  exit 1\nfi\n"
        'if [ "$linked" -ne 0 ]; then cat cr_link >&2; exit "$linked"; fi\n'
    )
    lengths = (len(unit_bytes), len(harness_bytes))
    return {
        "files": {},
        "compile": ["sh", "-c", script, "cr", *map(str, lengths)],
        "input": (unit_bytes + harness_bytes).decode("utf-8"),
        "remove": [
            "main.o",
            "main.s",
            harness,
            "main.i",
            "main.ii",
            unit_file,
            "cr_libs",
            "cr_link",
            "cr_text",
        ],
    }


def header_flags() -> list[str]:
    """The options of a C++ unit's compile that a precompiled header must be built with
    (``reward_api.verify.headers``): the compiler and its flags, no file or link option."""
    return _compile_flags(RECIPES["cpp"])


def with_header(unit: Unit, spec: dict[str, Any], headers: Any) -> dict[str, Any]:
    """``spec`` (``build_spec``'s, of ``unit``) compiling against the precompiled header of
    its source's first includes where ``headers`` (``reward_api.verify.headers.Headers``)
    has one: a C++ program's own build, a lifted test's recorder, or an assert build beside
    the test (each with its own options, so each its own header); else ``spec``."""
    recipe = RECIPES["cpp"]
    own = recipe.compile
    if unit.recipe != "cpp" or own is None or recipe.source not in unit.files:
        return spec
    if "input" not in spec and set(unit.files) != {recipe.source}:
        return spec
    if unit.lift is None and "input" not in spec and spec.get("compile") != [*own, *unit.link]:
        return spec
    beside = "input" in spec  # an assert build beside the test (``_c_assert_build``)
    flags = _c_assert_flags("cpp") if beside else header_flags()
    # beside the test, the seeds of the program's own options: GCC loads them with the
    # beside build's (its added options are code generation's, which a header's parse
    # does not hold: no -Winvalid-pch), so the first sight of a prompt whose test runs
    # beside it parses no seed's headers (a second set of seeds, built in the checker cell,
    # kept judges waiting: ``Headers.seed_flags``)
    found = headers.apply(unit.files[recipe.source], flags, header_flags() if beside else None)
    if found is None:
        return spec
    source, header = found
    if beside:
        built = _c_assert_build(
            dataclasses.replace(unit, files={**unit.files, recipe.source: source}), header
        )
        built["compile"] = [*built["compile"], *unit.link]
        return {**spec, **built}
    if unit.lift is not None:
        compile_argv = _lifted_build(recipe, header)
    else:
        compile_argv = list(spec["compile"])
        at = len(own) - 1  # the source, last of the recipe's
        compile_argv[at:at] = ["-include", header]
    return {**spec, "files": {recipe.source: source}, "compile": compile_argv}


def _lifted_build(recipe: Recipe, header: str | None = None) -> list[str]:
    """A lifted test's recorder (``reward_api.verify.lifted``): compiled with the recipe's
    flags, then its object checked (``c_object_check`` with ``preinit``: the recorder's
    own one ``.preinit_array`` entry and nothing else before ``main``), then linked. The
    recorder writes the call sites' types from that entry, before any code of the
    program's: only that line decides whether the test goes back beside the program, so
    no code of the program's may run before it."""
    assert recipe.compile is not None
    cc, *flags = _compile_flags(recipe)
    libs = ["-lm"] if "-lm" in recipe.compile else []
    include = ["-include", header] if header is not None else []
    script = (
        "set -e\n"
        f"{shlex.join([cc, *flags, *include, '-c', recipe.source, '-o', 'main.o'])}\n"
        f"{c_object_check(cc, None, preinit=True)}"
        f"{shlex.join([cc, '-O2', '-pipe', GOLD, '-s', '-o', 'prog', 'main.o', *libs])}\n"
        "rm -f main.o\n"
    )
    return ["sh", "-c", script]


C_LIBRARIES = ("libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1")
"""The runtime libraries whose exported functions a C/C++ assert program may not define."""

C_LIBRARY_SYMBOLS = "/usr/lib/codereward/c-library-symbols"
"""In the C/C++ root: the functions ``C_LIBRARIES`` export, one per line, sorted in the C
locale, written once when the root is built (``build-language-root.sh``, which lists the
same libraries: a test keeps the two equal). Reading the four libraries' dynamic symbol
tables per build was most of what a C assert build paid beyond plain gcc."""


_C_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _no_weak(program: str | None) -> bool:
    """Whether a C++ program can declare nothing weak of its own: neither the word ``weak``
    (``__attribute__((weak))``, ``#pragma weak``, ``_Pragma``) nor ``##`` (which could paste
    it) is in its text."""
    return program is not None and "weak" not in program.lower() and "##" not in program


def c_object_check(
    cc: str,
    entry_points: tuple[str, ...] | None,
    preinit: bool = False,
    weak_ok: bool = False,
    bare: bool = False,
) -> str:
    """Shell: ``main.o``'s sections and symbols (one ``readelf``) read by ``_C_OBJECT_AWK``.
    ``entry_points`` None: no library list (a lifted recorder, whose program may define
    what it likes: no test runs in its process); else the list, made here from the
    libraries where the root predates it (``C_LIBS_FALLBACK``). ``preinit``: the object
    must hold exactly one ``.preinit_array`` entry (the recorder's), else none.
    ``weak_ok``: a weak C++ symbol named as a library function is the library's own
    template or inline code instantiated from its headers (``str + other`` emits
    ``std::operator+<char>`` weak, which libstdc++ also exports: an honest program was
    refused), not the program's: the program declares nothing weak (``_no_weak``), and
    ``_C_TEXT_AWK`` refuses what else could give a library name a body of the program's
    (a declaration into ``std``, a specialisation of its templates). ``entry_points``:
    the problem's own names, whose definitions the test's calls are meant to reach: a C++
    function's by its mangled name (HumanEval-X's CPP/23 ``int strlen(string)``), and with
    ``bare`` (C, where a function's symbol is its name) by that name (an exercise that asks
    for ``atoi`` or ``strcpy`` itself, whose test runs beside the program, was refused)."""
    if entry_points is None:
        libs = ""
        shell = ""
    else:
        libs = '"$L"'
        shell = (
            C_LIBS_FALLBACK.replace("LIBRARY_SYMBOLS", C_LIBRARY_SYMBOLS)
            .replace("LIBRARIES", " ".join(C_LIBRARIES))
            .replace("CC", shlex.quote(cc))
        )
    entry = shlex.quote(" " + " ".join(entry_points or ()) + " ")
    return (
        f"{shell}readelf -SWs main.o | awk -v preinit={int(preinit)} -v weak_ok={int(weak_ok)} "
        f"-v bare={int(bare)} "
        f"-v entry={entry} "
        f"{shlex.quote(_C_OBJECT_AWK)} - {libs}\n"
    )


C_LIBS_FALLBACK = r"""L=LIBRARY_SYMBOLS
if [ ! -s "$L" ]; then  # a root built before the list was (the same list, made here)
  for l in LIBRARIES; do
    f=$(CC -print-file-name=$l); [ "$f" = "$l" ] || nm -D --defined-only "$f"
  done | awk 'NF == 3 && $2 ~ /^[TtWwi]$/ { sub(/@.*/, "", $3); print $3 }' | LC_ALL=C sort -u > cr_libs
  L=cr_libs
fi
"""
"""Shell: ``$L``, the root's ``C_LIBRARY_SYMBOLS``, or the same list made from the
libraries where the root predates it."""

_C_OBJECT_AWK = r"""
function bad(why) { print "codereward: " why > "/dev/stderr"; failed = 1; exit 1 }
NR != FNR { if ($0 in cand) own[$0] = 1; next }
/^Symbol table/ { symbols = 1; next }
!symbols && /^ *\[ *[0-9]+\] / {
  sub(/^ *\[ *[0-9]+\] */, "")
  if ($1 ~ /^\.(preinit_array|init)(\.|$)/) {
    if (preinit && $1 == ".preinit_array" && $5 == "000008" && !seen++) next
    bad(preinit ? "the program adds to .preinit_array or .init: its code would run before the recorder's types line" \
                : "the unit has a .preinit_array or .init section: code of the program's would run before the harness's")
  }
  next
}
symbols && /^ *[0-9]+: / && NF >= 8 {
  if ($4 == "IFUNC") bad(preinit ? "the program defines an ifunc: its resolver would run before the recorder's types line" \
                                 : "the unit defines an ifunc: its resolver would run before the harness's code")
  if ($7 == "UND" || $4 == "SECTION" || $4 == "FILE") next
  name = $8; sub(/@.*/, "", name)
  if (!(weak_ok && $5 == "WEAK" && name ~ /^_Z(T[hv]n?[0-9]+_(n?[0-9]+_)?)?(N[rVKRO]*)?(S[tabsiod]|9__gnu_cxx)/) \
      && !(bare && index(entry, " " name " ") > 0))
    cand[name] = 1
  if (name ~ /^_Z/ && $5 != "WEAK" && match(name, /^_ZL?[0-9]+/)) {
    n = substr(name, 1, RLENGTH); sub(/^_ZL?/, "", n); b = substr(name, RLENGTH + 1, n + 0)
    if (index(entry, " " b " ") == 0) cand[b] = 1
  }
}
END {
  if (failed) exit 1
  if (preinit && !seen) bad("the recorder's .preinit_array entry is missing")
  k = 0; for (name in own) if (k++ < 5) names = names " " name
  if (k) bad("the program defines functions of the C or C++ library, which the test would call instead:" names)
}
"""
"""awk over ``readelf -SWs main.o`` (and then the library list, when one is given): the
unit's object may hold no ``.preinit_array`` or ``.init`` section however the program
spelled its name (``".prein" "it_array"`` escapes ``_C_TEXT_AWK``'s words; a recorder's
object exactly its one 8-byte entry), and no ifunc (``__attribute__((__ifunc__("r")))``:
its resolver runs while the loader relocates, with the GOT still writable): the harness's
``.preinit_array`` entry must be the first code of the executable to run
(``_X86_64_SEAL``).

With a library list, the build fails when the unit's object (for C compiled with every
static and inline function kept: one the optimizer inlined would leave no symbol)
defines, **as a symbol of any kind**, a name that the C, math, C++ or GCC runtime library
exports as a function (``C_LIBRARY_SYMBOLS``): a symbol version (``strcmp@@V``) counts
by its name. The unit is one object, so the test's own calls bind to such a definition,
whatever its spelling (a macro that pastes ``strcmp``, an asm label, ``extern "C"``): a C
program's ``int strcmp(...) { return 0; }`` (or a ``static`` one) passed every
``assert(strcmp(f(x), "...") == 0)``; a C++ ``extern "C" memcmp`` made ``std::string``'s
comparisons say equal; a replaced ``operator new`` or ``malloc`` decides where the test's
expected values live. Of any kind: ``nm``'s letters, read before, left out a function in
``section(".pdata")`` (``P``), three bytes of machine code in ``.rodata`` (``R``: gold
maps it executable), a function pointer named ``strcmp`` (kept by ``-fno-toplevel-reorder``
though every call was folded), a weak object and a unique symbol. A C++ symbol of the global namespace counts by its name (``_Z6strcmpPcPKc``, an
overload that a test's ``char *`` argument would prefer, is ``strcmp``), except one named
as an entry point of the problem (checked by its mangled symbol alone). A weak C++ symbol
does not count: it is an inline function or a template's instance, which every unit that
uses it defines (``std::operator+`` of a ``const char *`` and a ``std::string``, which
libstdc++ exports too); a specialisation in ``std`` is ``_C_TEXT_AWK``'s. Only a weak
symbol of ``std`` (``_ZSt``, ``_ZNSt``, ``_ZNKSt``, the ``Sa``/``Ss``/... abbreviations,
a thunk of one) or ``__gnu_cxx``, namespaces the program cannot open: a red team's
``__attribute__((noinline)) inline void *operator new(size_t)`` is weak ``_Znwm`` of
the global namespace, which libstdc++ exports, and kept the address of each allocation
so that ``sort_array`` returned the test's expected vector, built just before the call
(paid 1.0 beside the test). Honest programs define none (MBXP's C++ samples: none)."""

_PCH_LATE_AWK = r"""
/^#pragma GCC pch_preprocess / { late = other; exit }
NF && !/^# [0-9]+ "/ { other = 1 }
END { exit !late }
"""
"""awk over a C++ unit preprocessed with ``-fpch-preprocess``: exit 0 when a line comes
before the precompiled header's ``#pragma GCC pch_preprocess`` (the program's ``#pragma
GCC target`` before its ``#include <bits/stdc++.h>``), which the compiler refuses (the
pragma must be first): the unit is then preprocessed without the header."""

_C_DEPTH_AWK = r"""
/^# [0-9]+ "/ { s = $0; sub(/^# [0-9]+ ".*"/, "", s)
  if (s ~ /(^| )1( |$)/) d++; else if (s ~ /(^| )2( |$)/) d--
  if (d == 0) n = $2 - 1
  next }
d == 0 && ++n <= last { print }
"""
"""awk over the unit's preprocessed text: the program's own lines (the main file's, at
include depth 0, its first ``last`` lines: the program comes first in the unit; a line
marker of the program's own could move them, ``line_marker_untrusted``), for
``_C_TEXT_AWK``, which joins them (a pattern may span lines)."""

_C_TEXT_AWK = r"""
function bad(why) { print "codereward: " why > "/dev/stderr"; failed = 1; exit 1 }
function word(c) { return c ~ /[_$]/ || (c != "" && c !~ /[[:space:][:punct:][:cntrl:]]/) }
function blank(line,   out, n, i, j, c, id, delim, e, directive) {
  out = ""; n = length(line); i = 1; directive = line ~ /^[ \t\f\v]*(#|%:)/
  if (rawend != "") {
    e = index(line, rawend)
    if (e == 0) return ""
    out = "\"\""; i = e + length(rawend); rawend = ""
    while (i <= n && word(substr(line, i, 1))) i++
  }
  while (i <= n) {
    c = substr(line, i, 1)
    if (c ~ /[0-9]/ || (c == "." && substr(line, i + 1, 1) ~ /[0-9]/)) {
      j = i + 1
      while (j <= n) {
        c = substr(line, j, 1)
        if (c ~ /[eEpP]/ && substr(line, j + 1, 1) ~ /[-+]/) j += 2
        else if (word(c) || c == ".") j++
        else if (c == "'" && cpp && substr(line, j + 1, 1) ~ /[A-Za-z0-9_]/) j += 2
        else break
      }
      out = out substr(line, i, j - i); i = j; continue
    }
    if (word(c)) {
      j = i + 1
      while (j <= n && word(substr(line, j, 1))) j++
      id = substr(line, i, j - i); out = out id; i = j
      if (substr(line, i, 1) == "\"" && id ~ /^(u8|u|U|L)?R$/) {
        e = index(substr(line, i + 1), "(")
        if (e == 0) bad("the program holds a raw string literal this check cannot read")
        delim = substr(line, i + 1, e - 1); out = out "\"\""
        j = index(substr(line, i + e + 1), ")" delim "\"")
        if (j == 0 && directive) bad("the program holds a raw string literal that a directive leaves open")
        if (j == 0) { rawend = ")" delim "\""; return out }
        i = i + e + j + length(delim) + 2
        while (i <= n && word(substr(line, i, 1))) i++
      }
      continue
    }
    if (c == "\"" || c == "'") {
      j = i + 1
      while (j <= n && substr(line, j, 1) != c) j += substr(line, j, 1) == "\\" ? 2 : 1
      if (j > n && !directive) bad("the program holds a literal that its line leaves open")
      out = out c c; i = j + 1
      while (i <= n && word(substr(line, i, 1))) i++
      continue
    }
    out = out c; i++
  }
  return out
}
{ t = t " " $0; b = b " " blank($0) }
END {
  if (failed) exit 1
  s = t
  gsub(/(section|__section__)[[:space:]]*\([[:space:]]*"[[:alnum:]_.$]*"[[:space:]]*\)/, "cr_section", s)
  if (s ~ /(^|[^[:alnum:]_])(section|__section__)[[:space:]]*\([[:space:]]*[[:alnum:]_]*"/)
    bad("the program names a section other than by one plain string (letters, digits, _ . $): a section name reaches the assembler as written")
  t = b
  gsub(/using[[:space:]]+namespace/, "using_ns", t)
  if (t ~ /(^|[^[:alnum:]_])(asm|__asm|__asm__)([^[:alnum:]_]|$)/ || t ~ /#[[:space:]]*pragma[[:space:]]+redefine_extname/)
    bad("the program writes assembly or renames symbols (asm, #pragma redefine_extname): the test's calls could reach its code")
  if (t ~ /(^|[^[:alnum:]_])(weakref|__weakref__|symver|__symver__)([^[:alnum:]_]|$)/)
    bad("the program declares a weakref or a symbol version: the test's calls could reach its code")
  s = t
  gsub(/::/, "\001\001", s)
  gsub(/:[[:space:]]*__assert_(perror_)?fail[[:space:]]*\(/, ":", s)
  gsub(/(^|[^[:alnum:]_])else[[:space:]]+__assert_(perror_)?fail[[:space:]]*\(/, " else ", s)
  if (s ~ /(^|[^[:alnum:]_])__assert(_fail|_perror_fail)?([^[:alnum:]_]|$)/)
    bad("the program declares or names __assert_fail, which the test's assert calls")
  if (t ~ /(^|[^[:alnum:]_])(noreturn|__noreturn__|_Noreturn)([^[:alnum:]_]|$)/)
    bad("the program declares a function noreturn: a call of it lets the compiler end the test's main there, and the harness runs what follows")
  if (cpp && t ~ /(^|[^[:alnum:]_$])_Z[[:alnum:]_$]/)
    bad("the program names an identifier that starts with _Z, a C++ symbol's mangled form: an extern \"C\" function of that name is the library's function")
  if (cpp && t ~ /(^|[^[:alnum:]_])operator[[:space:]]*(new|delete)([^[:alnum:]_]|$)/)
    bad("the program names operator new or operator delete: a replacement of its own (inline, so no symbol is left) would see where the test's expected values live")
  if (t ~ /(^|[^[:alnum:]_])(ifunc|preinit_array)([^[:alnum:]_]|$)/)
    bad("the program declares an ifunc or a .preinit_array entry: its code would run before the harness's")
  if (t ~ /(^|[^[:alnum:]_])__builtin_(return_address|frame_address|extract_return_addr|frob_return_addr|dwarf_cfa|apply_args|apply|return|eh_return|unwind_init|setjmp|longjmp|stack_address)([^[:alnum:]_]|$)/)
    bad("the program reads or replaces its caller's frame (__builtin_return_address, __builtin_dwarf_cfa, ...): the test's code holds its expected values")
  if (cpp && (t ~ /(^|[^[:alnum:]_])namespace[^{};=]*[^[:alnum:]_](std|_[_A-Z][[:alnum:]_]*)([^[:alnum:]_]|$)/ \
      || t ~ /(^|[^[:alnum:]_])namespace[[:space:]]+[[:alnum:]_]+[[:space:]]*=[[:space:]]*(::[[:space:]]*)?(std|_[_A-Z][[:alnum:]_]*)[[:space:]]*;/ \
      || t ~ /(^|[^[:alnum:]_])template[[:space:]]*<[^;{}]*[^[:alnum:]_](std|_[_A-Z][[:alnum:]_]*)[[:space:]]*::[[:space:]]*([[:alnum:]_]+[[:space:]]*(<[^;{}()]*>)?[[:space:]]*::[[:space:]]*)*(~?[[:alnum:]_]+[[:space:]]*(<[^;{}()]*>)?[[:space:]]*(\(|\{|:[^:])|operator[^(;{}]*\()/))
    bad("the program declares into namespace std (or another of the implementation's namespaces), or specialises its templates: the test's own values would go through the program's code")
}
"""
"""awk over the program's own lines (``_C_DEPTH_AWK``), macros expanded and the
precompiled header left out, its string and character literals blanked first (``blank``,
line by line, a quote never spanning a line but in a raw string, and each line read
left to right, as GCC's lexer reads tokens: a name (letters, digits, ``_``, ``$``, any byte
past ASCII) is one token, so ``$R"(`` is a name and a string, not a raw string; a
preprocessing number (a digit or ``.`` and a digit, then name characters, ``.``, an
exponent's sign, and in C++ a ``'`` before a name character) is one, so ``1.R"(`` is a
number and a string, ``.5'0`` and ``1e+5'0`` numbers, and ``1'"'`` a number and a
character; a keyword table ``{"asm", "_Noreturn"}`` was refused as the words
themselves), but for the section rule, which reads the section's name as written.
Red teams hid an ``asm`` label of ``__assert_fail``, and the assembly it jumped to, in
each of those five spellings, when this reader took them otherwise. Where it could still
disagree it refuses: a literal its line leaves open (a directive's may: a ``#pragma``'s
text need not be tokens), a raw string a directive leaves open. Refused for inline assembly or an asm label (``int
strcmp(const char *, const char *) __asm__("mine")`` made the test's ``strcmp`` the
program's ``mine``, a name no library defines) or ``#pragma redefine_extname`` (the
same, by a pragma); ``weakref`` and ``symver`` (a static ``strcmp`` declared
``weakref("mine")`` before the test's header redeclares it sends the test's calls to
``mine`` without defining ``strcmp``); a ``section`` attribute whose name is not one
plain string of letters, digits, ``_``, ``.`` and ``$`` (GCC writes the name into its
assembly unquoted: ``section(".x\n.weakref strcmp, mine\n#")`` is assembly, as is a
``.symver`` or a ``.weak`` object written the same way); ``__assert_fail`` anywhere but
where an ``assert`` of the program's own expands (``: __assert_fail (``, C's ``else
__assert_fail (``): the test's ``assert`` calls it unqualified, so a C++ overload of the
program's (``inline void __assert_fail(const char *, const char *, int, const char *)
{}``, a better match for ``__LINE__``'s ``int`` than the C library's ``unsigned int``; or
a template; inlined, so no symbol ``_C_OBJECT_AWK`` reads) returned from every failed
assertion and was paid 1.0; the builtins that find or replace the caller's frame
(``__builtin_return_address``, ``__builtin_frame_address``, ``__builtin_dwarf_cfa``,
``__builtin_apply_args``, ``__builtin_eh_return``, ``__builtin_setjmp``, ...): a red
team's ``add`` read the immediate of the ``cmp`` after its return address through
``__builtin_dwarf_cfa() - 8``, or through ``__builtin_return_address`` pasted by a macro
(``__builtin_##x``), both unseen by the gate's ``c-reads-its-caller``, and was paid 1.0 (a
scan of the stack from a local's address remains: "Not covered"); the words ``ifunc`` and
``preinit_array`` (a resolver or a ``.preinit_array`` entry of the program's would run
before the harness's own entry seals the code: ``_X86_64_SEAL``); ``noreturn`` in any
spelling (a red team's ``__attribute__((noreturn)) add_fn *add = real_add;``: GCC emitted
nothing after the test's call through it, ``real_add`` returned into the unit's static
initializer and, through a stack slot the program had filled from its own constructor's
AVX-512 registers, into a function of its own that returned 0 to the harness: paid 1.0,
with nothing for ``-fsanitize=unreachable`` to trap).

For C++ (``cpp``) also a program whose own lines open ``namespace std`` or a reserved
namespace (``__gnu_cxx``), alias one, or declare a template specialisation of a name
qualified by one. A test builds its expected values with the standard library's templates
in the same unit, so a specialisation of the program's is what builds them: ``template <>
int *std::uninitialized_copy<const int *, int *>(...)`` saw the test's ``{4, 5}`` being
copied into its vector and copied it into the program's answer too; an ``operator==``
injected into ``std`` for a type ``compiled_eq`` does not take apart (``std::complex``)
would decide the test's comparison. ``using namespace std`` is not an opening. And a
C++ program that names ``operator new`` or ``operator delete``: ``inline void
*operator new(size_t)`` replaces the global one and, inlined at every use (C++ keeps
no inline function that is not used out of line), leaves no symbol for
``_C_OBJECT_AWK``; a red team's kept the address of each allocation, and its
``sort_array`` returned a copy of the one before its argument's: the test's expected
vector, which GCC builds first (paid 1.0 beside the test, and by plain g++). And a C++
program that names an identifier starting with ``_Z``: ``extern "C" __attribute__((used,
noinline)) inline int _ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE7compareEPKc(
const void *, const char *) { return 0; }`` is ``std::string::compare(const char *)``
by its symbol, weak and of ``std``, which ``_C_OBJECT_AWK`` takes for a library
template's instance: the test's ``f(x).compare("...") == 0`` held for every ``f``."""


# GCC's horizontal white space around a directive's ``#``: a form feed or vertical tab too (a
# red team's ``\f# 1 "/usr/include/cr.h" 1 3 4`` passed a check that knew spaces and tabs)
_HSPACE = r"[ \t\f\v]"
_LINE_MARKER = re.compile(rf"^{_HSPACE}*(?:#|%:){_HSPACE}*(?:line\b|\d)", re.M)


def line_marker_untrusted(program: str) -> str | None:
    """Why a C/C++ assert unit's pass cannot be trusted because the program writes a
    ``#line`` or GNU line-marker directive (``# 1 "/usr/include/x.h" 1 3``), or None: such
    a marker makes its own lines look like a system header's to ``_C_TEXT_AWK``.
    Honest programs write none. Read on the spliced text with its comments blanked by the
    C++ lexer (``compiled_eq.blank_cpp_comments``: a ``# 1.`` in a comment is no
    directive, and a ``"/*"`` in a string opens no comment)."""
    text = compiled_eq.blank_cpp_comments(_SPLICE.sub("", c_newlines(program)))
    if _LINE_MARKER.search(text):
        return "the program writes a #line or line-marker directive"
    return None


def artifact_key(spec: dict[str, Any], runtime: str) -> str:
    """Content hash of a build: its files, toolchain argv, environment and the runtime."""
    import hashlib
    import json

    what = [spec.get("files"), spec.get("compile"), spec.get("env"), spec.get("remove"), runtime]
    if spec.get("input"):  # a C/C++ assert build's unit and harness (``_c_assert_build``)
        what.append(spec["input"])
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()


def units_for(
    problem: Problem, program: str, indices: list[int], lift: Callable[[Unit], bool] | None = None
) -> tuple[list[Unit], list[int]]:
    """The builds of a sample and, per selected test, the build it runs (``lift``: whether a
    C, C++ or Go assert test whose shape allows may be lifted out of the program's process as this
    unit proposes: ``reward_api.verify.lifted``; None: never)."""
    if problem.language == "java":  # built in the unnamed package, as its test is
        program = compiled_eq.java_without_package(program)
    units: list[Unit] = []
    which: list[int] = []
    stdio: int | None = None
    entries: dict[tuple[str | None, str, int], int] = {}  # call tests of one entry share a build
    for i in indices:
        test = problem.tests[i]
        if isinstance(test, StdioTest):
            if stdio is None:
                stdio = len(units)
                units.append(stdio_unit(problem.language, program))
            which.append(stdio)
        elif isinstance(test, AssertTest):
            code = test.code if not problem.setup_code else f"{problem.setup_code}\n{test.code}"
            which.append(len(units))
            lifted_one = _lifted_one(problem, program, code) if lift is not None else None
            if lifted_one is not None and lift is not None and lift(lifted_one):
                units.append(lifted_one)
            else:
                units.append(
                    assert_unit(problem.language, program, code, problem.entry_points or ())
                )
        else:
            entry = (test.class_name, test.fn_name, len(test.args))  # arity: among overloads
            if entry not in entries:
                entries[entry] = len(units)
                units.append(call_unit(problem.language, program, *entry))
            which.append(entries[entry])
    return units, which


# ------------------------------------------------------------------ C and C++
_SPLICE = re.compile(r"\\[ \t\f\v\0]*\n")
r"""A line splice as GCC reads one: a backslash, the blanks it skips (with a warning), and
a newline (``c_newlines`` has made every line end ``\n``)."""
_NEWLINE = re.compile(r"\r\n?")


def c_newlines(program: str) -> str:
    r"""The program with ``\r\n`` and a lone ``\r`` as ``\n``: GCC reads each as a newline,
    so the program means what it meant, and every scan of its text here (``_SPLICE``, the
    macro and directive scans) sees the lines GCC sees (``#def\<CR>ine`` is a splice)."""
    return _NEWLINE.sub("\n", program)


_DEFINE = re.compile(r"define(?:\s|/\*.*?\*/)+([A-Za-z_]\w*)", re.S)


def defined_macros(program: str) -> set[str]:
    """Every name that follows the word ``define`` in the program once lines are spliced:
    a superset of the macros it defines (in comments and strings too, which is harmless:
    ``#undef`` of a name that is no macro does nothing)."""
    return set(_DEFINE.findall(_SPLICE.sub("", c_newlines(program))))


_INCLUDE = re.compile(r"(?:#|%:)(?:\s|/\*.*?\*/)*(include_next|include|import)(?![\w$])", re.S)
_GAP = re.compile(r"(?:\s|/\*.*?\*/)*", re.S)
_HEADER_NAME = re.compile(r'<([^>\n]*)>|"([^"\n]*)"')
_HEADER_PART = re.compile(r"[A-Za-z0-9_+-][A-Za-z0-9_+.-]*\Z")
HEADER_SUFFIXES = frozenset({"", ".h", ".hh", ".hpp", ".hxx", ".h++", ".tcc", ".ipp", ".inl"})
"""What a file a C or C++ program includes may end in: a header's suffix, or none (the
standard C++ headers). The unit (``main.c``, ``main.cpp``) and the harness (``harness.s``)
do not."""


def included_untrusted(program: str) -> str | None:
    r"""Why an assert unit's pass cannot be trusted because of what the program includes, or
    None. The unit holds the test (its expected values, and the text of each assertion),
    so a program that reads it while compiling (``#include __FILE__`` inside a namespace
    of its own, with its own ``__assert_fail`` and ``main`` there to collect the
    assertions) answers every test without solving the problem. Trusted: ``#include``,
    ``#include_next`` and ``#import`` of ``<name>`` or ``"name"``, where the name is a
    relative path of plain parts (no ``.`` or ``..`` part, no ``/`` first) ending in one of
    ``HEADER_SUFFIXES``; anything else (a macro, ``__FILE__``, ``__BASE_FILE__``, an
    absolute path, ``/proc/self/fd/0``, the unit's own name) is not. The scan is over the
    text GCC reads (``c_newlines``, splices joined), comments and strings included, so a
    directive spelled across a splice, a comment or ``%:`` is seen; a string that merely
    spells a bad directive is over-approximated as one."""
    text = _SPLICE.sub("", c_newlines(program))
    for m in _INCLUDE.finditer(text):
        at = _GAP.match(text, m.end()).end()  # type: ignore[union-attr]
        name = _HEADER_NAME.match(text, at)
        path = (
            None
            if name is None
            else (name.group(1) if name.group(1) is not None else name.group(2))
        )
        if path is None or not _trusted_header(path):
            operand = text[at : at + 40].split("\n", 1)[0]
            return (
                f"the program's #{m.group(1)} {operand!r} may read a file of the build (the "
                'test): only a header named in <...> or "..." is trusted'
            )
    return None


_DIRECTIVE = re.compile(
    rf"^{_HSPACE}*(?:#|%:){_HSPACE}*(define|undef|include_next|include|import)\b{_HSPACE}*(\w*)",
    re.M,
)
HEADER_MACROS = frozenset({
    # feature-test macros: they choose which declarations a header makes, not how
    "_GNU_SOURCE", "_DEFAULT_SOURCE", "_BSD_SOURCE", "_SVID_SOURCE", "_POSIX_SOURCE",
    "_POSIX_C_SOURCE", "_XOPEN_SOURCE", "_XOPEN_SOURCE_EXTENDED", "_ISOC99_SOURCE",
    "_ISOC11_SOURCE", "_ISOC2X_SOURCE", "_LARGEFILE_SOURCE", "_LARGEFILE64_SOURCE",
    "_FILE_OFFSET_BITS", "_TIME_BITS", "_ATFILE_SOURCE", "_REENTRANT", "_THREAD_SAFE",
    "_DYNAMIC_STACK_SIZE_SOURCE", "__STDC_WANT_LIB_EXT1__", "__STDC_WANT_LIB_EXT2__",
    "__STDC_WANT_IEC_60559_BFP_EXT__", "__STDC_WANT_IEC_60559_FUNCS_EXT__",
    "__STDC_WANT_IEC_60559_TYPES_EXT__", "__STDC_FORMAT_MACROS", "__STDC_LIMIT_MACROS",
    "__STDC_CONSTANT_MACROS", "_USE_MATH_DEFINES", "_CRT_SECURE_NO_WARNINGS",
    "_CRT_SECURE_NO_DEPRECATE", "_GLIBCXX_DEBUG", "_GLIBCXX_DEBUG_PEDANTIC",
    "_GLIBCXX_ASSERTIONS", "NDEBUG",
})  # fmt: skip
"""Macros a C/C++ assert program may define before an ``#include`` (``macro_untrusted``)."""


_RESERVED_MACRO = re.compile(r"_[A-Z_]")
"""A name reserved to the implementation (C11 7.1.3, C++ [lex.name]): a leading ``_`` and an
uppercase letter, or ``__``. The unit undefines the program's own macros before the test
(``_c_unit``), but cannot restore one of the implementation's the program undefined: a red
team's ``#undef __USER_LABEL_PREFIX__`` after its last include turned the asm labels of
glibc's ``__REDIRECT`` declarations in the test's own headers into names of the program's
(``__USER_LABEL_PREFIX____isoc99_sscanf``), and the test's ``sscanf`` read what the
program wanted (paid 1.0)."""


def macro_untrusted(program: str) -> str | None:
    """Why an assert unit's pass cannot be trusted because a macro of the program's is in
    effect while a header is read, or None. A system header's lines are the library's
    (``_C_TEXT_AWK`` reads only the program's own), but a macro defined before the
    ``#include`` rewrites them: ``#define __THROW __asm__("cr_ok")`` around ``#include
    <assert.h>`` put an asm label on the header's own declaration of ``__assert_fail``,
    and every failed ``assert`` of the test called the program's ``cr_ok``, which returned
    (paid 1.0; the same around ``<string.h>`` sent the test's ``strcmp`` to the
    program's). Any name will do, a keyword or ``size_t`` as well as a reserved one, so a
    ``#define`` or ``#undef`` before the program's last ``#include`` makes the pass
    untrusted, except of a feature-test macro (``HEADER_MACROS``); so does
    ``push_macro`` (``pop_macro`` after an include restores a header's macro). Honest
    programs include first and define after. Anywhere, a ``#define`` or ``#undef`` of a
    name reserved to the implementation (``_RESERVED_MACRO``) but a feature-test macro. Read on the text GCC reads, splices joined
    and comments blanked (``compiled_eq.blank_cpp_comments``)."""
    text = compiled_eq.blank_cpp_comments(_SPLICE.sub("", c_newlines(program)))
    if re.search(r"\b(push_macro|pop_macro)\b", text):
        return "the program pushes or pops a macro (push_macro): a header's own macros could be its"
    early: str | None = None
    for m in _DIRECTIVE.finditer(text):
        if m.group(1) in ("define", "undef"):
            name = m.group(2) or "?"
            if _RESERVED_MACRO.match(name) and name not in HEADER_MACROS:
                return (
                    f"the program defines or undefines the implementation's macro {name!r}: "
                    "the test's headers, read after it, would be rewritten by it"
                )
            if early is None and name not in HEADER_MACROS:
                early = name
        elif early is not None:
            return (
                f"the program defines the macro {early!r} before an #{m.group(1)}: "
                "the header's own declarations would be rewritten by it"
            )
    return None


def _trusted_header(path: str) -> bool:
    parts = path.split("/")
    last = parts[-1]
    suffix = last[last.rindex(".") :] if "." in last else ""
    return all(_HEADER_PART.match(p) for p in parts) and suffix in HEADER_SUFFIXES


def _c_unit(program: str, test: str, cpp: bool, tag: str, keep: frozenset[str]) -> str:
    """The program unchanged, then the program's macros undefined, then (C++) the trusted
    equality of ``compiled_eq`` and the test with its ``==`` and ``!=`` rewritten to it:
    the program compiles to the same code as in plain execution's unit (even where its
    undefined behaviour makes the code depend on the unit's layout); the functions the C++
    test defines (its ``compare``, ``issame``) renamed with the tag, except ``keep``
    (``compiled_eq.rename_cpp_test_functions``), and its unqualified calls of standard
    functions the program overloads made calls of ``::std::`` (``qualify_cpp_std_calls``). Last, ``_main_entry``: the harness's
    pointer to the test's ``main``. Between the program and the test, ``#pragma GCC
    reset_options`` and ``#pragma pack()``: the test and the trusted equality compile with
    the recipe's options, not the program's ``#pragma GCC optimize`` (a program that
    returned NaN under ``optimize("finite-math-only")``, or ``Ofast``, passed MBXP's
    ``compare(x0, 0.5)``: the trusted ``==``, compiled under it, took NaN for equal, and
    was paid 1.0)."""
    undefs = "\n".join(f"#undef {m}" for m in sorted(defined_macros(program) | {"NDEBUG", "main"}))
    if cpp:
        ns = f"__cr_eq_{tag}"
        test = compiled_eq.rename_cpp_test_functions(test, f"__cr_{tag}", keep)
        test = compiled_eq.qualify_cpp_std_calls(test, program, keep)
        test = compiled_eq.check_cpp_program_calls(test, program, ns)
        # after the test's own includes and ``using namespace std;``: the names as its main
        # reads them (before them, a program that spelled ``std::vector`` left ``vector``
        # undeclared where the test had declared it)
        test = f"{test}\n{compiled_eq.check_cpp_std_names(test)}"
        test = compiled_eq.cpp_eq(ns, test) + compiled_eq.rewrite_cpp_equalities(test, ns)
    gate = ('extern "C" ' if cpp else "") + f"void __cr_gate_{tag}(void);\n"
    return (
        f"{program}\n"
        "\n/* codereward: the test compiles with the recipe's options, not the program's pragmas */\n"
        "#pragma GCC reset_options\n#pragma pack()\n"
        "\n/* codereward: the test sees the language, not the program's macros */\n"
        f"{undefs}\n#include <assert.h>\n{gate}{_enter_once(test, tag)}\n{_main_entry(tag, cpp)}"
    )


_MAIN_DEFINITION = re.compile(r"\bmain\s*\((?:[^()]|\([^()]*\))*\)\s*\{")
MAIN_REENTERED = 86
"""The exit status of a C/C++ assert run whose test's ``main`` was entered other than once,
from the harness (``_enter_once``)."""


def _enter_once(test: str, tag: str) -> str:
    """The test with a call of the harness's gate first in its ``main``: the harness arms
    the gate just before it calls the test, and the gate lets ``main`` be entered once.
    A program that called the test's ``main`` itself (``int main(); main();``, from a
    constructor or from its own function during the run) to run the test as a dry run,
    its ``SIGABRT`` caught and ``siglongjmp``'d out of, read each failed assertion's text
    (``Assertion `add(2, 3) == 5' failed``) from its own stderr and answered the real run
    from it: paid 1.0. Now the process ends at the gate (``MAIN_REENTERED``, by
    ``exit_group``: no handler of the program's runs). A test whose ``main`` is not found
    this way (a function-try-block) goes without the gate."""
    m = _MAIN_DEFINITION.search(compiled_eq.blank_cpp_comments(test))
    if m is None:
        return test
    return f"{test[: m.end()]} __cr_gate_{tag}();{test[m.end() :]}"


def _main_entry(tag: str, cpp: bool) -> str:
    """A constant pointer, named with the build's tag, to the function the test defines as
    ``main``, whatever its symbol: the harness calls the test through it, never through
    ``__real_main`` (the symbol ``main``), which a program renames at will (``int main()
    __asm__("x");`` with ``int f(void) __asm__("main");``, or ``#pragma redefine_extname``)
    so that the harness would call a function of its own. The program cannot name the
    pointer (the tag is drawn per build) nor make ``main`` here mean anything but the test's
    function (``main`` is ``#undef``ined, C++ looks it up as ``::main``)."""
    c, fn = ('extern "C" ', "::main") if cpp else ("", "main")
    sig = "int (*)(int, char **, char **)"
    return (
        "/* codereward: the harness calls the test's main through this pointer */\n"
        f"{c}int (*const __cr_main_{tag})(int, char **, char **) = ({sig}){fn};\n"
    )


def _c_harness(secret: _Secret, cpp: bool) -> str:
    """Linked with ``--wrap=main``: the C runtime calls ``__wrap_main``, which calls the
    test's own ``main`` through the unit's pointer (``_main_entry``) and reports completion
    only when it returned 0 (an exit anywhere, before or during it, never reaches the
    report). ``volatile`` keeps the compiler from folding the two arrays into the report's
    text."""
    c = 'extern "C" ' if cpp else ""
    a, b = secret.arrays()
    return (
        "#include <unistd.h>\n"
        f"static const volatile unsigned char cr_a[16] = {{{a}}};\n"
        f"static const volatile unsigned char cr_b[16] = {{{b}}};\n"
        f"{c or 'extern '}int (*const __cr_main_{secret.tag})(int, char **, char **);\n"
        f"{c}int __real_main(int, char **, char **);\n"
        "static volatile unsigned char cr_armed;\n"
        f"{c}void __cr_gate_{secret.tag}(void) {{\n"
        f"  if (cr_armed != 1) _exit({MAIN_REENTERED});\n  cr_armed = 2;\n}}\n"
        f"{c}int __wrap_main(int argc, char **argv, char **envp) {{\n"
        f"  if (__cr_main_{secret.tag} != __real_main) return 1;\n"
        "  cr_armed = 1;\n"
        "  int rc = __real_main(argc, argv, envp);\n"
        "  if (rc == 0) {\n    char out[32];\n    for (int i = 0; i < 16; i++) {\n"
        "      unsigned x = (unsigned)(cr_a[i] ^ cr_b[i]);\n"
        '      out[2 * i] = "0123456789abcdef"[x >> 4];\n'
        '      out[2 * i + 1] = "0123456789abcdef"[x & 15];\n    }\n'
        "    if (write(3, out, 32) != 32) return 1;\n  }\n"
        "  return rc;\n}\n"
    )


_ASSEMBLED_HARNESS = platform.machine() in ("x86_64", "AMD64")
"""On x86-64 the harness is ``_x86_64_harness``, assembled (``as`` only: the compiler
proper, run on a second unit, was most of what a C sample's build paid beyond plain
gcc's); elsewhere it is ``_c_harness``, compiled."""


_X86_64_SEAL = (
    '\t.section .preinit_array,"aw"\n\t.align 8\n\t.quad .Lcr_seal\n\t.text\n'
    ".Lcr_seal:\n\tendbr64\n\tpushq %rbx\n\tpushq %r12\n\tpushq %r13\n"
    "\tmovl $3, %edi\n\tcall getauxval@PLT\n\tmovq %rax, %rbx\n"  # AT_PHDR
    "\tmovl $5, %edi\n\tcall getauxval@PLT\n\tmovq %rax, %r12\n"  # AT_PHNUM
    "\ttestq %rbx, %rbx\n\tje .Lcr_sealed\n"
    "\tmovq %rbx, %rsi\n\tmovq %r12, %rcx\n"
    ".Lcr_bias:\n\ttestq %rcx, %rcx\n\tje .Lcr_sealed\n"
    "\tcmpl $6, (%rsi)\n\tjne .Lcr_bias_next\n"  # PT_PHDR: the load bias
    "\tmovq %rbx, %r13\n\tsubq 16(%rsi), %r13\n\tjmp .Lcr_segments\n"
    ".Lcr_bias_next:\n\taddq $56, %rsi\n\tdecq %rcx\n\tjmp .Lcr_bias\n"
    ".Lcr_segments:\n\tmovq %rbx, %rsi\n\tmovq %r12, %rcx\n"
    ".Lcr_segment:\n\ttestq %rcx, %rcx\n\tje .Lcr_sealed\n"
    "\tmovl (%rsi), %eax\n\tmovq 16(%rsi), %rdi\n\taddq %r13, %rdi\n"
    "\tmovq %rdi, %rdx\n\taddq 40(%rsi), %rdx\n\tandq $-4096, %rdi\n"
    "\tcmpl $0x6474e552, %eax\n\tje .Lcr_relro\n"  # PT_GNU_RELRO
    "\tcmpl $1, %eax\n\tjne .Lcr_next\n\ttestl $1, 4(%rsi)\n\tje .Lcr_next\n"  # PT_LOAD, PF_X
    "\taddq $4095, %rdx\n"
    ".Lcr_relro:\n\tandq $-4096, %rdx\n\tsubq %rdi, %rdx\n\tjle .Lcr_next\n"
    "\tpushq %rsi\n\tpushq %rcx\n\tmovq %rdx, %rsi\n\txorl %edx, %edx\n"
    "\tmovl $462, %eax\n\tsyscall\n\tpopq %rcx\n\tpopq %rsi\n"  # mseal(start, len, 0)
    ".Lcr_next:\n\taddq $56, %rsi\n\tdecq %rcx\n\tjmp .Lcr_segment\n"
    ".Lcr_sealed:\n\tpopq %r13\n\tpopq %r12\n\tpopq %rbx\n\tret\n"
)
"""The harness's ``.preinit_array`` entry (x86-64): before any constructor of the program
runs (the harness is linked before the unit, and the program's own lines may name
neither ``.preinit_array`` nor ``ifunc``: ``_C_TEXT_AWK``), it seals (``mseal``, Linux
6.10) the executable's code and its RELRO (the GOT, read-only with ``-z now``, and the
unit's pointer to the test's ``main``), so no ``mprotect``, ``munmap``, ``mremap`` or
``MAP_FIXED`` mapping can change them: a red team's program wrote the GOT slot of
``strcmp`` (lazy binding left it writable) with a function of its own that answered 0 for
every ``strcmp(f(x), "...") == 0`` of the test, and was paid 1.0. Where the kernel has no
``mseal`` the call fails and nothing is sealed (the languages module's "Not covered")."""


def _x86_64_harness(secret: _Secret) -> str:
    """``_c_harness`` written in x86-64 assembly (System V ABI, PIC): the same
    ``__wrap_main``, the same call through the unit's pointer (``argc``, ``argv``, ``envp``
    still in their registers), the same two arrays, the same report, written only when
    the test's ``main`` returned 0; ``rc`` 1 when the report could not be written whole.
    The call itself is direct (``call __real_main``, in code the program cannot write:
    the runner's filter refuses it executable protections), and made only when the
    unit's pointer still holds that address: a red team's constructor made the pointer's
    read-only page writable (``mprotect``, no ``PROT_EXEC``), found it by its value (the
    address of ``main``, which a C program may take) and put its own function there,
    which returned 0, and was paid 1.0 by the execution. A program that gave the symbol
    ``main`` to a function of its own (refused by ``_C_TEXT_AWK`` already) fails the
    same comparison."""
    a, b = secret.arrays()
    return (
        "\t.text\n\t.globl __wrap_main\n\t.type __wrap_main, @function\n__wrap_main:\n"
        "\tendbr64\n\tpushq %rbx\n\tsubq $48, %rsp\n"  # the stack 16-aligned at the call
        f"\tmovq __cr_main_{secret.tag}@GOTPCREL(%rip), %rax\n\tleaq __real_main(%rip), %rcx\n"
        "\tmovl $1, %ebx\n\tcmpq (%rax), %rcx\n\tjne .Lcr_done\n"
        "\tmovb $1, .Lcr_armed(%rip)\n\tcall __real_main\n"
        "\tmovl %eax, %ebx\n\ttestl %eax, %eax\n\tjne .Lcr_done\n"
        "\tleaq .Lcr_a(%rip), %rsi\n\tleaq .Lcr_b(%rip), %rdi\n\tleaq .Lcr_hex(%rip), %r8\n"
        "\txorl %ecx, %ecx\n.Lcr_loop:\n"
        "\tmovzbl (%rsi,%rcx), %eax\n\txorb (%rdi,%rcx), %al\n"
        "\tmovl %eax, %edx\n\tshrl $4, %edx\n\tmovzbl (%r8,%rdx), %edx\n"
        "\tmovb %dl, (%rsp,%rcx,2)\n"
        "\tandl $15, %eax\n\tmovzbl (%r8,%rax), %eax\n\tmovb %al, 1(%rsp,%rcx,2)\n"
        "\tincq %rcx\n\tcmpq $16, %rcx\n\tjne .Lcr_loop\n"
        "\tmovl $3, %edi\n\tmovq %rsp, %rsi\n\tmovl $32, %edx\n\tcall write@PLT\n"
        "\tcmpq $32, %rax\n\tje .Lcr_done\n\tmovl $1, %ebx\n"
        ".Lcr_done:\n\tmovl %ebx, %eax\n\taddq $48, %rsp\n\tpopq %rbx\n\tret\n"
        "\t.size __wrap_main, .-__wrap_main\n"
        # the test's main calls the gate first: entered once, from __wrap_main, or the
        # process ends at once (exit_group: no handler of the program's runs)
        f"\t.globl __cr_gate_{secret.tag}\n\t.type __cr_gate_{secret.tag}, @function\n"
        f"__cr_gate_{secret.tag}:\n\tendbr64\n"
        "\tcmpb $1, .Lcr_armed(%rip)\n\tjne .Lcr_twice\n\tmovb $2, .Lcr_armed(%rip)\n\tret\n"
        f".Lcr_twice:\n\tmovl ${MAIN_REENTERED}, %edi\n\tmovl $231, %eax\n\tsyscall\n\thlt\n"
        f"\t.size __cr_gate_{secret.tag}, .-__cr_gate_{secret.tag}\n"
        "\t.bss\n.Lcr_armed:\n\t.zero 1\n"
        f"{_X86_64_SEAL}"
        f"\t.section .rodata\n.Lcr_a:\n\t.byte {a}\n.Lcr_b:\n\t.byte {b}\n"
        '.Lcr_hex:\n\t.ascii "0123456789abcdef"\n'
        '\t.section .note.GNU-stack,"",@progbits\n'
    )


# ------------------------------------------------------------------ Java
_JAVA_PUBLIC = re.compile(r"^\s*public\s+(?:final\s+|abstract\s+)*class\s+(\w+)", re.M)


_JAVA_CLASS = re.compile(r"\b(?:class|record|enum|interface)\s+([A-Za-z_$][\w$]*)")
_JAVA_MAIN = re.compile(r"\bstatic\s+(?:final\s+)?void\s+main\s*\(")
_JAVA_LITERAL = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)


def _java_main_class(program: str) -> str:
    """The class ``java`` runs for a stdio program: its public class; else ``Main`` when it
    declares one; else the class whose body declares ``main`` (the nearest top-level
    declaration before it, comments and literals aside), as ``java File.java`` runs a
    program with no public class (``class Program { public static void main ...``, what
    models often write); else ``Main``."""
    m = _JAVA_PUBLIC.search(program)
    if m:
        return m.group(1)
    text = _JAVA_LITERAL.sub(lambda m: " " * len(m.group(0)), program)
    depth, last = 0, 0
    at_depth: list[tuple[int, str, int]] = []
    for c in _JAVA_CLASS.finditer(text):  # each declaration with its brace depth
        depth += text.count("{", last, c.start()) - text.count("}", last, c.start())
        last = c.start()
        at_depth.append((c.start(), c.group(1), depth))
    if any(n == "Main" for _, n, _ in at_depth):
        return "Main"
    main = _JAVA_MAIN.search(text)
    if main is not None:
        before = [n for at, n, d in at_depth if at < main.start() and d == 0]
        if before:
            return before[-1]
    return "Main"


_JAVA_TEST_CLASS = re.compile(r"\b(?:class|record|enum|interface)\s+Main\b")
_JAVA_MAIN_BODY = re.compile(
    r"(?:\b(?:public|protected|private|static|final|synchronized|strictfp)\s+)+void\s+main\s*\([^)]*\)[^{;]*\{"
)


def _java_enter_once(test: str, harness: str) -> str:
    """``test`` with a call of the harness's ``enter`` first in its ``Main.main``, which
    halts the process when the test's ``main`` is entered a second time: a program called
    ``Main.main`` itself, once per guess of the next answer, caught the test's
    ``AssertionError`` and learned from how far each dry run got which guess passed
    (a yes/no oracle per assertion; booleans and small numbers fall to it in a few
    thousand runs)."""
    text = _JAVA_LITERAL.sub(lambda m: " " * len(m.group(0)), test)
    cls = _JAVA_TEST_CLASS.search(text)
    body = _JAVA_MAIN_BODY.search(text, cls.end() if cls else 0) or _JAVA_MAIN_BODY.search(text)
    if body is None:
        return test
    return f"{test[: body.end()]} {harness}.enter();{test[body.end() :]}"


def _java_run(main_class: str) -> tuple[str, ...]:
    return (*RECIPES["java"].run[:-1], main_class)


def _java_harness(name: str) -> str:
    """The run class: reads the nonce from fd 4 into a local of its own frame before the
    test (and so any program code) runs, opens the pass channel, installs the guard
    (``_java_guard``), calls the test's ``Main.main``, then writes the nonce on the pass
    channel and halts (no shutdown hook or finalizer of the program runs after it).
    Neither its class file nor any field holds the nonce, nor the Java heap: it travels in
    a direct buffer, outside what a heap dump of the program's writes out, and the guard
    keeps the program from reading native memory."""
    return (
        f"class {name} {{\n"
        "    public static void main(java.lang.String[] args) throws java.lang.Throwable {\n"
        "        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocateDirect(32);\n"
        "        try (java.nio.channels.FileChannel r = java.nio.channels.FileChannel.open(\n"
        '                java.nio.file.Path.of("/proc/self/fd/4"), java.nio.file.StandardOpenOption.READ)) {\n'
        "            while (out.hasRemaining() && r.read(out) > 0) { }\n"
        "        }\n"
        "        if (out.hasRemaining()) java.lang.Runtime.getRuntime().halt(3);\n"
        "        out.flip();\n"
        "        java.nio.channels.FileChannel w = java.nio.channels.FileChannel.open(\n"
        '                java.nio.file.Path.of("/proc/self/fd/3"), java.nio.file.StandardOpenOption.WRITE);\n'
        f"        {name}Guard.install();\n"
        "        entered = false;\n"
        "        Main.main(args);\n"
        "        while (out.hasRemaining()) w.write(out);\n"
        "        java.lang.Runtime.getRuntime().halt(0);\n"
        "    }\n"
        "    private static boolean entered = true;\n"
        "    static void enter() {\n"
        "        if (entered) java.lang.Runtime.getRuntime().halt(4);\n"
        "        entered = true;\n"
        "    }\n}\n"
        f"{_java_guard(name + 'Guard')}"
    )


def _java_guard(name: str) -> str:
    """A security manager that refuses, to the program and the test, what reads the
    process's memory or reaches past it: files under ``/proc`` (``/proc/self/mem`` holds
    the nonce's buffer; the path made canonical, so ``/dev/fd/..`` or a relative path is
    the same) and in the build's folder (``Main.class`` holds the test's expected values: a
    program answered each call from its bytecode; the class loader's own reads are
    privileged), starting a process (a child may read ``/proc/<ppid>/mem``), links, native
    libraries, reflection past access checks (``sun.misc.Unsafe``), restricted packages,
    class loaders, the management and attach interfaces (a heap dump, an agent), sockets,
    and the security settings themselves; everything else is allowed without asking, as
    with no security manager. Who asks is read from the stack, innermost frame first: a
    frame of a class the application loader defined (the program's, the test's, a lambda
    of theirs) refuses; a ``doPrivileged`` reached first ends the walk, and allows when
    the JDK's own code called it (the lambda factory's reflection, a provider's lookup),
    except for a file under ``/proc`` or in the build's folder, which only the class
    loader's frames (``jdk.internal.loader``) below that ``doPrivileged`` may open: a red
    team's program pointed ``java.util.currency.data`` at ``Main.class``, and Currency's
    privileged read logged the test's string literals as invalid keys. No policy file is read (a program could write one). A red team's program read the
    nonce from ``/proc/self/mem``."""
    return (
        '@java.lang.SuppressWarnings("removal")\n'
        f"final class {name} extends java.lang.SecurityManager {{\n"
        "    private static final java.lang.StackWalker WALK = java.lang.StackWalker.getInstance(\n"
        "        java.util.Set.of(java.lang.StackWalker.Option.RETAIN_CLASS_REFERENCE,\n"
        "                         java.lang.StackWalker.Option.SHOW_HIDDEN_FRAMES,\n"
        "                         java.lang.StackWalker.Option.SHOW_REFLECT_FRAMES));\n"
        "    private static final java.lang.ClassLoader PLATFORM = java.lang.ClassLoader.getPlatformClassLoader();\n"
        "    private static java.lang.String dir = null, inside = null;\n"
        "    static void install() throws java.io.IOException {\n"
        '        inside = (dir = new java.io.File(".").getCanonicalPath()).concat("/");\n'
        '        asked(new java.io.FilePermission("/proc/self/mem", "read"));\n'  # linked before
        "        privileged(true);\n"
        '        closed(new java.io.FilePermission("/proc", "read"));\n'
        f"        java.lang.System.setSecurityManager(new {name}());\n"
        "    }\n"
        "    private static boolean jdk(java.lang.Class<?> c) {\n"
        "        java.lang.ClassLoader l = c.getClassLoader();\n"
        "        return l == null || l == PLATFORM;\n"
        "    }\n"
        "    private static boolean asked(java.security.Permission p) {\n"
        "        java.lang.String kind = p.getClass().getName(), what = p.getName();\n"
        "        if (p instanceof java.io.FilePermission) {\n"
        '            if (p.getActions().contains("execute") || what.equals("<<ALL FILES>>")) return true;\n'
        "            try { what = new java.io.File(what).getCanonicalPath(); }\n"
        "            catch (java.io.IOException e) { return true; }\n"
        '            return what.equals("/proc") || what.startsWith("/proc/") || what.equals(dir) || what.startsWith(inside);\n'
        "        }\n"
        "        if (p instanceof java.lang.RuntimePermission) {\n"
        '            return what.equals("createClassLoader") || what.equals("setSecurityManager")\n'
        '                || what.equals("createSecurityManager") || what.startsWith("loadLibrary.")\n'
        '                || what.startsWith("accessClassInPackage.") || what.startsWith("defineClassInPackage.")\n'
        '                || what.equals("readFileDescriptor") || what.equals("accessSystemModules");\n'
        "        }\n"
        "        return p instanceof java.lang.reflect.ReflectPermission\n"
        "            || p instanceof java.security.SecurityPermission\n"
        "            || p instanceof java.security.AllPermission\n"
        "            || p instanceof java.nio.file.LinkPermission\n"
        "            || p instanceof java.net.NetPermission || p instanceof java.net.SocketPermission\n"
        '            || kind.startsWith("java.lang.management.") || kind.startsWith("javax.management.")\n'
        '            || kind.startsWith("com.sun.") || kind.startsWith("jdk.") || kind.startsWith("sun.");\n'
        "    }\n"
        "    private static boolean closed(java.security.Permission p) {\n"
        "        if (!(p instanceof java.io.FilePermission)) return false;\n"
        "        try {\n"
        "            java.lang.String what = new java.io.File(p.getName()).getCanonicalPath();\n"
        '            return what.equals("/proc") || what.startsWith("/proc/") || what.equals(dir) || what.startsWith(inside);\n'
        "        } catch (java.io.IOException e) { return true; }\n"
        "    }\n"
        "    private static boolean privileged(boolean loaderOnly) { return WALK.walk(new Walk(loaderOnly)); }\n"
        "    private static final class Walk implements java.util.function.Function<\n"
        "            java.util.stream.Stream<java.lang.StackWalker.StackFrame>, java.lang.Boolean> {\n"
        "        private final boolean loaderOnly;\n"
        "        Walk(boolean loaderOnly) { this.loaderOnly = loaderOnly; }\n"
        "        public java.lang.Boolean apply(java.util.stream.Stream<java.lang.StackWalker.StackFrame> frames) {\n"
        "            boolean inPrivileged = false, loader = false;\n"
        "            for (java.util.Iterator<java.lang.StackWalker.StackFrame> it = frames.iterator(); it.hasNext(); ) {\n"
        "                java.lang.Class<?> c = it.next().getDeclaringClass();\n"
        f"                if (c == {name}.class || c == Walk.class) continue;\n"
        "                if (c == java.security.AccessController.class) { inPrivileged = true; continue; }\n"
        '                if (!inPrivileged && jdk(c) && c.getName().startsWith("jdk.internal.loader.")) loader = true;\n'
        "                if (inPrivileged || !jdk(c)) return inPrivileged && jdk(c) && (loader || !loaderOnly);\n"
        "            }\n"
        "            return true;\n"
        "        }\n"
        "    }\n"
        "    @java.lang.Override public void checkPermission(java.security.Permission p) {\n"
        "        if (asked(p) && !privileged(closed(p))) throw new java.security.AccessControlException(\n"
        '            "codereward: not available to the program: ".concat(p.toString()), p);\n'
        "    }\n"
        "    @java.lang.Override public void checkPermission(java.security.Permission p, java.lang.Object context) {\n"
        "        checkPermission(p);\n"
        "    }\n"
        "}\n"
    )


# ------------------------------------------------------------------ JavaScript, TypeScript
JS_PRELUDE = "cr_pre.js"
"""The trusted prelude node loads (``-r``) before the unit: its own file, so nothing the
program declares (hoisted ``function require``, ``var JSON``) reaches it."""


def _js_unit(
    program: str, test: str, typescript: bool, entry_points: Collection[str] = ()
) -> dict[str, str]:
    """The program, then the test as the body of a function handed to the prelude's
    ``__cr_run`` (compiled_eq.js_prelude), which calls it with the real builtins and
    reports on the pass channel when it returned. The function is strict (``'use strict'``:
    a sloppy one is the ``caller`` of the program's functions, and its source holds the
    test's expected values); the program stays as it was written. A TypeScript test's
    ``import`` lines stay at the top level (where TypeScript requires them).

    The function's first parameters are the names it may take from the program
    (``compiled_eq.js_entry_names``), whose values the unit hands over beside it as
    ``typeof name === 'undefined' ? void 0 : name`` (a name the program does not bind is
    ``undefined``, as nothing of the program's): the prelude turns each function among them
    into a wrapper whose results are copies (``js_prelude``'s "Answers"), so inside the
    test, and only there, ``sorted`` is the wrapper. The test's code is a block of its own
    in that function, so that its own ``let``, ``const`` or ``function`` of such a name
    shadows the parameter (no redeclaration). In TypeScript each parameter has the type of
    the program's binding (``typeof name``, through an alias at the top level, where the
    name is the program's) and each line that names the program's binding is under ``//
    @ts-ignore``: a name the program does not bind as a value (a word of the test's
    strings, a type) is ``any`` there, never a compile error. A JavaScript test's helper
    functions that hold nothing of the test's follow the program in its own scope
    (``compiled_eq.js_test_helpers``), where the contract's one module would have hoisted
    them."""
    imports, consts, body = compiled_eq.split_imports(test) if typescript else ("", "", test)
    names = compiled_eq.js_entry_names(test, entry_points, program, typescript)
    values = [f"typeof {n} === 'undefined' ? void 0 : {n}" for n in names]
    if typescript:
        aliases = "".join(f"// @ts-ignore\ntype __cr_t_{n} = typeof {n};\n" for n in names)
        given = "".join(f"// @ts-ignore\n{v},\n" for v in values)
        params = ", ".join([*(f"{n}: __cr_t_{n}" for n in names), compiled_eq.ts_params()])
    else:
        aliases = ""
        given = "".join(f"{v},\n" for v in values)
        params = ", ".join([*names, *compiled_eq.JS_PARAMS])
    declare = "export {};\n" if consts else ""  # still a module, as with its imports
    # The call goes through an object literal's prototype, never through a name: a
    # program's own ``function __cr_run`` (hoisted in the module's scope) was handed the
    # test's function, ran it with a fake ``require`` whose assert recorded each expected
    # value, then passed it on to the real one and answered from the record.
    run = "(({}) as any).__cr_run" if typescript else "({}).__cr_run"
    # the test's helpers a program may call, as in one module (``js_test_helpers``)
    helpers = "" if typescript else compiled_eq.js_test_helpers(test, program)
    source = (f"{program}\n\n{helpers}{declare}{imports}\n{aliases};{run}([\n{given}], function ({params}) {{\n"
              f"'use strict';\n{{\n{consts}\n{body}\n}}\n}});\n")  # fmt: skip
    name = RECIPES["typescript" if typescript else "javascript"].source
    prelude = compiled_eq.js_prelude(
        compiled_eq.js_test_modules(test), len(names), compiled_eq.js_async_test(test)
    )
    return {name: source, JS_PRELUDE: prelude}


# ------------------------------------------------------------------ Go
_GO_TEST_FN = re.compile(r"\bfunc\s+Test\w*\s*\(\s*\w+\s+\*testing\.T\s*\)")
_GO_MAIN = re.compile(r"\bfunc\s+main\s*\(\s*\)")
# Every flag of Go 1.19's testing package that can skip, filter, list, repeat or reorder
# tests, or redirect what m.Run does, parsed again by our TestMain at its default (what
# `go test` passes: -test.paniconexit0, so os.Exit(0) inside a test panics), so a
# program's init cannot set them (flag.Set, flag.Lookup(...).Value.Set: -test.fuzzworker
# made m.Run skip every test and return 0). The profile and log files stay unset.
_GO_TEST_FLAGS = ("run=.", "count=1", "list=", "bench=", "benchmem=false", "benchtime=1s",
                  "failfast=false", "short=false", "shuffle=off", "timeout=0", "cpu=",
                  "v=false", "paniconexit0=true", "fuzz=", "fuzzworker=false",
                  "fuzzcachedir=", "fuzzminimizetime=60s", "testlogfile=", "outputdir=",
                  "coverprofile=", "cpuprofile=", "memprofile=", "memprofilerate=0",
                  "blockprofile=", "blockprofilerate=1", "mutexprofile=",
                  "mutexprofilefraction=1", "trace=")  # fmt: skip
_GO_TEST_DECL = re.compile(
    r"\bfunc\s+(Test(?:[^\W_a-z]\w*|_\w*)?)(\s*\(\s*\w+\s+\*testing\.T\s*\))"
)
"""A test function `go test` runs: ``Test`` alone or followed by a character that is not a
lower-case letter (``Testadd`` is not a test)."""


_GO_TEST_PACKAGES = {
    "json": ("encoding/json", "Marshal"), "reflect": ("reflect", "DeepEqual"),
    "fmt": ("fmt", "Sprint"), "strings": ("strings", "Compare"), "sort": ("sort", "Ints"),
    "math": ("math", "Abs"), "strconv": ("strconv", "Itoa"), "testing": ("testing", "Short"),
    "os": ("os", "Exit"), "errors": ("errors", "New"), "bytes": ("bytes", "Equal"),
    "unicode": ("unicode", "IsDigit"), "utf8": ("unicode/utf8", "RuneLen"),
    "big": ("math/big", "NewInt"), "rand": ("math/rand", "Intn"), "time": ("time", "Now"),
    "regexp": ("regexp", "MustCompile"), "bits": ("math/bits", "OnesCount"),
    "assert": ("github.com/stretchr/testify/assert", "Equal"),
    "require": ("github.com/stretchr/testify/require", "Equal"),
}  # fmt: skip
"""The packages a test names by these identifiers (``json.Marshal``, ``assert.Equal``), each
with an exported name that keeps our import of it used."""
_GO_LITERAL = re.compile(
    r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|`[^`]*`|'(?:\\.|[^'\\\n])*'", re.S
)
_GO_QUALIFIER = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\.\s*[A-Za-z_]")
_GO_TOP_DECL = re.compile(r"^(?:func|var|const|type)\s+(\w+)", re.M)


@functools.lru_cache(maxsize=4)
def _go_tokens(program: str) -> list[Any]:
    """Go's tokens of a program (``lifted_go.tokens``), read once for the several readers
    of one build (a megabyte of program is a second of the host's CPU per reading)."""
    return lifted_go.tokens(program)


def _go_header(program: str) -> tuple[int, list[tuple[str, str]]] | None:
    """Where the program's package clause ends (the offset past its name) and its import
    specs, as (the name each binds at file scope, path; ``_`` and ``.`` as written), read
    from Go's tokens (``lifted_go.tokens``) as the compiler reads them: a byte order mark
    first, comments, ``;`` or a newline anywhere between tokens (``package main; import u
    "unsafe"``, ``package`` and its name on two lines, CRLF lines: a pattern that wanted
    ``package main`` alone on its line read no import at all, and a program that then
    imported the harness's own names itself passed with ``unsafe`` unseen), and a raw
    string's carriage returns dropped (a raw ``unsafe`` with a CR inside is ``unsafe``).
    An interpreted path with an escape keeps its backslash (``_go_unsafe`` refuses it).
    None when the program does not open with a package clause or its import declarations
    are not read whole."""
    toks = _go_tokens(program)
    i = 1 if toks and toks[0].text == "\ufeff" else 0
    if len(toks) < i + 2 or toks[i].text != "package" or toks[i + 1].kind != "id":
        return None
    end, k = toks[i + 1].end, i + 2
    specs: list[tuple[str, str]] = []
    while k < len(toks):
        if toks[k].text == ";":
            k += 1
            continue
        if toks[k].text != "import":
            break
        if k + 1 < len(toks) and toks[k + 1].text == "(":
            close = toks[k + 1].match
            parts = lifted_go.statements(toks, k + 2, close)
            k = close + 1
        else:  # one spec: a path, or a name (or ``.``) and a path
            n = 1 if k + 1 < len(toks) and toks[k + 1].kind == "lit" else 2
            parts, k = [(k + 1, min(k + 1 + n, len(toks)))], k + 1 + n
        for a, b in parts:
            spec = _go_spec([t.text for t in toks[a:b]], [t.kind for t in toks[a:b]])
            if spec is None:
                return None
            specs.append(spec)
    return end, specs


def _go_spec(texts: list[str], kinds: list[str]) -> tuple[str, str] | None:
    """One import spec's tokens as (name bound, path), or None when they are not one."""
    if not texts or kinds[-1] != "lit" or texts[-1][0] not in '"`' or len(texts) > 2:
        return None
    if len(texts) == 2 and not (kinds[0] == "id" or texts[0] == "."):
        return None
    lit = texts[-1]
    path = lit[1:-1].replace("\r", "") if lit[0] == "`" else lit[1:-1]
    return (texts[0] if len(texts) == 2 else path.rsplit("/", 1)[-1]), path


def _go_import_specs(program: str) -> list[tuple[str, str]]:
    """The program's import specs (``_go_header``), none when it has no readable header."""
    header = _go_header(program)
    return header[1] if header is not None else []


def _go_program_imports(program: str) -> dict[str, str]:
    """The names the program's import declarations bind at file scope, with their paths
    (``_`` and ``.`` bind none)."""
    return {name: path for name, path in _go_import_specs(program) if name not in ("_", ".")}


GO_PREDECLARED = frozenset({
    "bool", "byte", "complex64", "complex128", "error", "float32", "float64", "int", "int8",
    "int16", "int32", "int64", "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64",
    "uintptr", "any", "comparable", "true", "false", "iota", "nil", "append", "cap", "close",
    "complex", "copy", "delete", "imag", "len", "make", "new", "panic", "print", "println",
    "real", "recover",
})  # fmt: skip
"""Go 1.19's predeclared identifiers (the universe block): a package-level declaration of
the program's shadows them for the whole package, the test and the harness included."""
_GO_GROUP_DECL = re.compile(r"\b(?:var|const|type)\s*\(((?:[^()]|\([^()]*\))*)\)")
_GO_SINGLE_DECL = re.compile(r"\b(?:var|const|type)\s+(\w+(?:\s*,\s*\w+)*)")
_GO_SPEC_NAMES = re.compile(r"(?:^|;)[ \t]*(\w+(?:[ \t]*,[ \t]*\w+)*)", re.M)
_GO_FUNC_DECL = re.compile(r"\bfunc\s+(\w+)\s*[\[(]")


_GO_NO_PROGRAM = "package main\n"
"""A program of no declaration: the unit around it is the test and the harness alone."""


def _go_words(code: str) -> frozenset[str]:
    """The identifiers of Go code, its comments and literals blanked."""
    return frozenset(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", _GO_LITERAL.sub(" ", code)))


def _go_predeclared(program: str, ours: frozenset[str] | None = None) -> str | None:
    """Why a Go program's assert test cannot be trusted, if it declares one of the
    predeclared identifiers at package level (``GO_PREDECLARED``) that the unit's code
    other than the program's names (``ours``: the test's and the harness's words; None:
    any): a package-level ``func delete(xs []int, x int) []int`` of a program whose test
    and harness never say ``delete`` changes nothing of theirs (a red team's honest
    helpers named ``delete`` and ``print`` were refused). The test shares its
    package, so a program's ``func panic(v interface{}) {}`` made the test's ``if add(2,
    3) != 5 { panic("test 0") }`` do nothing, and a ``const true = false`` or ``func
    len`` would answer a test's ``assert.Equal(true, ...)``. Read at brace depth 0 of the
    text with comments and literals blanked: functions (not methods), and the names of
    each ``var``, ``const`` and ``type`` spec, grouped or not; and from Go's tokens
    (``_go_top_names``: a group whose specs nest parentheses twice, ``var ( base =
    int((0)); panic = func(v interface{}) {} )``, was no group to the pattern, and its
    ``panic`` the test's)."""
    text = _GO_LITERAL.sub(" ", program)
    top, depth = [], 0
    for c in text:
        if c == "{":
            depth += 1
        elif c == "}":
            depth = max(0, depth - 1)
        elif depth == 0 or c == "\n":
            top.append(c)
    flat = "".join(top)
    names = set(_GO_FUNC_DECL.findall(flat))
    for m in _GO_SINGLE_DECL.finditer(flat):
        names.update(n.strip() for n in m.group(1).split(","))
    for g in _GO_GROUP_DECL.finditer(flat):
        for spec in _GO_SPEC_NAMES.finditer(g.group(1)):
            names.update(n.strip() for n in spec.group(1).split(","))
    names |= _go_top_names(program)
    found = sorted(names & GO_PREDECLARED & (GO_PREDECLARED if ours is None else ours))
    if found:
        return (
            f"the program declares `{found[0]}`, a predeclared identifier, at package level: "
            "it would be the test's too, so a test cannot trust it"
        )
    return None


GO_HOOK_METHODS = frozenset({"MarshalJSON", "MarshalText", "String", "GoString", "Format", "Error"})
"""The methods that ``encoding/json`` (``Marshaler``, ``TextMarshaler``) or ``fmt``
(``Stringer``, ``GoStringer``, ``Formatter``, ``error``) call on a value by themselves."""


def _go_top_names(program: str) -> set[str]:
    """The names the program declares at package level, read from Go's tokens
    (``lifted_go.tokens``): each function's (not a method's), and each name of every
    ``var``, ``const`` and ``type`` spec, grouped or not, however its parts nest."""
    toks = _go_tokens(program)
    names: set[str] = set()
    for a, b in lifted_go.statements(toks, 0, len(toks)):
        head = toks[a].text
        if head == "func" and a + 1 < b and toks[a + 1].kind == "id":
            names.add(toks[a + 1].text)
        elif head in ("var", "const", "type") and a + 1 < b:
            names.update(lifted_go.declared_names(toks, a, b))
    return names


def _go_methods(program: str) -> set[str]:
    """The names of the methods the program declares, read from Go's tokens: ``func``, a
    receiver in parentheses however deeply they nest (``func (n ((((num))))) MarshalJSON()``
    is Go, and a pattern that read three levels let it through), the name, ``(``."""
    toks = _go_tokens(program)
    out: set[str] = set()
    for k, t in enumerate(toks[:-3]):
        if t.text != "func" or toks[k + 1].text != "(":
            continue
        name, after = toks[k + 1].match + 1, toks[k + 1].match + 2
        if after < len(toks) and toks[name].kind == "id" and toks[after].text == "(":
            out.add(toks[name].text)
    return out


def _go_hooks(program: str) -> str | None:
    """Why a Go program's assert test cannot be trusted, if it declares a method the test's
    own comparison may call on its value (``GO_HOOK_METHODS``): MBXP's ``deepCompare(a, b,
    msg)`` marshals the program's answer while the expected value is its caller's
    argument, and ``runtime.Stack`` prints the arguments of every frame (an ``int`` below
    256 boxed in an interface points into the runtime's ``staticuint64s``, so the
    difference of two pointers is the number; any other value can be read at its address
    from ``/proc/self/mem``): a ``MarshalJSON`` on the answer's type wrote the expected
    value. Honest benchmark programs declare none of these methods (no MBXP Go sample
    declares a method at all)."""
    found = sorted(_go_methods(program) & GO_HOOK_METHODS)
    if found:
        return (
            f"the program declares a {found[0]} method, which the test's comparison "
            "(json.Marshal, fmt) calls on its answer while the expected value is at hand: "
            "a test cannot trust it"
        )
    return None


def _go_unsafe(program: str) -> str | None:
    """Why a Go program's assert test cannot be trusted, if it imports ``unsafe`` (under any
    name, ``_`` too: ``//go:linkname`` needs it). The runtime keeps every function's name
    for its tracebacks, ``-s -w`` or not, so ``runtime.FuncForPC`` finds the harness's
    report function by its name, and an ``unsafe`` cast of its entry to a ``func()``
    called it from ``init`` or the tested function, before an ``os.Exit(0)``: the
    report, and no test. Without ``unsafe`` (or ``GO_UNSAFE_POINTER_API``) no Go code
    calls a function by address.
    A path spelled with an escape (``"\\x75nsafe"``) counts as ``unsafe``, and a raw
    string path (```unsafe```) is read as the compiler reads it. Honest benchmark programs
    do not import it (none of MBXP's Go samples does). Nor ``embed``: ``//go:embed main.go``
    (``main_test.go``) put the unit, the test's expected values and all, in a string of
    the program, which answered each call from it (accepted; only the gate's directive
    rule zeroed it), as Rust's ``include_str!`` did. A program whose package clause and
    imports ``_go_header`` cannot read is untrusted as well (the harness's imports
    would have no place, and the program's own could not be told)."""
    if _go_header(program) is None:
        return (
            "the program's package clause and imports are not read as Go reads them: "
            "a test cannot trust it"
        )
    if any(path == "unsafe" or "\\" in path for _, path in _go_import_specs(program)):
        return (
            'the program imports "unsafe", which can call any function of the binary by '
            "its address (the harness's report too): a test cannot trust it"
        )
    if any(path == "embed" for _, path in _go_import_specs(program)):
        return (
            'the program imports "embed", whose //go:embed reads files while the unit builds '
            "(the unit holds the test and its expected values): a test cannot trust it"
        )
    found = sorted(
        GO_UNSAFE_POINTER_API.intersection(_GO_WORD.findall(_GO_LITERAL.sub(" ", program)))
    )
    if found:
        return (
            f"the program names `{found[0]}`, which hands it an unsafe.Pointer without "
            'importing "unsafe" (a cast of it can call any function of the binary by its '
            "address, the harness's report too): a test cannot trust it"
        )
    return None


GO_UNSAFE_POINTER_API = frozenset({
    "UnsafePointer", "SetPointer", "NewAt", "LoadPointer", "StorePointer", "SwapPointer",
    "CompareAndSwapPointer", "SetCgoTraceback",
})  # fmt: skip
"""Every name of Go 1.19's standard library (and of the GOPATH packages in the root) whose
signature holds an ``unsafe.Pointer`` (``api/go1.*.txt``, linux): the only ways a program
that does not import ``unsafe`` gets a value of that type (a result, or a type argument
inferred from the signature), and so the only ways to a conversion ``(*func())(p)``,
which needs no import. ``reflect.ValueOf(&ptr).UnsafePointer()`` cast to ``*func()``
called the harness's report found by ``runtime.FuncForPC``, as the ``unsafe`` cast had.
A method found by reflection (``Value.Method(i)``) returns a ``reflect.Value``, which no
conversion of ``reflect`` turns into a typed pointer without one of these names."""
_GO_WORD = re.compile(r"[A-Za-z_]\w*")


def _go_test_imports(program: str, test: str) -> tuple[str, str, str | None]:
    """The imports to add for the packages the test names (``json.`` where the test
    declares no ``json`` of its own at the top level) that the program does not import
    under that name, the declarations that keep them used, and why the build is
    untrusted, if it is: the program imports another package under such a name. Bound at
    file scope, an added import makes a program's own ``var json fakeJSON`` a compile
    error ("redeclared") instead of what the test's ``json.Marshal`` calls."""
    code = _GO_LITERAL.sub(" ", test)
    own = set(_GO_TOP_DECL.findall(code))
    wanted = {m.group(1) for m in _GO_QUALIFIER.finditer(code)} & _GO_TEST_PACKAGES.keys()
    have = _go_program_imports(program)
    imports, uses, untrusted = [], [], None
    for name in sorted(wanted - own):
        path, symbol = _GO_TEST_PACKAGES[name]
        if name in have:
            if have[name] != path and untrusted is None:
                untrusted = (
                    f'the program imports "{have[name]}" as `{name}`, the name the test '
                    f'uses for "{path}"'
                )
            continue
        imports.append(f'{name} "{path}"')
        uses.append(f"var _ = {name}.{symbol}\n")
    return "; ".join(imports), "".join(uses), untrusted


_GO_TESTIFY = {"assert": "github.com/stretchr/testify/assert",
               "require": "github.com/stretchr/testify/require"}  # fmt: skip


def _go_without_testify(program: str) -> tuple[str, frozenset[str]]:
    """The program with its imports of testify's packages blanked (spaces: its lines stay)
    where it names the package nowhere else, and the names of ``_GO_TESTIFY`` that the
    program so blanked names nowhere (``_go_unbound``). HumanEval-X's Go program starts
    with the test's own imports (``testing`` and testify's ``assert``), which only the test
    uses. The lifted recorder calls none of testify (the host compares as it would), and
    their link (``assert`` imports ``net/http``) was most of its build: ``go test -c`` about
    0.38 s on one core against 0.21 without. A program that names ``assert`` (its own
    ``func assert``, a call of it) keeps the import, so it compiles or fails as under ``go
    test``; one that names it nowhere compiles the same without it."""
    toks = lifted_go.tokens(program)
    if not toks:
        return program, frozenset(_GO_TESTIFY)
    named = Counter(t.text for t in toks if t.kind == "id")
    cut: list[tuple[int, int]] = []
    for a, b in lifted_go.statements(toks, 0, len(toks)):
        if toks[a].text != "import" or a + 1 >= b:
            continue
        group = toks[a + 1].text == "("
        specs = lifted_go.statements(toks, a + 2, toks[a + 1].match) if group else [(a + 1, b)]
        for x, y in specs:
            if y - x not in (1, 2) or toks[y - 1].kind != "lit":
                continue
            path = toks[y - 1].text[1:-1]
            name = toks[x].text if y - x == 2 else path.rsplit("/", 1)[-1]
            if path not in _GO_TESTIFY.values() or name in ("_", "."):
                continue
            own = 1 if y - x == 2 else 0  # its own name in the spec, if written
            if named[name] == own:
                # with the ``;`` written after it, if any: a spec's blank and its ``;`` left
                # would be a syntax error the test beside the program never meets
                last = y if y < len(toks) and toks[y].text == ";" else y - 1
                cut.append((toks[a if not group else x].start, toks[last].end))
                named[name] -= own  # blanked with the spec
    for start, end in reversed(cut):
        program = program[:start] + re.sub(r"[^\n]", " ", program[start:end]) + program[end:]
    return program, frozenset(n for n in _GO_TESTIFY if not named[n])


def _go_unbound(imports: str, uses: str, unnamed: frozenset[str]) -> tuple[str, str]:
    """``_go_test_imports``' imports and uses less those of the names in ``unnamed``, which
    the program never names (``_go_without_testify``: the recorder has no use for them,
    and no program that names none of them compiles otherwise without them)."""
    kept = [i for i in imports.split("; ") if i and i.split()[0] not in unnamed]
    lines = [u for u in uses.splitlines(keepends=True)
             if u.removeprefix("var _ = ").split(".")[0] not in unnamed]  # fmt: skip
    return "; ".join(kept), "".join(lines)


def _go_imports(program: str, imports: str) -> str:
    """The program with ``imports`` declared right after its package clause (on the same
    line, so the program's own line numbers stay), where ``_go_header`` finds it."""
    header = _go_header(program)
    if header is None:  # no package clause Go would read: the unit is untrusted
        return program
    at = header[0]
    return f"{program[:at]}; import ({imports}){program[at:]}"


def _go_report(secret: _Secret) -> str:
    """The report's arrays as package variables (not constants the compiler could fold)
    and the function that writes the report."""
    a, b = secret.arrays()
    t = secret.tag
    return (
        f"var __cr_a_{t} = [16]byte{{{a}}}\nvar __cr_b_{t} = [16]byte{{{b}}}\n\n"
        f"func __cr_report_{t}() {{\n\tvar out [32]byte\n\tfor i := 0; i < 16; i++ {{\n"
        f"\t\tx := __cr_a_{t}[i] ^ __cr_b_{t}[i]\n"
        '\t\tout[2*i] = "0123456789abcdef"[x>>4]\n\t\tout[2*i+1] = "0123456789abcdef"[x&15]\n\t}\n'
        f'\t__cr_os_{t}.NewFile(3, "pass").Write(out[:])\n}}\n'
    )


def _go_enter_once(tag: str, gates: int) -> str:
    """The gate each test function of ours (``main``, a ``TestX`` wrapper, ``TestMain``)
    passes first: it lets the function be entered once, and ends the process
    (``MAIN_REENTERED``) when it is entered again, whoever called it first. These names
    are the program's to call (``TestHypotenuse`` is in its package, ``main`` too): a
    program called the test's ``TestX`` itself with a zero ``testing.T`` of its own, in a
    goroutine of its own, read testify's ``expected: 5`` from that ``T``'s log, and
    answered the real run from it (HumanEval-X's shape: paid 1.0), as a C program had
    with the test's ``main`` (``_enter_once``)."""
    t = tag
    return (
        f"var __cr_in_{t} [{gates}]int32\n\n"
        f"func __cr_enter_{t}(i int) {{\n"
        f"\tif !__cr_atomic_{t}.CompareAndSwapInt32(&__cr_in_{t}[i], 0, 1) {{\n"
        f'\t\t__cr_os_{t}.Stderr.WriteString("a test function was entered again\\n")\n'
        f"\t\t__cr_os_{t}.Exit({MAIN_REENTERED})\n\t}}\n}}\n\n"
    )


def _go_own_imports(tag: str, names: tuple[str, ...]) -> str:
    """The harness's own imports, each named with the build's tag (a program that imports
    them under the names the harness uses could otherwise stand in for them)."""
    paths = {"os": "os", "flag": "flag", "testing": "testing", "runtime": "runtime",
             "strconv": "strconv", "atomic": "sync/atomic"}  # fmt: skip
    return "; ".join(f'__cr_{n}_{tag} "{paths[n]}"' for n in names)


def _go_main_unit(program: str, test: str, secret: _Secret) -> str:
    t = secret.tag
    body = _GO_MAIN.sub(f"func __cr_main_{t}()", test, count=1)
    imports, uses, _ = _go_test_imports(program, test)
    own = _go_own_imports(t, ("os", "atomic"))
    return (
        _go_imports(program, "; ".join(filter(None, (own, imports))))
        + f"\n{uses}{body}\n\n{_go_report(secret)}\n{_go_enter_once(t, 1)}"
        f"func main() {{\n\t__cr_enter_{t}(0)\n\t__cr_main_{t}()\n\t__cr_report_{t}()\n}}\n"
    )


def _go_test_unit(program: str, test: str, secret: _Secret) -> str:
    """The program, the test with each test function renamed and called from a wrapper of
    ours that marks it done when it returned and did not fail or skip, and our TestMain:
    the flags parsed again, then a report only when ``m.Run()`` returned 0 and every test
    function was marked (so a flag set where our parse does not reach, such as a
    ``flag.CommandLine`` the program replaced after ``testing.Init``, skips nothing). Each
    wrapper and ``TestMain`` pass ``_go_enter_once``'s gate first."""
    t = secret.tag
    names: list[str] = []

    def wrap(m: re.Match[str]) -> str:
        names.append(m.group(1))
        return f"func __cr_body_{t}_{m.group(1)}{m.group(2)}"

    body = _GO_TEST_DECL.sub(wrap, test)
    wrappers = "".join(
        f"func {name}(t *__cr_testing_{t}.T) {{\n\t__cr_enter_{t}({i})\n\t__cr_body_{t}_{name}(t)\n"
        f"\tif !t.Failed() && !t.Skipped() {{\n\t\t__cr_done_{t}[{i}] = true\n\t}}\n}}\n\n"
        for i, name in enumerate(names)
    )
    flags = ", ".join(f'"-test.{f}"' for f in _GO_TEST_FLAGS)
    own = _go_own_imports(t, ("os", "flag", "testing", "runtime", "strconv", "atomic"))
    imports, uses, _ = _go_test_imports(program, test)
    return (
        _go_imports(program, own + (f"; {imports}" if imports else ""))
        + f"\n{uses}{body}\n\n{_go_report(secret)}\n{_go_enter_once(t, len(names) + 1)}{wrappers}"
        f"var __cr_done_{t} [{len(names)}]bool\n\n"
        f"func TestMain(m *__cr_testing_{t}.M) {{\n"
        f"\t__cr_enter_{t}({len(names)})\n"
        f"\t__cr_flag_{t}.CommandLine.Parse([]string{{{flags}, "
        f'"-test.parallel=" + __cr_strconv_{t}.Itoa(__cr_runtime_{t}.GOMAXPROCS(0))}})\n'
        "\tcode := m.Run()\n"
        f"\tfor _, done := range __cr_done_{t} {{\n\t\tif !done && code == 0 {{\n"
        f'\t\t\t__cr_os_{t}.Stderr.WriteString("a test function did not run to its end\\n")\n'
        "\t\t\tcode = 1\n\t\t}\n\t}\n"
        f"\tif code == 0 {{\n\t\t__cr_report_{t}()\n\t}}\n"
        f"\t__cr_os_{t}.Exit(code)\n}}\n"
    )


# ------------------------------------------------------------------ Rust
_RUST_TEST_FN = re.compile(
    r"((?:#\[[^\]]*\]\s*)*)#\[test\]\s*((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+(\w+)\s*\(\s*\)\s*(?:->([^{]*))?\{"
)
_RUST_IGNORE = re.compile(r"#\[\s*ignore\b")
_RUST_GLOB_SUPER = re.compile(r"\buse\s+(?:super|crate)\s*::\s*(?:\*|\{\s*\*\s*\})\s*;")
_RUST_USE_LEAF = re.compile(
    r"(?:^|::)\s*(?:r#)?([A-Za-z_]\w*)\s*(?:\bas\s+(?:r#)?([A-Za-z_]\w*))?\s*$"
)
_RUST_ITEM = re.compile(
    r"\b(?:fn|struct|enum|union|trait|type|const|static|mod)\s+(?:r#)?([A-Za-z_]\w*)"
    r"|\bmacro_rules\s*!\s*(?:r#)?([A-Za-z_]\w*)"
)
RUST_PRELUDE = ("Copy", "Send", "Sized", "Sync", "Unpin", "Drop", "Fn", "FnMut", "FnOnce",
                "drop", "Box", "ToOwned", "Clone", "PartialEq", "PartialOrd", "Eq", "Ord",
                "AsRef", "AsMut", "Into", "From", "Default", "Iterator", "Extend",
                "IntoIterator", "DoubleEndedIterator", "ExactSizeIterator", "Option", "Some",
                "None", "Result", "Ok", "Err", "String", "ToString", "Vec", "TryFrom", "TryInto",
                "FromIterator")  # fmt: skip
"""The names of Rust 2021's prelude: a program's ``fn Some`` or ``struct String`` reaches a
test module through its ``use super::*`` (a glob import shadows the prelude), so the
harness imports these explicitly there (an explicit import shadows a glob)."""
RUST_PRIMITIVES = ("bool", "char", "f32", "f64", "i8", "i16", "i32", "i64", "i128", "isize",
                   "str", "u8", "u16", "u32", "u64", "u128", "usize")  # fmt: skip
"""The primitive types, which a program's ``mod f64 { pub const EPSILON: f64 = 1e300; }``
shadows in a path (``f64::EPSILON``) wherever its items are in scope; imported explicitly
from ``::std::primitive``, as the crates ``std`` and ``core`` are from ``::std`` and
``::core`` (a program's ``mod std`` made the test's ``std::f64::EPSILON`` its own)."""
RUST_STD_NAMES = {
    **{n: "::std::collections" for n in ("HashMap", "HashSet", "BTreeMap", "BTreeSet",
                                         "VecDeque", "BinaryHeap", "LinkedList")},
    "Ordering": "::std::cmp", "Reverse": "::std::cmp", "Rc": "::std::rc", "RefCell": "::std::cell",
    "Cell": "::std::cell", "Arc": "::std::sync", "Mutex": "::std::sync", "Cow": "::std::borrow",
    "Wrapping": "::std::num", "TypeId": "::std::any", "Any": "::std::any",
}  # fmt: skip
"""Types of ``std`` beyond the prelude that a test takes from the program's own ``use``
lines through its ``use super::*`` (HumanEval-X's Rust declarations import
``collections::{HashSet, HashMap}``; its test builds ``HashMap::from([...])``). Where the
program binds such a name, the test imports ``std``'s explicitly, as it does the
prelude's: a program's ``mod HashMap`` whose ``from`` handed back its last answer (a real
``HashMap``, compared by ``std``'s own ``==``) built the test's expected value (paid
1.0). A name the program does not bind stays unbound, as in plain ``rustc``."""
_RUST_FORWARDED = ("assert", "assert_eq", "assert_ne", "debug_assert", "debug_assert_eq",
                   "debug_assert_ne", "panic", "unreachable", "todo", "unimplemented", "vec",
                   "format", "matches", "print", "println", "eprint", "eprintln", "write",
                   "writeln", "concat", "stringify")  # fmt: skip


def _rust_unit(program: str, test: str) -> tuple[str, list[str]]:
    """The program, the harness, the forwarding macros, then the test with a report in each
    ``#[test]`` function; and the report lines they write (``NONCE NAME``, one nonce per
    function, so a program that catches one test's line learns nothing of another's).
    A function's body runs as a closure it calls, and the report follows the call, so it
    is written only when the body returned (a ``?`` or ``return`` in it too) and its value
    is ``()`` or an ``Ok`` (a test that returned ``Err`` once reported, and a program's
    thread that held stdout's lock kept libtest from printing its failure until it
    called ``exit(0)``), never while something unwinds through it: a foreign exception unwinds with
    ``thread::panicking()`` false, so a guard's ``Drop`` alone would have reported it.
    Under ``#[should_panic]`` the body runs under ``catch_unwind``, and the report is
    written when the payload's message holds the expected one (a guard's ``Drop`` reported
    any panic before libtest compared the message, and a program's thread that held
    stdout's lock kept libtest from printing the failure until it called ``exit(0)``);
    the panic then resumes for libtest. Where the attribute is in a form this does not
    read (neither a plain nor a raw string literal), the guard's ``Drop`` still reports
    while a panic unwinds. Each test function first passes a gate that lets it be entered
    once and ends the process (``MAIN_REENTERED``, by ``exit_group``) when it is entered
    again: a test function at the crate root (MultiPL-E's, converted or raw) is the
    program's to call, and a program ran it from its own function in a thread of its own,
    its answer a wrong one, read libtest's ``right: `14``` from the panic that
    ``join`` handed back, and answered the real run from it (paid 1.0)."""
    tag = secrets.token_hex(6)
    guard = f"__CrGuard{tag}"
    drawn: list[_Secret] = []
    lines: list[str] = []
    test = _rust_main_as_test(test)
    blanked = compiled_eq.rust_blank(test)
    uses = _rust_test_uses(test, program)
    pieces: list[str] = []
    at = 0
    for m in _RUST_TEST_FN.finditer(test):
        if m.start() < at or blanked[m.end() - 1] != "{":  # wrapped already, or not code
            continue
        attrs = m.group(1) + m.group(2)
        if _RUST_IGNORE.search(attrs):  # libtest does not run it
            continue
        close = _rust_block_end(blanked, m.end() - 1)
        panics = "should_panic" in attrs
        if close is None and not panics:  # unbalanced: it does not compile either way
            continue
        secret = _Secret.draw()
        drawn.append(secret)
        lines.append(f"{secret.nonce} {m.group(3)}\n")
        args = f'"{m.group(3)}", {len(drawn) - 1}'
        pieces.append(f"{test[at : m.end()]}{uses} crate::{guard}::enter({len(drawn) - 1});")
        want = _rust_panic_expected(attrs)
        if panics and close is not None and want is not None:
            e = f"__cr_e_{tag}"
            pieces += [
                f" let __cr_p_{tag} = ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(|| {{",
                test[m.end() : close],
                f"}})); if let ::core::result::Result::Err({e}) = __cr_p_{tag} {{ "
                f"if crate::{guard}::said(&*{e}, {want}) {{ crate::{guard}::report({args}); }} "
                f"::std::panic::resume_unwind({e}) }} ",
            ]
            at = close
            continue
        if panics:  # an expected message this cannot read: libtest alone checks it
            pieces.append(f" let _cr_guard = crate::{guard}({args});")
            at = m.end()
            continue
        ret = f"-> {m.group(4).strip()} " if m.group(4) and m.group(4).strip() else ""
        assert close is not None
        pieces += [
            f" let __cr_r_{tag} = (|| {ret}{{",
            test[m.end() : close],
            f"}})(); if crate::{guard}Ok::ok(&__cr_r_{tag}) {{ crate::{guard}::report({args}); }} "
            f"__cr_r_{tag} ",
        ]
        at = close
    pieces.append(test[at:])
    guarded = _rust_prelude_imports("".join(pieces), program)
    n = max(1, len(drawn))
    rows = [s.arrays() for s in drawn] or [("0, " * 15 + "0", "0, " * 15 + "0")]
    table_a = ", ".join(f"[{a}]" for a, _ in rows)
    table_b = ", ".join(f"[{b}]" for _, b in rows)
    forwards = rust_forwards()
    harness = (
        f"\n#[cfg(test)] #[allow(dead_code)] struct {guard}(&'static str, usize);\n"
        f"#[cfg(test)] trait {guard}Ok {{ fn ok(&self) -> bool; }}\n"
        f"#[cfg(test)] impl {guard}Ok for () {{ fn ok(&self) -> bool {{ true }} }}\n"
        f"#[cfg(test)] impl<T, E> {guard}Ok for ::core::result::Result<T, E> {{\n"
        "    fn ok(&self) -> bool { <::core::result::Result<T, E>>::is_ok(self) }\n}\n"
        f"#[cfg(test)] static {guard.upper()}_A: [[u8; 16]; {n}] = [{table_a}];\n"
        f"#[cfg(test)] static {guard.upper()}_B: [[u8; 16]; {n}] = [{table_b}];\n"
        f"#[cfg(test)] const {guard.upper()}_OUT: ::core::sync::atomic::AtomicBool = "
        "::core::sync::atomic::AtomicBool::new(false);\n"
        f"#[cfg(test)] static {guard.upper()}_IN: [::core::sync::atomic::AtomicBool; {n}] = "
        f"[{guard.upper()}_OUT; {n}];\n"
        f"#[cfg(test)] impl ::core::ops::Drop for {guard} {{\n"
        "    fn drop(&mut self) {\n"
        f"        if ::std::thread::panicking() {{ {guard}::report(self.0, self.1); }}\n"
        "    }\n}\n"
        f"#[cfg(test)] #[allow(dead_code)] impl {guard} {{\n"
        "    fn said(p: &(dyn ::core::any::Any + ::core::marker::Send), want: &::core::primitive::str) -> bool {\n"
        "        type Payload = dyn ::core::any::Any + ::core::marker::Send;\n"
        "        let text: &::core::primitive::str = if let ::core::option::Option::Some(s) =\n"
        "            <Payload>::downcast_ref::<&'static ::core::primitive::str>(p) { s }\n"
        "            else if let ::core::option::Option::Some(s) = <Payload>::downcast_ref::<::std::string::String>(p)\n"
        '            { <::std::string::String>::as_str(s) } else { "" };\n'
        "        <::core::primitive::str>::contains(text, want)\n"
        "    }\n"
        "    fn enter(row: usize) {\n"
        f"        if !{guard.upper()}_IN[row].swap(true, ::core::sync::atomic::Ordering::SeqCst) {{ return; }}\n"
        '        #[cfg(target_arch = "x86_64")]\n'
        '        unsafe { ::core::arch::asm!("syscall", in("rax") 231isize, in("rdi") '
        f"{MAIN_REENTERED}isize, options(noreturn, nostack)); }}\n"
        '        #[cfg(target_arch = "aarch64")]\n'
        '        unsafe { ::core::arch::asm!("svc 0", in("x8") 94usize, in("x0") '
        f"{MAIN_REENTERED}isize, options(noreturn, nostack)); }}\n"
        '        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]\n'
        f"        ::std::process::exit({MAIN_REENTERED});\n"
        "    }\n"
        "    #[inline(never)]\n"
        "    fn report(name: &'static str, row: usize) {\n"
        "        let mut out = [0u8; 33];\n"
        "        for i in 0..16 {\n"
        f"            let x = unsafe {{ ::core::ptr::read_volatile(&{guard.upper()}_A[row][i]) ^ "
        f"::core::ptr::read_volatile(&{guard.upper()}_B[row][i]) }};\n"
        '            out[2 * i] = b"0123456789abcdef"[(x >> 4) as usize];\n'
        '            out[2 * i + 1] = b"0123456789abcdef"[(x & 15) as usize];\n'
        "        }\n"
        "        out[32] = b' ';\n"
        f"        {guard}::put(&out);\n"
        "        let mut i = 0;\n"
        "        while i < 33 { unsafe { ::core::ptr::write_volatile(&mut out[i], 0) }; i += 1; }\n"
        f"        {guard}::put(<str>::as_bytes(name));\n"
        f'        {guard}::put(b"\\n");\n'
        "    }\n"
        "    #[inline(never)]\n"
        "    fn put(b: &[u8]) {\n"
        "        let (p, n) = (<[u8]>::as_ptr(b), <[u8]>::len(b));\n"
        "        let mut k = 0;\n"
        "        while k < n {\n"
        "            let r: isize;\n"
        '            #[cfg(target_arch = "x86_64")]\n'
        '            unsafe { ::core::arch::asm!("syscall", inlateout("rax") 1isize => r, in("rdi") 3isize,'
        ' in("rsi") <*const u8>::wrapping_add(p, k), in("rdx") n - k, lateout("rcx") _, lateout("r11") _,'
        " options(nostack)); }\n"
        '            #[cfg(target_arch = "aarch64")]\n'
        '            unsafe { ::core::arch::asm!("svc 0", in("x8") 64usize, inlateout("x0") 3isize => r,'
        ' in("x1") <*const u8>::wrapping_add(p, k), in("x2") n - k, options(nostack)); }\n'
        '            #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]\n'
        "            {\n"
        "                use ::std::io::Write;\n"
        "                use ::std::os::unix::io::FromRawFd;\n"
        "                let mut f = ::std::mem::ManuallyDrop::new(unsafe { ::std::fs::File::from_raw_fd(3) });\n"
        "                r = if <::std::fs::File as Write>::write_all(&mut f, &b[k..]).is_ok() { (n - k) as isize } else { -1 };\n"
        "            }\n"
        "            if r == -4 { continue; }\n"  # EINTR
        "            if r <= 0 { return; }\n"
        "            k += r as usize;\n"
        "        }\n    }\n}\n"
    )
    return f"{program}\n{harness}{forwards}\n{guarded}\n", lines


def rust_forwards() -> str:
    """The forwarding macros that follow the program in a Rust unit: each standard macro a
    test (or a lifted call's arguments) uses, as ``std``'s or ``core``'s, so a
    ``macro_rules!`` of the program's by that name reaches nothing after them."""
    core = {"vec", "format", "print", "println", "eprint", "eprintln"}
    return "\n".join(
        f"#[allow(unused_macros)] macro_rules! {name} {{ ($($t:tt)*) => {{ "
        f"::{'std' if name in core else 'core'}::{name}!($($t)*) }}; }}"
        for name in _RUST_FORWARDED
    )


def _rust_bound(blanked: str) -> tuple[set[str], bool]:
    """The names a piece of Rust (comments and literals blanked) declares or imports, and
    whether it has a glob import other than ``super::*`` or ``crate::*`` (which may bind
    any name)."""
    own: set[str] = set()
    glob = False
    for m in _RUST_ITEM.finditer(blanked):
        own.add(m.group(1) or m.group(2))
    for decl, body in _rust_use_decls(blanked):
        if "*" in body and not _RUST_GLOB_SUPER.fullmatch(decl):
            glob = True
        for leaf in re.split(r"[{},]", body):
            bound = _RUST_USE_LEAF.search(leaf)
            if bound:
                own.add(bound.group(2) or bound.group(1))
    return own, glob


_RUST_USE_START = re.compile(r"\buse\s+")


def _rust_use_decls(blanked: str) -> list[tuple[str, str]]:
    """Each ``use`` declaration (its text, and what it imports), in linear time: a
    program's ``use a::`` 200,000 times with no ``;`` made a pattern that reads to the next
    ``;`` scan to the end from each of them."""
    out: list[tuple[str, str]] = []
    semi = -1
    for m in _RUST_USE_START.finditer(blanked):
        if semi < m.end():
            semi = blanked.find(";", m.end())
            if semi < 0:
                break
        out.append((blanked[m.start() : semi + 1], blanked[m.end() : semi]))
    return out


def _rust_test_uses(test: str, program: str = "") -> str:
    """The ``use`` declarations that make the prelude's names (``RUST_PRELUDE``), the
    primitive types (``RUST_PRIMITIVES``) and the crates ``std`` and ``core`` the real
    ones wherever they stand, and the ``RUST_STD_NAMES`` the test uses that ``program``
    binds (or may, by a glob), but for the names the test itself declares or imports
    (which would clash)."""
    blanked = compiled_eq.rust_blank(test)
    own, _ = _rust_bound(blanked)
    theirs, glob = _rust_bound(compiled_eq.rust_blank(program))
    used = set(compiled_eq.rust_code_words(test))
    allow = " #[allow(unused_imports)] use"
    out = "".join(
        f"{allow} {RUST_STD_NAMES[n]}::{n};"
        for n in sorted(RUST_STD_NAMES.keys() & used - own)
        if glob or n in theirs
    )
    for path, group in (("::std::prelude::rust_2021", RUST_PRELUDE),
                        ("::std::primitive", RUST_PRIMITIVES)):  # fmt: skip
        names = [n for n in group if n not in own]
        if names:
            out += f"{allow} {path}::{{{', '.join(names)}}};"
    out += "".join(f"{allow} ::{c} as {c};" for c in ("std", "core") if c not in own)
    return out


def _rust_prelude_imports(test: str, program: str) -> str:
    """The test with ``_rust_test_uses`` after each ``use super::*;`` (each test function's
    body has them too: a test at the crate root, as MultiPL-E's, has no glob, the
    program's items are its own scope's)."""
    blanked = compiled_eq.rust_blank(test)
    imports = _rust_test_uses(test, program)
    for end in reversed([m.end() for m in _RUST_GLOB_SUPER.finditer(blanked)]):
        test = test[:end] + imports + test[end:]
    return test


_RUST_MAIN_FN = re.compile(r"(?<![A-Za-z0-9_$])fn\s+main\s*\(\s*\)")


def _rust_main_as_test(test: str) -> str:
    """A test with no ``#[test]`` function but a ``fn main()`` (MultiPL-E's shape, before
    its converter makes it one): that ``main`` as the ``#[test]`` function
    ``cr_test_main``. Built with ``--test``, a ``main`` never runs, so such a test passed
    any program that compiled; renamed, it also leaves a program's own ``main`` alone."""
    blanked = compiled_eq.rust_blank(test)
    if any(blanked[m.end() - 1] == "{" for m in _RUST_TEST_FN.finditer(test)):
        return test
    m = _RUST_MAIN_FN.search(blanked)
    if m is None:
        return test
    return f"{test[: m.start()]}#[test]\nfn cr_test_main(){test[m.end() :]}"


_RUST_PANIC_EXPECTED = re.compile(
    r'should_panic\s*(?:\(\s*expected\s*=\s*("(?:\\.|[^"\\\n])*"|r(#*)"[\s\S]*?"\2)\s*\)'
    r"|\(\s*\)|(?=\s*\]))"
)


def _rust_panic_expected(attrs: str) -> str | None:
    """The message a ``#[should_panic]`` test expects, as a Rust string literal (plain or
    raw, ``r#"..."#``; ``""`` when it names none), or None when its attribute is in a form
    this does not read."""
    m = _RUST_PANIC_EXPECTED.search(attrs)
    if m is None:
        return None
    return m.group(1) or '""'


def _rust_block_end(blanked: str, open_at: int) -> int | None:
    """The offset of the ``}`` that closes the ``{`` at ``open_at`` (comments and literals
    blanked), or None."""
    depth = 0
    for i in range(open_at, len(blanked)):
        if blanked[i] == "{":
            depth += 1
        elif blanked[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return None


# ------------------------------------------------------------------ grading
def grade_compiled(
    problem: Problem, index: int, unit: Unit, report: dict[str, Any], build: dict[str, Any],
    oom: bool, checked: TestResult | None = None,
) -> TestResult:  # fmt: skip
    """The verdict of one test of a compiled language, from the runner's report
    (``checked``: the problem's checker's verdict for a stdio test that ran to its end)."""
    from reward_api.verify import grading

    if unit.refused is not None:
        return TestResult(verdict=Verdict.compile_error, detail=unit.refused)
    if report.get("tampered"):  # the runner's ``_Builds.run``
        return TestResult(verdict=Verdict.runtime_error,
                          detail="an earlier test's program changed this test's build")  # fmt: skip
    if report.get("compile_error"):
        if build.get("limit") == "timeout" or build.get("signal") is not None:
            detail = "the compiler hit its limits (time, memory or output)"
        else:
            detail = grading.clean_text(build.get("output", ""), MAX_COMPILE_MESSAGE_CHARS)
        return TestResult(verdict=Verdict.compile_error, detail=detail or "compile error")
    test = problem.tests[index]
    time_s = grading.report_time(report)
    failed = grading.failure(report, oom, python=False)
    if failed is not None and not (
        isinstance(test, AssertTest) and report.get("signal") == SIGABRT
    ):
        return TestResult(verdict=failed[0], time_s=time_s, detail=failed[1])
    if isinstance(test, StdioTest):
        if report.get("exit_code") != 0:
            return TestResult(verdict=Verdict.runtime_error, time_s=time_s,
                              detail=f"exit status {report.get('exit_code')}")  # fmt: skip
        if problem.checker is not None:
            return grading.checked_result(checked, time_s)
        ok = comparator(problem.compare)(str(report.get("stdout", "")), test.output)
        return TestResult(verdict=Verdict.accepted if ok else Verdict.wrong_answer, time_s=time_s)
    if isinstance(test, CallTest):
        return _grade_call(problem.language, test, unit, report, time_s)
    if failed is not None:  # abort(): a failed assert or an uncaught exception
        return TestResult(verdict=Verdict.wrong_answer, time_s=time_s, detail="the test aborted")
    if report.get("exit_code") != 0:
        return TestResult(verdict=Verdict.wrong_answer, time_s=time_s,
                          detail=f"the test failed (exit status {report.get('exit_code')})")  # fmt: skip
    if not unit.reported(report.get("pass_channel")):
        return TestResult(verdict=Verdict.wrong_answer, time_s=time_s,
                          detail="the test did not run to its end")  # fmt: skip
    if unit.untrusted:
        return TestResult(verdict=Verdict.wrong_answer, time_s=time_s, detail=unit.untrusted)
    return TestResult(verdict=Verdict.accepted, time_s=time_s)


def grade_lifted(
    problem: Problem, index: int, unit: Unit, report: dict[str, Any], build: dict[str, Any],
    oom: bool, judged: lifted.Judged | None,
) -> TestResult:  # fmt: skip
    """The verdict of a lifted assert test (``reward_api.verify.lifted``): the judge's,
    where a comparison failed before the candidate did; else the candidate's own failure,
    as beside the test; else a pass. ``judged`` is None when no judge ran (the recorder
    wrote no types' line: the program failed, or ended, before the test's ``main``)."""
    from reward_api.verify import grading

    if report.get("compile_error") or report.get("tampered"):
        return grade_compiled(problem, index, unit, report, build, oom)
    time_s = grading.report_time(report)
    if judged is not None and judged.outcome == "failed":
        return TestResult(verdict=Verdict.wrong_answer, time_s=time_s, detail=judged.detail)
    failed = grading.failure(report, oom, python=False)
    if failed is not None and report.get("signal") != SIGABRT:
        return TestResult(verdict=failed[0], time_s=time_s, detail=failed[1])
    if failed is not None:  # abort(): an uncaught exception of the program's
        return TestResult(verdict=Verdict.wrong_answer, time_s=time_s, detail="the test aborted")
    if report.get("exit_code") != 0:
        return TestResult(verdict=Verdict.wrong_answer, time_s=time_s,
                          detail=f"the test failed (exit status {report.get('exit_code')})")  # fmt: skip
    if judged is None or judged.outcome != "passed":
        return TestResult(verdict=Verdict.wrong_answer, time_s=time_s,
                          detail="the test did not run to its end")  # fmt: skip
    return TestResult(verdict=Verdict.accepted, time_s=time_s)


_CALL_ERRORS = {"entry": Verdict.compile_error, "args": Verdict.runtime_error,
                "value": Verdict.wrong_answer}  # fmt: skip


def _grade_call(
    language: str, test: CallTest, unit: Unit, report: dict[str, Any], time_s: float
) -> TestResult:
    """A call test that ran to its end: the harness's report, compared on the host as
    Python's call tests are (``reward_api.verify.calls``)."""
    from reward_api.verify import calls, grading

    if report.get("exit_code") != 0:
        return TestResult(verdict=Verdict.runtime_error, time_s=time_s,
                          detail=f"exit status {report.get('exit_code')}")  # fmt: skip
    channel = report.get("pass_channel")
    msg = calls.read_report(channel, unit.expect or "")
    if msg is None:
        detail = "the program exited before answering" if not channel else "malformed answer"
        verdict = Verdict.runtime_error if not channel else Verdict.wrong_answer
        return TestResult(verdict=verdict, time_s=time_s, detail=detail)
    if "error" in msg:
        kind = msg.get("kind")
        verdict = _CALL_ERRORS.get(kind if isinstance(kind, str) else "", Verdict.runtime_error)
        if kind == "entry" and language == "javascript":  # no compile: Python's NameError
            verdict = Verdict.runtime_error
        return TestResult(verdict=verdict, time_s=time_s, detail=grading.clean_text(msg["error"]))
    same = grading.safe_equal(grading.as_json_plain(msg["ok"]), grading.as_json_plain(test.output))
    return TestResult(verdict=Verdict.accepted if same else Verdict.wrong_answer, time_s=time_s)

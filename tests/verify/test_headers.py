"""A C++ program's first includes as a precompiled header (``reward_api.verify.headers``):
which lines make the header, and that the unit keeps every other line where it was."""

from __future__ import annotations

import pytest

from reward_api.verify import headers

PROMPT = """/*
Check if in given vector of numbers, are any two numbers closer to each other than
given threshold.
*/
#include<stdio.h>
#include<vector>
#include<math.h>
using namespace std;
bool has_close_elements(vector<float> numbers, float threshold){
    return false;
}
"""


def test_a_humaneval_x_prompt_gives_its_includes_and_keeps_its_lines() -> None:
    found = headers.split(PROMPT)
    assert found is not None
    header, unit = found
    assert header == "#include<stdio.h>\n#include<vector>\n#include<math.h>\nusing namespace std;\n"
    assert unit.count("\n") == PROMPT.count("\n")
    lines, kept = PROMPT.split("\n"), unit.split("\n")
    for i, (before, after) in enumerate(zip(lines, kept, strict=True)):
        assert after == ("" if 4 <= i <= 7 else before)


@pytest.mark.parametrize(
    ("source", "header"),
    [
        # the root's own precompiled <bits/stdc++.h> serves a program that starts with it
        ("#include <bits/stdc++.h>\nusing namespace std;\nint main() {}\n", None),
        # ... but not one that includes it after another header (no header is first then)
        ("#include <vector>\n#include <bits/stdc++.h>\nint x;\n",
         "#include <vector>\n#include <bits/stdc++.h>\n"),
        ("int main() { return 0; }\n", None),
        ("using namespace std;\nint x;\n", None),  # no include: nothing to precompile
        # a quoted include is a file of the program's folder: the header stops before it
        ('#include <vector>\n#include "mine.h"\n#include <string>\n', "#include <vector>\n"),
        # a line comment that ends in a backslash takes the next line in
        ("#include <vector>\n// note \\\n#include <string>\nint x;\n", "#include <vector>\n"),
        ("#include <vector>\\\n\n#include <string>\n", None),
        # a comment, then code on the same line: the code is the program's
        ("#include <vector>\n/* a */ int x;\n#include <string>\n", "#include <vector>\n"),
        ("#include <vector> // vectors\n#include <string>\n", None),
        ("#include <vector>\n#define N 5\n#include <string>\n", "#include <vector>\n"),
        ("#include <vector>\n#if 1\n#include <string>\n#endif\n", "#include <vector>\n"),
        # using before the include: kept in its order (the header fails to build: not a
        # verdict, the unit is compiled as it was)
        ("using namespace std;\n#include <vector>\nint x;\n",
         "using namespace std;\n#include <vector>\n"),
        ("  #  include   <map>  \n\n// c\n/* multi\nline */\n#include<set>\nint x;\n",
         "#  include   <map>\n#include<set>\n"),
        ("#include <vector>\n/* open\n#include <string>\n*/ int x;\n", "#include <vector>\n"),
        ("#include <vector>\r\n#include <string>\n", None),  # a CR is not read here
        ("#include <vector>\n??/\n#include <string>\n", "#include <vector>\n"),
        ("#include <../../etc/passwd>\n", None),  # not a header name here
    ],
)  # fmt: skip
def test_the_header_is_the_leading_standard_includes(source: str, header: str | None) -> None:
    found = headers.split(source)
    assert (found[0] if found else None) == header
    if found is not None:
        assert found[1].count("\n") == source.count("\n")
        # what the header took is gone from the unit, and nothing else
        assert [ln for ln in found[1].split("\n") if ln] == [
            ln for ln in source.split("\n") if ln and ln.strip() not in found[0].split("\n")
        ]


def test_the_key_depends_on_the_header_the_flags_and_the_runtime() -> None:
    flags = ["g++", "-std=gnu++17", "-O2"]
    k = headers.key("#include <vector>\n", flags, "r1")
    assert k == headers.key("#include <vector>\n", list(flags), "r1")
    assert len({k, headers.key("#include <string>\n", flags, "r1"),
                headers.key("#include <vector>\n", [*flags, "-O0"], "r1"),
                headers.key("#include <vector>\n", flags, "r2")}) == 4  # fmt: skip


def _store(tmp_path, built: list[str], seeds: tuple[tuple[str, ...], ...] = ()) -> headers.Headers:
    import base64
    import gzip

    def build(header: str, flags: list[str]):
        built.append(header)
        if "broken" in header:
            return None
        data = base64.b64encode(gzip.compress(b"GCH:" + header.encode())).decode()
        return [["h.h.gch.gz", 0o644, data]]

    return headers.Headers(lambda: tmp_path / "pch", "/cell/pch", "rt", build, seeds)


def _settle(store: headers.Headers) -> None:
    store.settle()  # the builds asked for so far ran


def test_a_header_is_built_the_second_time_it_is_asked_for_and_used_once_ready(tmp_path) -> None:
    built: list[str] = []
    store = _store(tmp_path, built)
    source = "#include <vector>\nint main() {}\n"
    assert store.apply(source, ["g++"]) is None
    _settle(store)
    assert built == []  # one program's header: not worth a compile of its own
    assert store.apply(source, ["g++"]) is None  # the second: built, in the background
    _settle(store)
    unit, path = store.apply(source, ["g++"]) or ("", "")
    name = headers.key("#include <vector>\n", ["g++"], "rt")
    assert path == f"/cell/pch/{name}.h" and unit == "\nint main() {}\n"
    assert (tmp_path / "pch" / f"{name}.h").read_text() == "#include <vector>\n"
    assert (tmp_path / "pch" / f"{name}.h.gch").read_bytes() == b"GCH:#include <vector>\n"
    assert oct((tmp_path / "pch" / f"{name}.h.gch").stat().st_mode & 0o777) == "0o644"
    assert store.apply(source, ["g++"]) is not None and built == ["#include <vector>\n"]
    assert store.used == 2 and store.built == 1
    # other options, another header
    assert store.apply(source, ["g++", "-O0"]) is None
    store.close()


def test_a_header_that_fails_to_build_is_not_tried_again(tmp_path) -> None:
    built: list[str] = []
    store = _store(tmp_path, built)
    broken = "#include <broken>\nint x;\n"
    for _ in range(4):
        assert store.apply(broken, ["g++"]) is None
        _settle(store)
    assert store.failed == 1 and built == ["#include <broken>\n"]
    store.close()


@pytest.mark.parametrize("retire_s", [0.0, headers.RETIRE_S])
def test_past_the_bound_the_oldest_header_is_no_longer_named_and_removed_later(
    tmp_path, monkeypatch, retire_s: float
) -> None:
    monkeypatch.setattr(headers, "RETIRE_S", retire_s)
    store = _store(tmp_path, [])
    source = "#include <vector>\nint main() {}\n"
    name = headers.key("#include <vector>\n", ["g++"], "rt")
    for _ in range(2):
        store.apply(source, ["g++"])
    _settle(store)
    assert store.apply(source, ["g++"]) is not None
    for k in range(headers.MAX_HEADERS):
        for _ in range(2):
            store.apply(f"#include <h{k}>\n", ["g++"])
    _settle(store)
    assert store.built == headers.MAX_HEADERS + 1
    assert store.apply(source, ["g++"]) is None  # no longer named
    gch = tmp_path / "pch" / f"{name}.h.gch"
    # a compile that named it may still read it: removed only RETIRE_S later
    assert gch.exists() == (retire_s > 0)
    assert (tmp_path / "pch" / f"{name}.h").exists()  # and its text stays
    assert len(list((tmp_path / "pch").glob("*.gch"))) == headers.MAX_HEADERS + (retire_s > 0)
    store.close()


SEEDS = (("string", "vector"), ("vector",), ("iostream",))


def test_seeds_are_built_once_per_options_and_serve_a_header_that_holds_them(tmp_path) -> None:
    built: list[str] = []
    store = _store(tmp_path, built, SEEDS)
    hx = "#include<stdio.h>\n#include<vector>\n#include<string>\nusing namespace std;\nint f();\n"
    assert store.apply(hx, ["g++"]) is None  # nothing built yet: the seeds start
    _settle(store)
    assert built == ["#include <string>\n#include <vector>\n", "#include <vector>\n",
                     "#include <iostream>\n"]  # fmt: skip
    assert store.seeded == 3 and store.built == 0
    # the largest seed whose headers the program includes, the program's text as written
    unit, path = store.apply(hx, ["g++"]) or ("", "")
    name = headers.key("#include <string>\n#include <vector>\n", ["g++"], "rt")
    assert path == f"/cell/pch/{name}.h" and unit == hx
    assert (tmp_path / "pch" / f"{name}.h.gch").exists()
    # ... until the program's own header is built (the second ask built it): it comes first
    _settle(store)
    own = store.apply(hx, ["g++"])
    assert own is not None and own[1] != path and "#include<vector>" not in own[0]
    # a header with one of them alone, in another order and spelling
    vec = "#include <math.h>\n#  include <vector>\nint g();\n"
    vector_seed = headers.key("#include <vector>\n", ["g++"], "rt")
    assert store.apply(vec, ["g++"]) == (vec, f"/cell/pch/{vector_seed}.h")
    # none of them: nothing; a using line before an include: nothing
    assert store.apply("#include <map>\nint h();\n", ["g++"]) is None
    assert store.apply("using namespace std;\n#include <vector>\nint h();\n", ["g++"]) is None
    # other options: their own seeds, built once
    store.apply(vec, ["g++", "-O0"])
    store.apply(vec, ["g++", "-O0"])
    _settle(store)
    assert store.seeded == 6 and store.used_seed == 2
    store.close()


def test_a_compile_with_other_options_reads_the_seeds_of_the_ones_it_names(tmp_path) -> None:
    """An assert build beside the test (its own options) reads the seeds of the program's
    own options (``seed_flags``), and asks for none of its own: GCC loads them with its
    options (``tests/languages/test_headers.py`` checks that on the real compiler)."""
    built: list[str] = []
    store = _store(tmp_path, built, SEEDS)
    hx = "#include<stdio.h>\n#include<vector>\nusing namespace std;\nint f();\n"
    beside = ["g++", "-fno-toplevel-reorder"]
    assert store.apply(hx, beside, ["g++"]) is None  # the program's seeds start
    _settle(store)
    assert store.seeded == len(SEEDS)
    vector_seed = headers.key("#include <vector>\n", ["g++"], "rt")
    assert store.apply(hx + "int g();\n", beside, ["g++"]) == (
        hx + "int g();\n",
        f"/cell/pch/{vector_seed}.h",
    )
    assert store.apply(hx + "int h();\n", beside) is None  # its own options: none of them
    _settle(store)
    assert store.seeded == 2 * len(SEEDS)  # ... which built its own
    store.close()


def test_a_header_with_bits_stdcxx_after_another_reads_the_roots_own(tmp_path) -> None:
    built: list[str] = []
    store = _store(tmp_path, built, SEEDS)
    source = "#include <assert.h>\n#include <bits/stdc++.h>\nusing namespace std;\nint x;\n"
    for _ in range(3):
        unit = source.replace("#include <bits/stdc++.h>", "")
        assert store.apply(source, ["g++"]) == (unit, "bits/stdc++.h")
    _settle(store)
    assert built == [] and store.used_seed == 3  # neither a seed nor a header of its own
    store.close()


@pytest.mark.parametrize(("header", "names"), [
    ("#include<stdio.h>\n#include <vector>\nusing namespace std;\n",
     frozenset({"stdio.h", "vector"})),
    ("#include <vector>\nusing namespace std;\n#include <string>\n", None),
    ("using namespace std;\n", frozenset()),
])  # fmt: skip
def test_the_includes_a_seed_may_stand_for(header: str, names: frozenset[str] | None) -> None:
    assert headers.includes(header) == names

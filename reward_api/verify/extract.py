"""Getting the program out of a sample: the last fenced code block, else the whole text."""

from __future__ import annotations

import re

from reward_api.schemas import Sample

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*$", re.MULTILINE)


def extract_code(completion: str) -> str:
    """The last fenced block of a model completion (an unclosed last fence counts), else all."""
    fences = list(_FENCE.finditer(completion))
    if not fences:
        return completion
    blocks: list[str] = []
    i = 0
    while i < len(fences):
        opening = fences[i]
        closing = next(
            (f for f in fences[i + 1 :] if f.group(1)[0] == opening.group(1)[0] and not f.group(2)),
            None,
        )
        start = opening.end() + 1
        if closing is None:  # a truncated completion: the block runs to the end
            blocks.append(completion[start:])
            break
        blocks.append(completion[start : closing.start()])
        i = fences.index(closing) + 1
    return blocks[-1] if blocks else completion


def program_of(sample: Sample) -> str:
    """``code`` verbatim, else the program extracted from ``completion``."""
    if sample.code is not None:
        return sample.code
    return extract_code(sample.completion or "")

"""Problems as the trainer reads them: CONTRACT problem JSONL in, prompt token ids out.

One reader and one writer for the trainer's JSONL files (problems, held-out problems,
offline completions), and ``PromptRenderer``, the one place a problem becomes the tokens
the engine and the learner see: ``data.prompt_template`` fills in the problem's prompt,
then, for instruct models, the tokenizer's chat template wraps it as the user turn after
an optional system prompt (``add_generation_prompt``; the template's own special tokens,
so no extra BOS is added). Without a chat template the text is tokenised the model's
default way. Prompts over ``data.max_prompt_tokens`` are dropped, not cut.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """Rows of a JSON-lines file (blank lines skipped)."""
    with open(path) as fh:
        return [json.loads(line) for line in fh if line.strip()]


def write_jsonl(path: str | Path, rows: list[dict[str, Any]]) -> None:
    """Write rows as JSON lines."""
    with open(path, "w") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")


class PromptRenderer:
    """problem dict -> prompt token ids, the same for sampling, evaluation and offline rows."""

    def __init__(
        self,
        tokenizer: Any,
        template: str = "{prompt}",
        chat_template: bool = False,
        system_prompt: str | None = None,
        max_prompt_tokens: int | None = None,
    ) -> None:
        if chat_template and not getattr(tokenizer, "chat_template", None):
            raise ValueError("data.chat_template is set but the tokenizer has no chat template")
        self.tokenizer = tokenizer
        self.template = template
        self.chat_template = chat_template
        self.system_prompt = system_prompt
        self.max_prompt_tokens = max_prompt_tokens
        self._cache: dict[str, list[int]] = {}

    def text(self, problem: dict[str, Any]) -> str:
        """The prompt as text (with the chat template's markup when one is used)."""
        user = self.template.format(prompt=problem["prompt"])
        if not self.chat_template:
            return user
        messages = [{"role": "user", "content": user}]
        if self.system_prompt is not None:
            messages.insert(0, {"role": "system", "content": self.system_prompt})
        rendered: str = self.tokenizer.apply_chat_template(
            messages, add_generation_prompt=True, tokenize=False
        )
        return rendered

    def ids(self, problem: dict[str, Any]) -> list[int]:
        """The prompt's token ids (cached per problem id)."""
        key = str(problem.get("id", problem["prompt"]))
        if key not in self._cache:
            special = not self.chat_template  # a chat template carries its own special tokens
            ids = self.tokenizer(self.text(problem), add_special_tokens=special)["input_ids"]
            self._cache[key] = list(ids)
        return self._cache[key]

    def fitting(self, problems: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
        """(problems whose prompt fits max_prompt_tokens, how many were dropped)."""
        if self.max_prompt_tokens is None:
            return problems, 0
        kept = [p for p in problems if len(self.ids(p)) <= self.max_prompt_tokens]
        return kept, len(problems) - len(kept)

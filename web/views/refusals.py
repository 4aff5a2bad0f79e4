"""How a refused command or form reads on a page: the refusal's code in words, with its
detail (territories by name, not their ids)."""

from __future__ import annotations

from games.vocabulary import detail_words, error_text

from ..commands import FormProblem


def refusal_text(error: Exception) -> str:
    if isinstance(error, FormProblem):
        return error.text
    code = getattr(error, "code", "")
    detail = getattr(error, "detail", str(error))
    lead = error_text(code)
    return f"{lead} ({detail_words(detail)})" if detail else lead

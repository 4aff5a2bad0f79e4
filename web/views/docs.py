"""The documentation site (docs/, built into site/ by `make docs`) at /docs/: the pages link
to its glossary for the precise word behind their plain ones. Where it is not built (an
image without it, a fresh clone) each address answers 404."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import Http404
from django.views.static import serve


def docs_page(request, page: str = ""):
    """One file of the built site; a folder's address (mkdocs writes `glossary/index.html`
    for glossary.md) answers with its index.html."""
    root = Path(settings.CONQUEST_DOCS_DIR)
    if not root.is_dir():
        raise Http404("the documentation is not built here (make docs)")
    if page == "" or page.endswith("/"):
        page += "index.html"
    # serve() refuses a path that leaves the root ("..", an absolute one) with a 404.
    return serve(request, page, document_root=str(root))

"""Keep code included in the docs identical to the tested files it comes from.

A doc includes a file with a marker line, then a fenced block holding the file's exact text::

    <!-- include: plugins/tictactoe/rules.py -->
    ```python
    ...
    ```

``python -m tests.docs.includes`` rewrites every such block from its file; the test suite
fails when one differs, so the examples in the docs are always the tested code.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"<!-- include: (?P<path>\S+) -->\n```(?P<lang>\w*)\n(?P<body>.*?)```", re.S)


def blocks(doc: Path) -> list[tuple[str, str]]:
    """Return (included path, block text) for every include in a doc."""
    return [(m["path"], m["body"]) for m in MARKER.finditer(doc.read_text())]


def refresh(doc: Path) -> bool:
    """Rewrite a doc's included blocks from their files; return whether anything changed."""
    text = doc.read_text()

    def fill(match: re.Match[str]) -> str:
        body = (ROOT / match["path"]).read_text()
        return f"<!-- include: {match['path']} -->\n```{match['lang']}\n{body}```"

    new = MARKER.sub(fill, text)
    doc.write_text(new)
    return new != text


def main() -> int:
    """Refresh every doc under docs/."""
    changed = [str(doc) for doc in sorted((ROOT / "docs").rglob("*.md")) if refresh(doc)]
    print("\n".join(changed) or "all includes are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())

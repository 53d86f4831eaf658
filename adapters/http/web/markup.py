"""HTML and SVG written safely: every text and attribute value is escaped on the way out.

Pages are built in Python from :class:`Html` fragments; only this module turns a string into
markup, so a name, a description or anything else a game or player supplies is always text.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from typing import Any

from gamehall.core.drawing import ATTRIBUTES, ELEMENTS, Shape
from gamehall.core.events import Command


class Html(str):
    """Markup that is already safe: joined as it is, never escaped again."""

    __slots__ = ()


def esc(value: object) -> str:
    """Return a value as escaped text (quotes too, so it may stand in an attribute)."""
    return html.escape(str(value), quote=True)


def _children(parts: Any) -> str:
    if parts is None:
        return ""
    if isinstance(parts, Html):
        return str(parts)
    if isinstance(parts, (str, int)):
        return esc(parts)
    return "".join(_children(p) for p in parts)


VOID = frozenset({"meta", "link", "input", "br", "hr", "img"})


def tag(name: str, /, *children: Any, **attrs: Any) -> Html:
    """Return an element: ``class_="x"`` is ``class``, ``data_seq=3`` is ``data-seq``.

    ``True`` writes a bare attribute, ``None`` and ``False`` leave it out.
    """
    out = [f"<{name}"]
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        attr = key.rstrip("_").replace("_", "-")
        out.append(f" {attr}" if value is True else f' {attr}="{esc(value)}"')
    out.append(">")
    if name in VOID:
        return Html("".join(out))
    out.append(_children(children))
    out.append(f"</{name}>")
    return Html("".join(out))


def join(*parts: Any) -> Html:
    """Return fragments joined, escaping plain strings."""
    return Html(_children(parts))


Describe = Callable[[Command], str]
Encode = Callable[[Command], Any]


def svg(root: Shape, describe: Describe, encode: Encode) -> Html:
    """Write a drawing as SVG; a shape with commands becomes a focusable button.

    ``describe`` gives a command's words, ``encode`` its JSON form for the page's script.
    """
    return Html(_shape(root, describe, encode, top=True))


def _shape(node: Shape, describe: Describe, encode: Encode, top: bool = False) -> str:
    if node.tag not in ELEMENTS:
        raise ValueError(f"a drawing may not use the element {node.tag!r}")
    attrs = [(k, v) for k, v in node.attrs if k in ATTRIBUTES]
    title = None
    if top:
        attrs += [("xmlns", "http://www.w3.org/2000/svg"), ("role", "img"), ("class", "board")]
    if node.commands:
        choices = [{"text": describe(c), "command": encode(c)} for c in node.commands]
        title = name = node.label or (choices[0]["text"] if len(choices) == 1 else "choose a move")
        classes = " ".join(v for k, v in attrs if k == "class")
        attrs = [(k, v) for k, v in attrs if k != "class"]
        attrs += [
            ("class", f"{classes} place".strip()),
            ("tabindex", "0"),
            ("role", "button"),
            ("aria-label", name),
            ("data-commands", json.dumps(choices, separators=(",", ":"))),
        ]
    head = node.tag + "".join(f' {k}="{esc(v)}"' for k, v in attrs)
    inner = esc(node.text) + "".join(_shape(c, describe, encode) for c in node.children)
    if title is not None and not any(c.tag == "title" for c in node.children):
        inner = f"<title>{esc(title)}</title>" + inner
    return f"<{head}>{inner}</{node.tag}>"

"""What a person sees on a page, measured in the browser: the smallest text, the smallest
place to tap, and text that overflows its box."""

from __future__ import annotations

from typing import Any

from gamehall.core.testing.words import counted_from_zero, one_of_many

Page = Any

# The smallest rendered font of the visible text in the frame, and which text it is. An SVG
# text's size is its font size scaled by the drawing's transform to the screen.
SMALLEST_FONT = """() => {
  let best = {size: 1e9, text: ""};
  const seen = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none";
  };
  for (const el of document.querySelectorAll("#frame *")) {
    if (el.closest(".sr-only") || !seen(el)) continue;
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      if (m) size *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    }
    if (size < best.size) best = {size: size, text: el.textContent.trim().slice(0, 40)};
  }
  return best;
}"""

# The smallest side of every place a seat can tap (the board's places and the move buttons).
SMALLEST_TARGET = """() => {
  let best = {size: 1e9, text: ""};
  for (const el of document.querySelectorAll("#frame [data-commands], #frame button")) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const size = Math.min(box.width, box.height);
    if (size < best.size) best = {size: size, text: (el.getAttribute("aria-label") || el.textContent).trim().slice(0, 40)};
  }
  return best;
}"""

# Text that does not fit its box: an HTML element whose content is wider than the element
# while it clips (overflow hidden or an ellipsis); an SVG text that sticks out of the smallest
# rect its middle lies in (a panel, a card, a cell), or out of the drawing itself.
OVERFLOWING = """() => {
  const out = [];
  for (const el of document.querySelectorAll("#frame *")) {
    if (el instanceof SVGElement || el.closest(".sr-only")) continue;
    const style = getComputedStyle(el);
    const clips = style.overflowX === "hidden" || style.overflowX === "clip" || style.textOverflow === "ellipsis";
    if (clips && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
      out.push("html " + el.tagName.toLowerCase() + ": " + el.textContent.trim().slice(0, 60));
    }
  }
  for (const svg of document.querySelectorAll("#frame svg.board")) {
    const frame = svg.getBoundingClientRect();
    const rects = Array.from(svg.querySelectorAll("rect")).map(r => r.getBoundingClientRect())
      .filter(b => b.width > 4 && b.height > 4);
    for (const text of svg.querySelectorAll("text")) {
      if (!text.textContent.trim()) continue;
      const a = text.getBoundingClientRect();
      if (!a.width) continue;
      const x = (a.left + a.right) / 2, y = (a.top + a.bottom) / 2;
      if (a.left < frame.left - 1 || a.right > frame.right + 1) {
        out.push("svg, out of the drawing: " + text.textContent.trim().slice(0, 60));
        continue;
      }
      let box = null;
      for (const b of rects) {
        if (x >= b.left && x <= b.right && y >= b.top && y <= b.bottom
            && (!box || b.width * b.height < box.width * box.height)) box = b;
      }
      if (box && box !== null && (box.width < frame.width - 2) && (a.left < box.left - 1 || a.right > box.right + 1)) {
        out.push("svg: " + text.textContent.trim().slice(0, 60));
      }
    }
  }
  return out;
}"""


# Every piece of text of the page, one per line (an SVG's texts too), as a person reads it.
# Each line of a text node stays a line: a table set as text in a <pre> (an outcome's score
# lines) is read row by row, not as one run of words ("… 0 0 1" then the next row's "nobles").
TEXTS = """() => Array.from(document.querySelectorAll("body *"))
  .filter((el) => !el.closest("script, style, .sr-only"))
  .flatMap((el) => Array.from(el.childNodes).filter((n) => n.nodeType === 3)
    .flatMap((n) => n.textContent.split("\\n"))
    .map((line) => line.replace(/\\s+/g, " ").trim()))
  .filter(Boolean).join("\\n")"""


def word_problems(page: Page) -> list[str]:
    """Return what a page says that people should not read: a seat counted from 0, or a
    count of one with a plural noun ("1 units")."""
    text: str = page.evaluate(TEXTS)
    return [f"{p} in {line!r}" for line in text.splitlines()
            for p in counted_from_zero(line) + one_of_many(line)]  # fmt: skip


def smallest_font(page: Page) -> dict[str, Any]:
    """Return the smallest rendered font size (CSS px) in the frame, and its text."""
    found: dict[str, Any] = page.evaluate(SMALLEST_FONT)
    return found


def smallest_target(page: Page) -> dict[str, Any]:
    """Return the smallest side (CSS px) of a place to tap in the frame, and what it is."""
    found: dict[str, Any] = page.evaluate(SMALLEST_TARGET)
    return found


def overflowing(page: Page) -> list[str]:
    """Return the texts of the frame that overflow their box."""
    found: list[str] = page.evaluate(OVERFLOWING)
    return found

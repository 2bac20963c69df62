"""SVG documents built with ``xml.etree.ElementTree`` for the games' pictures
(``engine/<game>/picture.py``), as python-chess's ``svg.py`` does: elements, not f-strings,
so text is always escaped and every tag is closed.

Attribute names are given as Python keywords with ``_`` for ``-`` (``font_weight``);
values that are not strings are written with ``str``; coordinates a picture formats itself
(``f"{x:.1f}"``) pass through unchanged.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

NAMESPACE = "http://www.w3.org/2000/svg"

Element = ET.Element


def attributes(values: dict[str, Any]) -> dict[str, str]:
    """SVG attributes from keyword arguments: ``stroke_width=2`` is ``stroke-width="2"``."""
    return {
        name.replace("_", "-"): value if isinstance(value, str) else str(value)
        for name, value in values.items()
    }


def document(width: str, height: str) -> Element:
    """The ``<svg>`` root of a ``width`` x ``height`` picture (sizes already formatted)."""
    return ET.Element(
        "svg",
        {"xmlns": NAMESPACE, "width": width, "height": height, "viewBox": f"0 0 {width} {height}"},
    )


def add(parent: Element, tag: str, content: str | None = None, **values: Any) -> Element:
    """A new ``tag`` element at the end of ``parent``, with text ``content`` if given."""
    element = ET.SubElement(parent, tag, attributes(values))
    if content is not None:
        element.text = content
    return element


def text(parent: Element, x: float, y: float, content: Any, size: float, **values: Any) -> Element:
    """A line of sans-serif text with its baseline starting at ``(x, y)``."""
    return add(
        parent,
        "text",
        str(content),
        x=f"{x:.1f}",
        y=f"{y:.1f}",
        font_size=size,
        font_family="sans-serif",
        **values,
    )


def rect(
    parent: Element, x: float, y: float, width: float | str, height: float | str, **values: Any
) -> Element:
    """A rectangle with its corner at ``(x, y)``; numbers are written with one decimal, a
    size given as a string (``"56"``, ``"100%"``) as it is."""
    return add(
        parent,
        "rect",
        x=f"{x:.1f}",
        y=f"{y:.1f}",
        width=width if isinstance(width, str) else f"{width:.1f}",
        height=height if isinstance(height, str) else f"{height:.1f}",
        **values,
    )


def line(parent: Element, x1: float, y1: float, x2: float, y2: float, **values: Any) -> Element:
    """A straight line from ``(x1, y1)`` to ``(x2, y2)``, numbers written with one decimal."""
    return add(
        parent,
        "line",
        x1=f"{x1:.1f}",
        y1=f"{y1:.1f}",
        x2=f"{x2:.1f}",
        y2=f"{y2:.1f}",
        **values,
    )


def titled(parent: Element, title: str, **values: Any) -> Element:
    """A ``<g>`` group whose ``<title>`` (a tooltip) is ``title``."""
    group = add(parent, "g", **values)
    add(group, "title", title)
    return group


def to_string(root: Element) -> str:
    """The document as text."""
    return ET.tostring(root, encoding="unicode")

// Small helpers for building HTML and SVG without a framework.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    // Through the CSSOM: a style attribute set as markup is refused by the site's
    // Content-Security-Policy (style-src 'self'), a style property is not.
    if (key === "style") node.style.cssText = String(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === "") continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: ``el("li", {class: "x"}, "text", otherNode)``. */
export function el(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as ``el``. */
export function svg(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** A ``<title>`` child, the tooltip of an SVG shape. */
export function tip(text) {
  return svg("title", {}, text);
}

// Markup that data cannot break out of. A picture is described as nodes ({tag, attrs, children}:
// `attrs` a list of [name, value], `children` nodes or text) and then either written as text,
// every value escaped (`toMarkup`), or built as DOM nodes, every value set as an attribute or a
// text node (`toElement`): a value never becomes markup either way, whatever it holds.

const SVG = "http://www.w3.org/2000/svg";
const NAME = /^[a-z][a-z0-9-]*$/i; // the names this package writes; never data

// A value as text in markup, for an attribute (quoted with ") or between tags: & < > " ' as
// character references.
export function escape(value) {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export const node = (tag, attrs = [], ...children) => ({ tag, attrs, children });

function named(name) {
  if (!NAME.test(name)) throw new Error(`not a tag or attribute name: ${name}`);
  return name;
}

// A node as markup text.
export function toMarkup(item) {
  if (typeof item !== "object" || item === null) return escape(item);
  const attrs = item.attrs.map(([name, value]) => ` ${named(name)}="${escape(value)}"`).join("");
  const tag = named(item.tag);
  if (!item.children.length) return `<${tag}${attrs}/>`;
  return `<${tag}${attrs}>${item.children.map(toMarkup).join("")}</${tag}>`;
}

// A node as SVG elements of `doc` (a Document): nothing is parsed.
export function toElement(item, doc = globalThis.document) {
  if (typeof item !== "object" || item === null) return doc.createTextNode(String(item));
  const element = doc.createElementNS(SVG, named(item.tag));
  for (const [name, value] of item.attrs) {
    if (name !== "xmlns") element.setAttribute(named(name), String(value));
  }
  for (const child of item.children) element.appendChild(toElement(child, doc));
  return element;
}

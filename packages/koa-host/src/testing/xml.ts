/**
 * A small reader for the XML answers of an app (`@renderXml`, XML errors) in tests: elements,
 * attributes, text, CDATA and the five entities plus character references. Not a validating
 * parser: it reads well-formed documents such as the frameworks write, and refuses the rest.
 */
import { E_XML_INVALID } from "../errors.js";

/** One element of a parsed XML answer. */
export class XmlElement {
  /** The element's name (`response`, `item`...). */
  readonly name: string;
  /** Its attributes, entities decoded. */
  readonly attributes: Readonly<Record<string, string>>;
  /** Its child elements in document order. */
  readonly children: XmlElement[] = [];
  #text = "";

  constructor(name: string, attributes: Record<string, string>) {
    this.name = name;
    this.attributes = attributes;
  }

  /** The text inside the element and its descendants, entities decoded. */
  get text(): string {
    return this.#text + this.children.map((child) => child.text).join("");
  }

  /** @internal appends text read by the parser. */
  appendText(text: string): void {
    this.#text += text;
  }

  /** The first descendant element with this name (depth first), or undefined. */
  find(name: string): XmlElement | undefined {
    for (const child of this.children) {
      if (child.name === name) return child;
      const found = child.find(name);
      if (found) return found;
    }
    return undefined;
  }

  /** Every descendant element with this name, in document order. */
  findAll(name: string): XmlElement[] {
    return this.children.flatMap((child) => [...(child.name === name ? [child] : []), ...child.findAll(name)]);
  }
}

const ENTITIES: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith("#x")) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith("#")) return String.fromCodePoint(Number(ref.slice(1)));
    return ENTITIES[ref] ?? whole;
  });
}

/** Parses an XML document into its root element; throws `Error` naming the problem when it is not well formed. */
export function parseXml(source: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const token =
    /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<!DOCTYPE[^>]*>|<\/\s*([^\s>]+)\s*>|<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = token.exec(source)) !== null) {
    if (match.index !== consumed) break;
    consumed = token.lastIndex;
    const [, cdata, closing, opening, attributeText, selfClosing, text] = match;
    const parent = stack[stack.length - 1];
    if (cdata !== undefined) parent?.appendText(cdata);
    else if (text !== undefined) {
      if (parent) parent.appendText(decode(text));
      else if (text.trim() !== "")
        throw new E_XML_INVALID(`text outside the root element: "${text.trim().slice(0, 40)}"`);
    } else if (closing !== undefined) {
      const open = stack.pop();
      if (open?.name !== closing) throw new E_XML_INVALID(`</${closing}> closes <${open?.name ?? "nothing"}>`);
    } else if (opening !== undefined) {
      const attributes: Record<string, string> = {};
      for (const attribute of (attributeText ?? "").matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        attributes[attribute[1]!] = decode(attribute[2] ?? attribute[3] ?? "");
      }
      const element = new XmlElement(opening, attributes);
      if (parent) parent.children.push(element);
      else if (root) throw new E_XML_INVALID(`a second root element <${opening}>`);
      else root = element;
      if (selfClosing !== "/") stack.push(element);
    }
  }
  if (consumed !== source.length)
    throw new E_XML_INVALID(`cannot read from "${source.slice(consumed, consumed + 40)}"`);
  if (!root) throw new E_XML_INVALID("no root element");
  if (stack.length > 0) throw new E_XML_INVALID(`<${stack[stack.length - 1]!.name}> is never closed`);
  return root;
}

import { E_XML_CYCLE } from "../errors.js";

// XML 1.0 names, minus ":" (namespaces) and the reserved "xml" prefix.
// biome-ignore lint/suspicious/noMisleadingCharacterClass: the combining-mark range U+0300-U+036F is one of XML's NameChar ranges, listed on purpose.
const XML_NAME = /^[\p{L}_][\p{L}\p{N}._\-\u00B7\u0300-\u036F\u203F-\u2040]*$/u;
// Characters XML 1.0 cannot carry at all (control characters, lone surrogates, U+FFFE/U+FFFF).
// eslint-disable-next-line no-control-regex
const INVALID_CHARS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Tells whether a key can be written as an element name (else it becomes `<key name="...">`). */
export function isXmlName(key: string): boolean {
  return XML_NAME.test(key) && !/^xml/i.test(key);
}

/** Escapes text for XML content and attribute values; characters XML cannot hold become U+FFFD. */
export function escapeXml(text: string): string {
  return text.replace(INVALID_CHARS, "\uFFFD").replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/**
 * Serializes a view result as the XML document of docs/views.md: root `<response>`, each key an
 * element, arrays as repeated `<item>`, `null` as an empty element, booleans as `true`/`false`,
 * dates as ISO 8601, text escaped, keys that are not XML names as `<key name="...">`.
 */
export function toXml(value: unknown, root = "response"): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(root, value, [], root)}`;
}

function element(key: string, value: unknown, ancestors: object[], path: string): string {
  const open = isXmlName(key) ? key : `key name="${escapeXml(key)}"`;
  const close = isXmlName(key) ? key : "key";
  const inner = content(value, ancestors, path);
  return inner === "" ? `<${open}/>` : `<${open}>${inner}</${close}>`;
}

function content(value: unknown, ancestors: object[], path: string): string {
  switch (typeof value) {
    case "string":
      return escapeXml(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      return Number.isFinite(value) ? String(value) : "";
    case "bigint":
      return String(value);
    case "object":
      break;
    default:
      // undefined, functions and symbols carry no data (as in JSON).
      return "";
  }
  if (value === null) return "";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString();
  if (ancestors.includes(value)) throw new E_XML_CYCLE(path);
  const nested = [...ancestors, value];
  if (Array.isArray(value) || value instanceof Set) {
    return [...value].map((item, i) => element("item", item, nested, `${path}[${i}]`)).join("");
  }
  if (value instanceof Map) {
    return [...value].map(([k, v]) => field(String(k), v, nested, path)).join("");
  }
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") return content(toJSON.call(value), nested, path);
  return Object.entries(value)
    .map(([k, v]) => field(k, v, nested, path))
    .join("");
}

function field(key: string, value: unknown, ancestors: object[], path: string): string {
  // Keys whose value JSON would drop are dropped here too.
  if (value === undefined || typeof value === "function" || typeof value === "symbol") return "";
  return element(key, value, ancestors, `${path}.${key}`);
}

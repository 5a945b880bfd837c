import { E_STATIC_PATH_INVALID } from "./errors.js";

/**
 * Decodes and checks the part of a URL path under a static prefix, the one rule every static
 * layer follows (the host's folders, the asset and upload servers): anything that is not valid
 * percent-encoding, holds a control character (NUL), a backslash, or a `.` / `..` segment (also
 * encoded: `%2e%2e`, `..%2f`) is `E_STATIC_PATH_INVALID` (400). Returns the decoded path.
 */
export function safeStaticPath(raw: string): string {
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    throw new E_STATIC_PATH_INVALID("it is not valid percent-encoding");
  }
  if (/[\u0000-\u001f\u007f]/.test(path)) throw new E_STATIC_PATH_INVALID("it contains a control character");
  if (path.includes("\\")) throw new E_STATIC_PATH_INVALID("it contains a backslash");
  if (path.split("/").some((segment) => segment === ".." || segment === ".")) {
    throw new E_STATIC_PATH_INVALID("it contains a '.' or '..' segment");
  }
  return path;
}

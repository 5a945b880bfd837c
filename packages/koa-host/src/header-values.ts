import { E_BAD_HEADER_VALUE } from "./errors.js";

// Runs of what a header value may not hold as is: control characters (CR, LF, NUL...), spaces
// and everything outside printable ASCII. Node refuses the first and the non-Latin-1 ones with a
// thrown TypeError (a 500); browsers read raw Latin-1 as mojibake.
const UNSAFE_IN_URL = /[^\x21-\x7e]+/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const BREAKS_HEADER = /[\r\n\0]/;

/**
 * The value of a `Location` header for a redirect target: control characters (CR/LF of a header
 * injection attempt), spaces and non-ASCII are percent-encoded (UTF-8), existing `%XX` escapes and
 * every other character kept, so a target built from client input never breaks the response.
 */
export function encodeLocation(location: string): string {
  return location.replace(UNSAFE_IN_URL, (run) => encodeURI(run.replace(LONE_SURROGATE, "\ufffd")));
}

/**
 * Sets headers a view chose: `Location` goes through {@link encodeLocation}; any other value with
 * a line break or NUL (client text copied into a header) is `E_BAD_HEADER_VALUE` (400) naming the
 * header, not a 500 from Node's header check.
 */
export function safeHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const safe: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    const value = String(raw);
    if (name.toLowerCase() === "location") safe[name] = encodeLocation(value);
    else if (BREAKS_HEADER.test(value)) throw new E_BAD_HEADER_VALUE(name);
    else safe[name] = value;
  }
  return safe;
}

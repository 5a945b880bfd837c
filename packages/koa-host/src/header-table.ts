import type { ServerResponse } from "node:http";
import { nodeHttp } from "./node-http.js";

/**
 * Response headers whose names and values are checked once, at start-up, and then written
 * straight into Node's header table of each response.
 *
 * `res.setHeader` checks the name against the token grammar and the value for forbidden
 * characters (two regular expressions, the second over the whole value: a Content-Security-Policy
 * is 300 characters), lower-cases the name and stores `[name, value]` under it. For headers that
 * are the same on every response (the security headers) that work is the same every time: written
 * straight into the table they cost about half as much, and the response is the same byte for byte
 * (the names and order Node sends, `getHeader`, `res.setHeader` replacing and `res.removeHeader`
 * removing them).
 *
 * The table is Node's own (`OutgoingMessage`'s `kOutHeaders`, the same in Node 22 and 24). It is
 * found and tested when this module loads, and used only if it behaves as above; on a Node where
 * it does not, every header goes through `res.setHeader`, as before.
 *
 * A table made here is an object whose prototype is empty and has no prototype itself, where Node
 * makes `{ __proto__: null }`: V8 keeps a null-prototype object as a hash table, rehashed as it
 * grows, and enumerates it key by key; an object with a prototype gets hidden classes, so the
 * headers' stores, Node's lookups and its `for...in` over them are cached by the table's shape.
 * Like Node's, it inherits nothing (`hasHeader("constructor")` is false).
 */

/** The prototype of a table made here: empty, frozen, without a prototype of its own. */
const EMPTY: object = Object.freeze(Object.create(null));

/** A header as it is stored: `[name as sent, value]`, keyed by the lower-case name. */
type Entry = [string, string | string[]];
type Table = Record<string, Entry>;

/** Node's header table of a response, when this Node has one that behaves as `setHeader` does. */
const tableKey: symbol | undefined = findTableKey();

function findTableKey(): symbol | undefined {
  const { OutgoingMessage } = nodeHttp;
  const key = Object.getOwnPropertySymbols(new OutgoingMessage()).find((s) => s.description === "kOutHeaders");
  if (key === undefined) return undefined;
  try {
    // What setHeader stores must be what this module writes...
    const set = new OutgoingMessage();
    set.setHeader("X-Probe", "1");
    const table = (set as unknown as Record<symbol, Table | null>)[key];
    const entry = table?.["x-probe"];
    if (!table || Object.getPrototypeOf(table) !== null || entry?.[0] !== "X-Probe" || entry[1] !== "1") {
      return undefined;
    }
    // ...and what this module writes must be what Node reads back, replaces and removes.
    const written = new OutgoingMessage();
    const made = Object.create(EMPTY) as Table;
    made["x-probe"] = ["x-probe", "2"];
    (written as unknown as Record<symbol, Table | null>)[key] = made;
    if (written.getHeader("X-Probe") !== "2" || written.getHeaderNames().join() !== "x-probe") return undefined;
    if (written.hasHeader("constructor") || written.getHeaders()["x-probe"] !== "2") return undefined;
    written.setHeader("X-Probe", "3");
    if (written.getHeader("x-probe") !== "3") return undefined;
    written.removeHeader("X-PROBE");
    return written.hasHeader("x-probe") ? undefined : key;
  } catch {
    return undefined;
  }
}

/** True when headers are written straight into Node's table on this Node (else through `setHeader`). */
export const writesHeaderTable: boolean = tableKey !== undefined;

/**
 * Checks a header as `res.setHeader` would, once: throws Node's own error for a name that is not
 * a token or a value with a forbidden character.
 */
function checked(name: string, value: string): [string, string] {
  nodeHttp.validateHeaderName(name);
  nodeHttp.validateHeaderValue(name, value);
  return [name, value];
}

/**
 * Headers checked at start-up, set on a response in one call: `set(res)` does what
 * `res.removeHeader(name)` for each of `remove` and `res.setHeader(name, value)` for each of
 * `headers` would, in that order. Each name is sent as given; give it in lower case (as HTTP/2
 * writes every name) and Node has nothing to convert.
 */
export interface CheckedHeaders {
  /** Sets the headers on a response whose headers are not sent yet. */
  readonly set: (res: ServerResponse) => void;
}

/**
 * {@link CheckedHeaders} for a fixed list of headers (and of headers to remove), checked now:
 * a bad name or value throws here, at start-up, not on a request.
 */
export function checkedHeaders(
  headers: ReadonlyArray<readonly [string, string]>,
  remove: readonly string[] = [],
): CheckedHeaders {
  const entries = headers.map(([name, value]) => checked(name, value));
  const keys = entries.map(([name]) => name.toLowerCase());
  const removed = remove.map((name) => name.toLowerCase());
  const viaSetHeader = (res: ServerResponse): void => {
    for (let i = 0; i < removed.length; i++) res.removeHeader(removed[i]!);
    for (let i = 0; i < entries.length; i++) res.setHeader(entries[i]![0], entries[i]![1]);
  };
  const key = tableKey;
  if (key === undefined) return { set: viaSetHeader };
  return {
    set(res) {
      const table = tableOf(res, key);
      if (table === undefined) return viaSetHeader(res);
      for (let i = 0; i < removed.length; i++) delete table[removed[i]!];
      // A new entry per response: appendHeader changes an entry in place.
      for (let i = 0; i < entries.length; i++) table[keys[i]!] = [entries[i]![0], entries[i]![1]];
    },
  };
}

/**
 * Sets one header whose name was checked at start-up and whose value the caller built from token
 * characters only (letters, digits, `._:@/+=-`: a request id matched against a token pattern or
 * made by the process), so it is not checked again. `lowerName` must be the name in lower case,
 * as {@link checkedHeaderName} gives it.
 */
export function setTokenHeader(res: ServerResponse, lowerName: string, value: string): void {
  const table = tableKey === undefined ? undefined : tableOf(res, tableKey);
  if (table === undefined) res.setHeader(lowerName, value);
  else table[lowerName] = [lowerName, value];
}

/**
 * The response's header table, made if it has none yet; undefined when the headers are sent
 * (setHeader then throws its own error) or when the response is not one of `node:http`'s (an
 * HTTP/2 compatibility response has no such table: setHeader is the way there).
 */
function tableOf(res: ServerResponse, key: symbol): Table | undefined {
  const slots = res as unknown as Record<symbol, Table | null | undefined>;
  const table = slots[key];
  if (table === undefined || res.headersSent) return undefined;
  if (table !== null) return table;
  const made = Object.create(EMPTY) as Table;
  slots[key] = made;
  return made;
}

/** A header name checked now (Node's error for one that is not a token), in lower case. */
export function checkedHeaderName(name: string): string {
  nodeHttp.validateHeaderName(name);
  return name.toLowerCase();
}

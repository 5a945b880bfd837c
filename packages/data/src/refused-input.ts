/**
 * What a refused form may leave in the session for the next request. A refused post is client
 * input of any size from anyone, and the session it lands in is a cookie of about 4 KB or a
 * server-side store (Redis, SQL) shared with the app's other data, so what it keeps is bounded:
 * only the fields its schema declares, and at most {@link REFUSED_INPUT_LIMITS} fields and bytes.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";

/** Per-field messages (validate.ts's `FieldErrors`, spelled out so neither module imports the other). */
type FieldErrors = Record<string, string[]>;

/**
 * The most a refused form keeps for the next request. With the summary message, the flash data of
 * one refused post stays under 3 KB of JSON (about 2.3 KB when the text is ASCII), so it adds at
 * most that much to a server-side session store; a cookie session that cannot hold it beside its
 * other data drops the old input (the security battery's cookie codec), never the request.
 */
export const REFUSED_INPUT_LIMITS: Readonly<{
  /** Old-input fields kept (declared order; the rest are left out). */
  oldFields: number;
  /** Bytes of old input kept (UTF-8 JSON); a value that does not fit is left out (its field shows empty). */
  oldBytes: number;
  /** Fields whose messages are kept. */
  errorFields: number;
  /** Messages kept per field. */
  messagesPerField: number;
  /** Characters kept of one message (also of the summary flashed with it). */
  messageLength: number;
  /** Bytes of per-field messages kept (UTF-8 JSON). */
  errorBytes: number;
}> = Object.freeze({
  oldFields: 30,
  oldBytes: 1536,
  errorFields: 30,
  messagesPerField: 3,
  messageLength: 200,
  errorBytes: 512,
});

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

/** `text` cut to {@link REFUSED_INPUT_LIMITS}.messageLength characters (an ellipsis marks the cut). */
export function boundMessage(text: string): string {
  const max = REFUSED_INPUT_LIMITS.messageLength;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `text` cut so that its JSON takes at most `room` bytes (undefined when not even a little fits). */
function cutToFit(text: string, room: number): string | undefined {
  if (room < 16) return undefined;
  let cut = text.slice(0, room);
  while (cut.length > 0 && bytes(cut) > room) cut = cut.slice(0, Math.floor(cut.length * 0.9));
  return cut.length > 0 ? cut : undefined;
}

/**
 * Old input within the limits: the first fields, smallest first, that fit in the byte budget; a
 * long text that does not fit whole is cut to what is left (the way long text was always cut),
 * anything else that does not fit is left out. The fields keep their order.
 */
export function boundOldInput(old: Record<string, unknown>): Record<string, unknown> {
  const entries = Object.entries(old).slice(0, REFUSED_INPUT_LIMITS.oldFields);
  // Key, quotes, colon and comma: what a field adds to the JSON besides its value.
  const sized = entries.map(([key, value], at) => ({ at, key, value, size: bytes(key) + 2 + bytes(value) }));
  const fitting = new Map<number, unknown>();
  let budget = REFUSED_INPUT_LIMITS.oldBytes;
  for (const entry of [...sized].sort((a, b) => a.size - b.size)) {
    let value: unknown = entry.value;
    if (entry.size > budget) {
      const overhead = bytes(entry.key) + 2;
      value = typeof value === "string" ? cutToFit(value, budget - overhead) : undefined;
      if (value === undefined) continue;
    }
    fitting.set(entry.at, value);
    budget -= bytes(entry.key) + 2 + bytes(value);
  }
  const kept: Record<string, unknown> = {};
  for (const { at, key } of sized) if (fitting.has(at)) kept[key] = fitting.get(at);
  return kept;
}

/** Per-field messages within the limits: at most so many fields, messages and bytes. */
export function boundFieldErrors(errors: FieldErrors): FieldErrors {
  const kept: FieldErrors = {};
  let budget = REFUSED_INPUT_LIMITS.errorBytes;
  let count = 0;
  for (const [key, messages] of Object.entries(errors)) {
    if (count >= REFUSED_INPUT_LIMITS.errorFields) break;
    if (!Array.isArray(messages)) continue;
    const field = key.length > 100 ? key.slice(0, 100) : key;
    const list = messages.slice(0, REFUSED_INPUT_LIMITS.messagesPerField).map((m) => boundMessage(String(m)));
    const size = bytes(field) + bytes(list) + 2;
    if (size > budget) continue;
    kept[field] = list;
    budget -= size;
    count++;
  }
  return kept;
}

type Def = Record<string, unknown>;

function defOf(schema: unknown): Def | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const zod = (schema as { _zod?: { def?: Def } })._zod?.def;
  if (zod) return zod;
  return schema as Def;
}

/** The top-level field names of an object schema (zod 4, valibot, or any schema with `shape`/`entries`). */
function fieldsOf(schema: unknown, depth: number): Set<string> | undefined {
  const def = defOf(schema);
  if (!def || depth > 8) return undefined;
  const shape = (def["shape"] ?? def["entries"]) as unknown;
  if (shape && typeof shape === "object" && !Array.isArray(shape)) return new Set(Object.keys(shape));
  // zod: a pipe (`preprocess`, `.pipe`) is declared by its input side, or its output when the input is a function.
  for (const inner of ["in", "out", "innerType", "schema"]) {
    const found = def[inner] !== undefined ? fieldsOf(def[inner], depth + 1) : undefined;
    if (found) return found;
  }
  // valibot: `pipe(object(...), ...)` keeps the object first.
  const pipe = def["pipe"];
  if (Array.isArray(pipe) && pipe[0] !== schema) return fieldsOf(pipe[0], depth + 1);
  // Unions and intersections: any field one of the branches declares.
  const branches = [
    ...(Array.isArray(def["options"]) ? (def["options"] as unknown[]) : []),
    ...(def["left"] !== undefined ? [def["left"], def["right"]] : []),
  ];
  if (branches.length > 0) {
    const all = new Set<string>();
    for (const branch of branches) {
      const found = fieldsOf(branch, depth + 1);
      if (!found) return undefined;
      for (const name of found) all.add(name);
    }
    return all;
  }
  return undefined;
}

/**
 * The field names a schema declares at its top level, or `undefined` when they cannot be read from
 * it (a schema library this does not know, a schema that is not an object): the old input of a
 * refused form keeps only these fields.
 */
export function declaredFields(schema: StandardSchemaV1 | unknown): ReadonlySet<string> | undefined {
  return fieldsOf(schema, 0);
}

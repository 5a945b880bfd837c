/**
 * The rows of the result table: every value a view can return falls in exactly one shape, and the
 * table (`./table.ts`) says what each shape becomes per response kind.
 */

/** The shape of a view's result (after a `Reply` is unwrapped). */
export type ResultShape =
  | "undefined"
  | "null"
  | "string"
  | "scalar"
  | "bytes"
  | "plain-object"
  | "array"
  | "instance"
  | "error"
  | "unsupported";

/** True for Node streams (anything with `pipe`), web `ReadableStream`s, `Blob`s and web `Response`s. */
function isStreamLike(value: object): boolean {
  return (
    typeof (value as { pipe?: unknown }).pipe === "function" ||
    value instanceof ReadableStream ||
    value instanceof Blob ||
    isFetchResponse(value)
  );
}

/**
 * A fetch `Response`. The global is read only for an object tagged as one: its first read loads
 * Node's bundled undici (about 30 ms), which an app whose views never make a Response need not pay.
 */
function isFetchResponse(value: object): boolean {
  return (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === "Response" && value instanceof Response;
}

/** Classifies a view's result into its row of the result table. */
export function shapeOf(value: unknown): ResultShape {
  switch (typeof value) {
    case "undefined":
      return "undefined";
    case "string":
      return "string";
    case "number":
    case "boolean":
    case "bigint":
      return "scalar";
    case "function":
    case "symbol":
      return "unsupported";
  }
  if (value === null) return "null";
  const object = value as object;
  if (Buffer.isBuffer(object) || object instanceof Uint8Array || isStreamLike(object)) return "bytes";
  if (object instanceof Error) return "error";
  if (Array.isArray(object)) return "array";
  const proto: unknown = Object.getPrototypeOf(object);
  return proto === Object.prototype || proto === null ? "plain-object" : "instance";
}

/**
 * Declared input: the query, body and files schemas a route declared with the frameworks'
 * decorators (`@request.body(Schema)` in fw-a, `@body(Schema)` in fw-b) are validated before the
 * view runs, with the answers `validate()` gives (422 JSON / XML, or flash and 303 back for HTML
 * forms), and the parsed values wait on the request for `input(ctx, Schema)`.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { Context, Middleware } from "koa";
import type { InputPart } from "routing-kernel";
import { INPUT_PARTS, routeSchemas } from "routing-kernel/plugin";
import { E_INPUT_NOT_DECLARED } from "./errors.js";
import { isValidationError, validate, ValidationError, type FieldErrors, type InputContext } from "./validate.js";
import { defineSlot, routeSlot } from "@fwkit/koa-host/plugin";

// A registry symbol, so two copies of this package share the parsed values of a request.
/** What the declared input parsed for this request, kept on its state object (not under a string key). */
const parsedSlot = defineSlot<Parsed>("fwkit.data.declaredInput");

/** The parsed values of one request by schema, in the order the parts are validated. */
type Parsed = Map<StandardSchemaV1, unknown>;

function parsedOf(ctx: InputContext): Parsed | undefined {
  return typeof ctx.state === "object" && ctx.state !== null ? parsedSlot.get(ctx.state) : undefined;
}

/**
 * Middleware that validates a route's declared input parts (query, then body, then files) before
 * the view; every failing part's messages are answered together as one ValidationError. Undefined
 * for a route that declared no input. Runs inside the data plugin's validation answers.
 */
export function declaredInputMiddleware(route: {
  readonly id: string;
  readonly tags: Readonly<Record<string, unknown>>;
}): Middleware | undefined {
  const schemas = routeSchemas(route);
  const parts = INPUT_PARTS.filter((part) => schemas[part] !== undefined).map(
    (part) => [part, schemas[part]!] as const,
  );
  if (parts.length === 0) return undefined;
  return async (ctx: Context, next) => {
    const parsed: Parsed = new Map();
    let fields: FieldErrors | undefined;
    let old: Record<string, unknown> = {};
    for (const [part, schema] of parts) {
      try {
        parsed.set(schema, await validate(ctx, schema, { from: part satisfies InputPart }));
      } catch (error) {
        if (!isValidationError(error)) throw error;
        fields = { ...fields, ...error.fields };
        old = { ...old, ...error.old };
      }
    }
    if (fields) throw new ValidationError(fields, old);
    parsedSlot.set(ctx.state, parsed);
    await next();
  };
}

/**
 * The parsed value of a schema this route declared (`@request.body(Schema)` / `@body(Schema)`),
 * typed by the schema: `input(ctx, PostInput)` is `z.output<typeof PostInput>`. Validation already
 * ran before the view, so this neither parses again nor waits. A schema the route did not declare
 * throws E_INPUT_NOT_DECLARED (use `validate()` for input checked inside the method).
 */
export function input<S extends StandardSchemaV1>(ctx: InputContext, schema: S): StandardSchemaV1.InferOutput<S> {
  const parsed = parsedOf(ctx);
  if (!parsed?.has(schema)) {
    const route = routeSlot.get(ctx)?.id;
    throw new E_INPUT_NOT_DECLARED(typeof route === "string" ? route : "this view", parsed === undefined);
  }
  return parsed.get(schema) as StandardSchemaV1.InferOutput<S>;
}

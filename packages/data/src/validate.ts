/**
 * Validating request input with any Standard Schema v1 library (zod 4, valibot, arktype...): the
 * typed value on success; on failure a ValidationError (422, E_VALIDATION) carrying per-field
 * messages and the old input, which the plugin answers as JSON or as a redirect with flash data.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { E_VALIDATION } from "./errors.js";
import { boundOldInput, declaredFields } from "./refused-input.js";
import { requestLanguage } from "./request-text.js";
import { asZodSchema, zodErrorMap } from "./zod-locale.js";

/** Where the input comes from: the parsed body, the query string or the uploaded files. */
export type InputSource = "body" | "query" | "files";

/** The request parts validation reads (a Koa context with koa-body satisfies it). */
export interface InputContext {
  readonly query: unknown;
  readonly request: object;
  /** Koa's `ctx.state`: where a translations plugin says the request's language (zod's messages follow it). */
  readonly state?: unknown;
}

/** Options of {@link validate}. */
export interface ValidateOptions {
  /** Input source, or several merged left to right. Default "body". */
  readonly from?: InputSource | readonly InputSource[];
}

/** The field key of messages that belong to no single field. */
export const FORM_FIELD = "_form";

/** Fields whose values are never kept as old input (they would end up in a cookie or a page). */
const SECRET_FIELD = /pass(word)?|secret|token|^_csrf|^_method$|^_back$/i;

/** Per-field messages: `{ email: ["Invalid email address"] }`. */
export type FieldErrors = Record<string, string[]>;

/** The summary a ValidationError gets unless its thrower sets its own (`error.message = ...`). */
export function defaultValidationMessage(fields: FieldErrors): string {
  const names = Object.keys(fields);
  return names.length > 0 ? `Validation failed for ${names.join(", ")}.` : "Validation failed.";
}

/** Input failed a schema. `fields` maps field paths (`items.0.name`) to messages; `old` is the input minus secrets. */
export class ValidationError extends E_VALIDATION {
  readonly fields: FieldErrors;
  readonly old: Record<string, unknown>;

  constructor(fields: FieldErrors, old: Record<string, unknown> = {}) {
    super(defaultValidationMessage(fields));
    this.fields = fields;
    this.old = old;
  }
}

/** True for a ValidationError, also one from another copy of this package. */
export function isValidationError(error: unknown): error is ValidationError {
  return (
    error instanceof ValidationError ||
    (typeof error === "object" &&
      error !== null &&
      (error as { code?: unknown }).code === E_VALIDATION.code &&
      "fields" in error)
  );
}

/** Groups Standard Schema issues by dotted path. */
export function fieldErrors(issues: readonly StandardSchemaV1.Issue[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const path = (issue.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment));
    const key = path.length > 0 ? path.join(".") : FORM_FIELD;
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}

function keepable(value: unknown): unknown {
  if (typeof value === "string") return value.length > 2000 ? value.slice(0, 2000) : value;
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value))
    return value
      .map(keepable)
      .filter((item) => item !== undefined)
      .slice(0, 100);
  return undefined;
}

/**
 * The input to show again in a form: strings, numbers and booleans, secrets left out, long text
 * cut, and at most `REFUSED_INPUT_LIMITS` fields and bytes. With `declared` (the field names
 * of the form's schema, see {@link declaredFields}) only those fields are kept: a refused post's
 * extra fields are never stored.
 */
export function oldInput(input: unknown, declared?: ReadonlySet<string>): Record<string, unknown> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return {};
  const old: Record<string, unknown> = {};
  const record = input as Record<string, unknown>;
  const keys = declared ? [...declared].filter((key) => Object.hasOwn(record, key)) : Object.keys(record);
  for (const key of keys) {
    if (SECRET_FIELD.test(key)) continue;
    const kept = keepable(record[key]);
    if (kept !== undefined) old[key] = kept;
  }
  return boundOldInput(old);
}

function sourceValue(ctx: InputContext, source: InputSource): unknown {
  const request = ctx.request as { body?: unknown; files?: unknown };
  const value = source === "body" ? request.body : source === "query" ? ctx.query : request.files;
  return value === undefined || value === null ? {} : value;
}

/**
 * Validates `value` against `schema`: the output, or a ValidationError with `old` as the old input.
 * With `language` (`fr`), a zod schema's own messages come in that language (zod's shipped locales).
 */
export async function validateValue<S extends StandardSchemaV1>(
  schema: S,
  value: unknown,
  old: Record<string, unknown> = oldInput(value, declaredFields(schema)),
  language?: string,
): Promise<StandardSchemaV1.InferOutput<S>> {
  // Only a zod schema checked in a language gets zod's locales (and zod is imported for them then).
  const zod = language ? asZodSchema(schema) : undefined;
  const errorMap = zod && language ? await zodErrorMap(language) : undefined;
  if (zod && errorMap) {
    const parsed = await zod.safeParseAsync(value, { error: errorMap });
    if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error?.issues ?? []), old);
    return parsed.data as StandardSchemaV1.InferOutput<S>;
  }
  const result = await schema["~standard"].validate(value);
  if (result.issues) throw new ValidationError(fieldErrors(result.issues), old);
  return result.value;
}

/**
 * Validates the request's body (default), query or files against a Standard Schema and returns
 * the typed output; throws ValidationError (422) with per-field messages and the old input. A
 * zod schema's own messages are in the request's language when a translations plugin chose one.
 */
export async function validate<S extends StandardSchemaV1>(
  ctx: InputContext,
  schema: S,
  options: ValidateOptions = {},
): Promise<StandardSchemaV1.InferOutput<S>> {
  const sources: readonly InputSource[] =
    typeof options.from === "string" ? [options.from] : (options.from ?? ["body"]);
  const values = sources.map((source) => sourceValue(ctx, source));
  const value = values.length === 1 ? values[0] : Object.assign({}, ...values.filter((v) => typeof v === "object"));
  const declared = declaredFields(schema);
  const old = boundOldInput(
    Object.assign({}, ...sources.filter((s) => s !== "files").map((s) => oldInput(sourceValue(ctx, s), declared))),
  );
  return validateValue(schema, value, old, requestLanguage(ctx));
}

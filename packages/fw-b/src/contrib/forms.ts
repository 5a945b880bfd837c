import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { Context } from "koa";
import { ValidationError, type FieldErrors } from "@fwkit/data";
import { declaredFields, fieldErrors, oldInput } from "@fwkit/data/plugin";
import { z } from "zod";
import { CAPTCHA_FIELD } from "./captcha/svg.js";
import type { Translate } from "./i18n/i18n.js";
import { contribOf, translatorOf } from "./runtime.js";

/** Control characters, except tab and newlines where multi-line text is allowed. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;
const CONTROL_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/;

/** The posted form as an object (never an array or a string). */
export function bodyOf(ctx: Context): Record<string, unknown> {
  const body = (ctx.request as { body?: unknown }).body;
  return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** Field schemas with translated messages, shared by every contrib form. */
export function fields(t: Translate) {
  const required = t("form.required");
  const text = (max: number, options: { min?: number; multiline?: boolean; noMarkup?: boolean } = {}) =>
    z
      .string({ error: required })
      .transform((value) => value.trim())
      .pipe(
        z
          .string()
          .min(options.min ?? 1, options.min && options.min > 1 ? t("form.tooShort", { min: options.min }) : required)
          .max(max, t("form.tooLong", { max }))
          .refine((value) => !(options.multiline ? CONTROL : CONTROL_SINGLE_LINE).test(value), t("form.control"))
          .refine((value) => !options.noMarkup || !/[<>]/.test(value), t("form.noMarkup")),
      );
  const email = z
    .string({ error: required })
    .transform((value) => value.trim().toLowerCase())
    .pipe(
      z
        .string()
        .min(1, required)
        .max(254, t("form.tooLong", { max: 254 }))
        .pipe(z.email({ error: t("form.email") })),
    );
  const password = z
    .string({ error: required })
    .min(1, required)
    .refine((value) => value.length >= 8, t("form.passwordShort", { min: 8 }))
    .refine((value) => Buffer.byteLength(value, "utf8") <= 72, t("form.passwordLong", { max: 72 }))
    .refine((value) => !CONTROL_SINGLE_LINE.test(value), t("form.control"));
  const username = z
    .string({ error: required })
    .transform((value) => value.trim().toLowerCase())
    .pipe(
      z
        .string()
        .min(1, required)
        .regex(/^[a-z0-9][a-z0-9_.-]{2,31}$/, t("form.username")),
    );
  return {
    text,
    email,
    password,
    username,
    anyText: z.string({ error: required }).max(1000, t("form.tooLong", { max: 1000 })),
  };
}

/** The fields of the schema a posted form was checked against: a refused form's old input keeps only these. */
const declaredOf = new WeakMap<object, ReadonlySet<string>>();

/**
 * Validates a posted form: the schema, and the captcha when `captcha` is true and the captcha
 * module is on. Failures throw a ValidationError with every message (translated) and the input
 * minus secrets, which the data battery answers by redirecting back to the form.
 */
export async function checkForm<S extends StandardSchemaV1>(
  ctx: Context,
  schema: S,
  options: { captcha?: boolean } = {},
): Promise<StandardSchemaV1.InferOutput<S>> {
  const t = translatorOf(ctx);
  const body = bodyOf(ctx);
  const declared = declaredFields(schema);
  // A view may refuse the form later (a taken name, wrong credentials): it then keeps these fields too.
  if (declared) declaredOf.set(body, declared);
  const result = await schema["~standard"].validate(body);
  const problems: FieldErrors = result.issues ? fieldErrors(result.issues) : {};
  const verifier = options.captcha ? contribOf(ctx).captcha : undefined;
  if (verifier && !(await verifier.verify(ctx, body))) (problems[CAPTCHA_FIELD] ??= []).push(t("captcha.wrong"));
  if (Object.keys(problems).length > 0 || result.issues) throw invalid(t, problems, body);
  return (result as StandardSchemaV1.SuccessResult<StandardSchemaV1.InferOutput<S>>).value;
}

/**
 * A ValidationError with a translated summary. When only the form as a whole failed (`_form`:
 * credentials that did not match), the summary is that message: "correct the fields marked
 * below" would point at fields nobody marked.
 */
export function invalid(t: Translate, problems: FieldErrors, body: unknown): ValidationError {
  const declared = typeof body === "object" && body !== null ? declaredOf.get(body) : undefined;
  const error = new ValidationError(problems, oldInput(body, declared));
  const formOnly = problems["_form"]?.length && Object.keys(problems).every((name) => name === "_form");
  error.message = formOnly ? problems["_form"]!.join(" ") : t("form.invalid");
  return error;
}

/** The captcha of a form (HTML), or undefined when the module is off. */
export async function captchaFor(ctx: Context): Promise<string | undefined> {
  const verifier = contribOf(ctx).captcha;
  return verifier ? await verifier.challenge(ctx) : undefined;
}

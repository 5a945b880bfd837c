import { createRequire } from "node:module";
import type { Middleware } from "koa";
import type { koaBody as KoaBody } from "koa-body";
import type { BodyLimits } from "./config.js";
import { E_BODY_TOO_LARGE, E_MALFORMED_BODY, E_MALFORMED_JSON } from "./errors.js";

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Parses JSON, URL-encoded forms, text and multipart bodies (koa-body) within the configured limits.
 * Malformed JSON answers 400 naming the problem; a body over its limit answers 413.
 * @internal the host wires it; not exported from the package.
 */
export function bodyParser(limits: BodyLimits): Middleware {
  let made: Middleware | undefined;
  // koa-body (with zod, which validates its options) costs ~0.2 s to load: apps load it with their
  // first request that has a body, not at start-up. Its CommonJS build, through require, skips
  // the TypeScript loader's hooks in development.
  const parser = (): Middleware => (made ??= makeParser(limits));
  return async (ctx, next) => {
    if (!BODY_METHODS.has(ctx.method)) return next();
    const parse = parser();
    try {
      await parse(ctx, async () => undefined);
    } catch (error) {
      throw translate(error, ctx.is("json") ? "json" : "other", limits);
    }
    return next();
  };
}

function makeParser(limits: BodyLimits): Middleware {
  const { koaBody } = createRequire(import.meta.url)("koa-body") as { koaBody: typeof KoaBody };
  return koaBody({
    multipart: true,
    parsedMethods: ["POST", "PUT", "PATCH", "DELETE"] as never,
    jsonLimit: limits.json,
    formLimit: limits.form,
    textLimit: limits.text,
    formidable: { maxFileSize: limits.fileSize, keepExtensions: true },
    onError(error: Error) {
      throw error;
    },
  } as Parameters<typeof KoaBody>[0]) as Middleware;
}

function translate(error: unknown, kind: "json" | "other", limits: BodyLimits): Error {
  const e = error as {
    type?: string;
    status?: number;
    httpCode?: number;
    message?: string;
    code?: number;
    limit?: number;
  };
  if (e.type === "entity.too.large" || e.status === 413 || e.httpCode === 413) {
    const limit =
      kind === "json"
        ? String(limits.json)
        : e.httpCode === 413
          ? `${limits.fileSize} bytes per file`
          : String(limits.form);
    return new E_BODY_TOO_LARGE(e.limit ? `${e.limit} bytes` : limit);
  }
  if (kind === "json") return new E_MALFORMED_JSON(e.message ?? "unreadable");
  return new E_MALFORMED_BODY(e.message ?? "unreadable");
}

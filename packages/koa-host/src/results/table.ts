/**
 * The result table: what a view's return value becomes, per response kind, for both frameworks.
 * docs/views.md ("What a view's result becomes") is this file as a table; the conformance case
 * `results` checks every row against fw-a and fw-b. Frameworks give only what their seeds make
 * different: the template renderer of HTML views (Nunjucks for fw-a, Pug for fw-b).
 */
import type { Context } from "koa";
import type { ResponseKind } from "routing-kernel";
import { E_RESULT_NOT_SERIALIZABLE, E_RESULT_UNSUPPORTED } from "../errors.js";
import { toXml } from "../escape/xml.js";
import { hasNoBodyStatus, sendText, unwrapReply } from "../respond-helpers.js";
import type { RespondFn } from "../responder.js";
import { shapeOf } from "./shape.js";
import { telemetry, traceCall } from "@fwkit/battery-kit";

/** Renders a route's template with the given values (HTML views). */
export type TemplateRenderer = (ctx: Context, values: Record<string, unknown>) => void | Promise<void>;

/** Options of {@link prepareResult}. */
export interface ResultTableOptions {
  /** The route's response kind (`responseKindOf(route)`). */
  readonly kind: ResponseKind;
  /** The route's handler as messages name it (`Blog.show()`). */
  readonly handler: string;
  /** Renders the route's template: HTML views' plain objects, `undefined` and `null`. */
  readonly template: TemplateRenderer;
}

/** Answers JSON (`application/json; charset=utf-8`); a value JSON cannot write is E_RESULT_NOT_SERIALIZABLE. */
function writeJson(ctx: Context, value: unknown, handler: string): void {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new E_RESULT_NOT_SERIALIZABLE(handler, "JSON", (error as Error).message);
  }
  ctx.type = "application/json; charset=utf-8";
  ctx.body = text ?? "null";
}

/** Answers XML (`application/xml; charset=utf-8`) written by the kit's XML writer. */
export function sendXml(ctx: Context, value: unknown): void {
  ctx.type = "application/xml; charset=utf-8";
  ctx.body = toXml(value);
}

/** A view that returned nothing: its own body or a no-body status stays; else 204 No Content. */
function answerNothing(ctx: Context): void {
  if (hasNoBodyStatus(ctx) || (ctx.body !== undefined && ctx.body !== null)) return;
  // Koa's status is 404 until something sets one; a status the view chose is kept, with no body.
  if (ctx.status === 404) ctx.status = 204;
  else ctx.body = "";
}

/**
 * Prepares, once per route at start-up, the function that answers a view's results by the table:
 *
 * | result              | html                                   | json                      | xml                     |
 * |---------------------|----------------------------------------|---------------------------|-------------------------|
 * | `Reply` / redirect  | its status and headers, then its body by this table (a redirect: no body)            |||
 * | `undefined`         | the template with no values            | 204 No Content            | 204 No Content          |
 * | `null`              | the template with no values            | `null`                    | `<response/>`           |
 * | string              | the body (`text/html` if it starts `<`, else `text/plain`) | a JSON string | `<response>text</response>` |
 * | number, boolean, bigint | the body as `text/plain`           | JSON (bigint: 500)        | `<response>1</response>` |
 * | plain object        | the template with its keys             | JSON                      | XML                     |
 * | array               | JSON                                   | JSON                      | `<item>` elements       |
 * | class instance      | JSON (`toJSON()` or own fields)        | JSON                      | XML (`toJSON()` or own fields) |
 * | Buffer, stream, Blob, web Response | sent as they are (the view's type, else binary)                 |||
 * | an Error (HTTPError) | answered as if thrown: its status and error page / JSON error                       |||
 * | function, symbol    | 500 `E_RESULT_UNSUPPORTED`                                                           |||
 *
 * `undefined` or `null` after the view wrote `ctx.body` itself, or set a 204/304/redirect, keeps that.
 */
export function prepareResult(options: ResultTableOptions): RespondFn {
  const { kind, handler } = options;
  // A render is an operation observers see (a span in the request's trace); a call when unobserved.
  const template: TemplateRenderer = (ctx, values) =>
    traceCall(
      telemetry.render,
      () => ({ handler }),
      () => options.template(ctx, values),
    );
  return (ctx, result) => {
    const body = unwrapReply(ctx, result);
    const shape = shapeOf(body);
    switch (shape) {
      case "error":
        throw body;
      case "unsupported":
        throw new E_RESULT_UNSUPPORTED(handler, typeof body);
      case "bytes":
        ctx.body = body as Buffer;
        return;
      case "undefined":
      case "null":
        if (hasNoBodyStatus(ctx) || (ctx.body !== undefined && ctx.body !== null)) return;
        if (kind === "html") return template(ctx, {});
        if (shape === "undefined") return answerNothing(ctx);
        break;
    }
    if (kind === "xml") return sendXml(ctx, body);
    if (kind === "json") return writeJson(ctx, body, handler);
    switch (shape) {
      case "string":
        return sendText(ctx, body as string);
      case "scalar":
        ctx.type = "text/plain; charset=utf-8";
        ctx.body = String(body);
        return;
      case "plain-object":
        return template(ctx, body as Record<string, unknown>);
      default:
        return writeJson(ctx, body, handler);
    }
  };
}

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "koa";
import { E_TEMPLATE_NOT_FOUND, type ErrorInfo, type Responder, type ResponderSetup } from "@fwkit/koa-host";
import {
  createFileProbe,
  hasNoBodyStatus,
  isPlainObject,
  sendHtmlError,
  sendJson,
  sendJsonError,
  sendText,
  statusText,
  unwrapReply,
  wantsJsonError,
} from "@fwkit/koa-host/plugin";
import type nunjucks from "nunjucks";
import type { Route } from "routing-kernel";
import { RESPONSE_KIND } from "./response.js";
import { createTemplateEnvironment, findViewTemplate } from "./templates.js";

/**
 * Framework A's response rules (SPEC section 3): a string is the body (HTML when it starts with
 * `<`); a plain object or `undefined` renders `templates/<module>/<Class>/<method>.html`; an array,
 * or anything under `@response.json`, is JSON. Decided per route at start-up.
 */
export function createFwAResponder(setup: ResponderSetup): Responder {
  const dir = join(setup.config.root, "templates");
  const development = setup.config.env === "development";
  const env = createTemplateEnvironment({ dir, development });
  // Error pages are looked up when an error happens (a rare path), so a page added later is found.
  // Templates of views are looked up once per route at start-up: from folder listings, not one
  // system call per file.
  const probe = createFileProbe();
  const errorTemplate = (status: number): string | undefined =>
    [`error/${status}.html`, "error.html"].find((name) => existsSync(join(dir, name)));

  const render = (ctx: Context, name: string, data: Record<string, unknown>): void => {
    ctx.type = "text/html; charset=utf-8";
    ctx.body = env.render(name, { ...setup.locals(ctx), ...data });
  };

  return {
    prepare(route: Route) {
      const json = route.tags[RESPONSE_KIND] === "json";
      const found = findViewTemplate(dir, route.module, route.className, route.methodName, probe);
      const handler = `${route.id}()`;
      let template: nunjucks.Template | undefined;
      const renderTemplate = (ctx: Context, data: Record<string, unknown>) => {
        if (!found.exists && !(development && existsSync(join(dir, found.name)))) {
          throw new E_TEMPLATE_NOT_FOUND(handler, join(dir, found.name));
        }
        if (development) return render(ctx, found.name, data);
        template ??= env.getTemplate(found.name, true);
        ctx.type = "text/html; charset=utf-8";
        ctx.body = template.render({ ...setup.locals(ctx), ...data });
      };
      return (ctx, result) => {
        const body = unwrapReply(ctx, result);
        if (json) return sendJson(ctx, body);
        if (typeof body === "string") return sendText(ctx, body);
        if (Array.isArray(body)) return sendJson(ctx, body);
        if (body === undefined) {
          if (hasNoBodyStatus(ctx)) return;
          return renderTemplate(ctx, {});
        }
        if (isPlainObject(body)) return renderTemplate(ctx, body);
        if (Buffer.isBuffer(body) || (typeof body === "object" && body !== null && typeof (body as { pipe?: unknown }).pipe === "function")) {
          ctx.body = body as Buffer;
          return;
        }
        return sendText(ctx, String(body));
      };
    },
    renderError(ctx: Context, info: ErrorInfo) {
      if (wantsJsonError(ctx, info.route)) return sendJsonError(ctx, info);
      const name = errorTemplate(info.status);
      if (!name) return sendHtmlError(ctx, info);
      ctx.status = info.status;
      render(ctx, name, { status: info.status, title: statusText(info.status), message: info.message, stack: info.stack });
    },
    describe(route: Route) {
      // The kinds the docs name (`html`, `json`): a string result is answered as a page too.
      return route.tags[RESPONSE_KIND] === "json" ? "json" : "html";
    },
  };
}

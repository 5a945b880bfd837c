import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "koa";
import { E_TEMPLATE_NOT_FOUND } from "@fwkit/koa-host";
import type { ErrorInfo, Responder, ResponderSetup } from "@fwkit/koa-host/plugin";
import {
  createFileProbe,
  errorPageText,
  prepareResult,
  sendHtmlError,
  sendJsonError,
  wantsJsonError,
} from "@fwkit/koa-host/plugin";
import type nunjucks from "nunjucks";
import { errorTemplateNames } from "@fwkit/app-kit";
import type { Route } from "routing-kernel";
import { responseKindOf } from "routing-kernel/plugin";
import { createTemplateEnvironment, findViewTemplate } from "./templates.js";

/**
 * Framework A's responder: the kit's result table (koa-host `prepareResult`, docs/views.md) with
 * fw-a's own part, the Nunjucks template `templates/<module>/<Class>/<method>.html` that plain
 * objects, `undefined` and `null` render in HTML views; `@response.json` makes a route JSON.
 * Decided per route at start-up.
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
    errorTemplateNames(status, ".html").find((name) => existsSync(join(dir, name)));

  const render = (ctx: Context, name: string, data: Record<string, unknown>): void => {
    ctx.type = "text/html; charset=utf-8";
    ctx.body = env.render(name, { ...setup.locals(ctx), ...data });
  };

  return {
    prepare(route: Route) {
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
      return prepareResult({ kind: responseKindOf(route), handler, template: renderTemplate });
    },
    renderError(ctx: Context, info: ErrorInfo) {
      if (wantsJsonError(ctx, info.route)) return sendJsonError(ctx, info);
      const name = errorTemplate(info.status);
      if (!name) return sendHtmlError(ctx, info);
      ctx.status = info.status;
      // Title and message in the request's language (the kit's one rule for error words).
      const text = errorPageText(ctx, info);
      render(ctx, name, { status: info.status, title: text.name, message: text.message, stack: info.stack });
    },
    describe(route: Route) {
      // The kinds the docs name (`html`, `json`): a string result is answered as a page too.
      return responseKindOf(route);
    },
  };
}

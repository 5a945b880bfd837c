import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Context } from "koa";
import { E_TEMPLATE_NOT_FOUND } from "@fwkit/koa-host";
import type { ErrorInfo, Responder, ResponderSetup } from "@fwkit/koa-host/plugin";
import { createFileProbe, frameworkTemplateCache, prepareResult } from "@fwkit/koa-host/plugin";
import type nunjucks from "nunjucks";
import { answerErrorPage, errorTemplateNames } from "@fwkit/app-kit";
import type { Route } from "routing-kernel";
import { responseKindOf } from "routing-kernel/plugin";
import { createTemplateEnvironment, findViewTemplate } from "./templates.js";

/** The fw-a package folder (the same from `src/` under tsx and from `dist/` once built). */
const PACKAGE_ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Framework A's responder: the kit's result table (koa-host `prepareResult`, docs/views.md) with
 * fw-a's own part, the Nunjucks template `templates/<module>/<Class>/<method>.html` that plain
 * objects, `undefined` and `null` render in HTML views; `@response.json` makes a route JSON.
 * Decided per route at start-up.
 */
export function createFwAResponder(setup: ResponderSetup): Responder {
  const dir = join(setup.config.root, "templates");
  const development = setup.config.env === "development";
  // Made (and Nunjucks loaded) with the first page or error page rendered, not at start-up.
  // Production starts keep compiled templates from one start to the next, salted with Nunjucks'
  // version (a `.md` template is compiled from the HTML its Markdown became, which is in the key).
  let environment: nunjucks.Environment | undefined;
  const env = () => {
    if (environment) return environment;
    const cache = frameworkTemplateCache(PACKAGE_ROOT, "fw-a-templates", ["nunjucks"], setup.config.env);
    environment = createTemplateEnvironment({ dir, development, ...(cache ? { cache } : {}) });
    return environment;
  };
  // Error pages are looked up when an error happens (a rare path), so a page added later is found.
  // Templates of views are looked up once per route at start-up: from folder listings, not one
  // system call per file.
  const probe = createFileProbe();
  const errorPages = {
    page: (_ctx: Context, info: ErrorInfo): string | undefined =>
      errorTemplateNames(info.status, ".html").find((name) => existsSync(join(dir, name))),
    render: (ctx: Context, name: string, values: object): string =>
      env().render(name, { ...setup.locals(ctx), ...values }),
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
        ctx.type = "text/html; charset=utf-8";
        if (development) {
          ctx.body = env().render(found.name, { ...setup.locals(ctx), ...data });
          return;
        }
        template ??= env().getTemplate(found.name, true);
        ctx.body = template.render({ ...setup.locals(ctx), ...data });
      };
      return prepareResult({ kind: responseKindOf(route), handler, template: renderTemplate });
    },
    renderError(ctx: Context, info: ErrorInfo) {
      // The kit's one sequence: JSON where wanted, else the app's page with the kit's words, else the built-in one.
      answerErrorPage(ctx, info, errorPages);
    },
    describe(route: Route) {
      // The kinds the docs name (`html`, `json`): a string result is answered as a page too.
      return responseKindOf(route);
    },
  };
}

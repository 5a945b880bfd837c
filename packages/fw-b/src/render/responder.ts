import type { Context } from "koa";
import { E_TEMPLATE_NOT_FOUND } from "@fwkit/koa-host";
import type { ErrorInfo, RespondFn, Responder, ResponderSetup } from "@fwkit/koa-host/plugin";
import { frameworkTemplateCache, prepareResult, type TemplateRenderer } from "@fwkit/koa-host/plugin";
import type { Route } from "routing-kernel";
import { responseKindOf } from "routing-kernel/plugin";
import { renderMarkdown } from "@fwkit/services";
import { answerErrorPage, errorTemplateNames, type ErrorPageRenderer } from "@fwkit/app-kit";
import { NavMenu } from "./menu.js";
import { PACKAGE_ROOT } from "../paths.js";
import { TemplateStore, type Template } from "./templates.js";

/** Options of {@link createResponder}. */
export interface FwBResponderOptions {
  /** fw-b's own templates folder (the default layout, the contrib pages). */
  readonly packageTemplates: string;
  /**
   * `contrib.errors`: styled error pages (`contrib/errors/<status>.pug`, else
   * `contrib/errors/error.pug`) when the app has no `error/<status>` or `error` template.
   */
  readonly contribErrors?: boolean;
}

/**
 * fw-b's responder: the kit's result table (koa-host `prepareResult`, docs/views.md), decided per
 * route at start-up, with fw-b's own part: in HTML views a plain object or nothing renders
 * `templates/<module>/<Class>/<method>.pug` (or `.html`, or `.md`) with the object's keys, `nav`,
 * `markdown` and the host's locals. `@renderJson` gives JSON, `@renderXml` XML. Errors: the app's `templates/error/<status>` or `templates/error` page,
 * else (with `contrib.errors`) `contrib/errors/<status>` or `contrib/errors/error`, else the
 * built-in one; JSON for JSON/XML views and JSON-only clients. The maintenance answer (503) uses
 * `contrib/maintenance/page`.
 */
export function createResponder(setup: ResponderSetup, options: FwBResponderOptions): Responder {
  const development = setup.config.env === "development";
  // Production starts keep compiled HTML templates from one start to the next, salted with Pug's
  // version and the Markdown renderer's (`@fwkit/services`: the `:markdown` filter's output is
  // compiled in).
  const cache = frameworkTemplateCache(PACKAGE_ROOT, "fw-b-templates", ["pug", "@fwkit/services"], setup.config.env);
  const templates = new TemplateStore({
    appDir: `${setup.config.root}/templates`,
    packageDir: options.packageTemplates,
    development,
    ...(cache ? { cache } : {}),
  });
  const menu = new NavMenu(setup.table, setup.basePath);
  const prepared = new Map<Route, RespondFn>();

  const noNav: readonly never[] = Object.freeze([]);
  /** The host's locals, `markdown`, `nav`, then the view's values (which win), in one object. */
  const localsFor = (ctx: Context, data: Record<string, unknown>): Record<string, unknown> => {
    const values = setup.locals(ctx);
    values["markdown"] = renderMarkdown;
    values["nav"] = menu.empty ? noNav : menu.forRequest(ctx);
    // Assignment would give the object a new prototype for a `__proto__` key: copy those by spread.
    return Object.hasOwn(data, "__proto__") ? { ...values, ...data } : Object.assign(values, data);
  };

  /** In development a template is looked up per request, so new files need no restart. */
  const lookup = (name: string): (() => Template | undefined) => {
    if (development) return () => templates.find(name);
    const found = templates.find(name);
    return () => found;
  };

  /** fw-b's part of the result table: the view's Pug (or `.html`, `.md`) template with `nav` and `markdown`. */
  const templateOf = (route: Route): TemplateRenderer => {
    const name = `${route.module}/${route.className}/${route.methodName}`;
    const template = lookup(name);
    return (ctx, values) => {
      const found = template();
      if (!found) throw new E_TEMPLATE_NOT_FOUND(`${route.id}()`, `${templates.expectedPath(name)} (or .html, .md)`);
      ctx.type = "text/html; charset=utf-8";
      ctx.body = found.render(localsFor(ctx, values));
    };
  };

  const errorPage = (status: number) => {
    // The kit's order (the app's pages), then the contrib module's styled pages when it is on.
    const names = [
      ...errorTemplateNames(status),
      ...(options.contribErrors ? [`contrib/errors/${status}`, "contrib/errors/error"] : []),
    ];
    for (const name of names) {
      const found = lookup(name);
      if (found()) return found;
    }
    return () => undefined;
  };
  const maintenancePage = lookup("contrib/maintenance/page");
  const errorPages = new Map<number, () => Template | undefined>();
  const errorPageRenderer: ErrorPageRenderer<Template> = {
    page(_ctx, info) {
      const maintenance = (info.error as { code?: unknown } | undefined)?.code === "E_MAINTENANCE";
      let page = maintenance ? maintenancePage : errorPages.get(info.status);
      if (!page || (development && !maintenance)) {
        page = errorPage(info.status);
        errorPages.set(info.status, page);
      }
      return page();
    },
    render: (ctx, page, values) => page.render(localsFor(ctx, { ...values })),
  };

  return {
    prepare(route) {
      let respond = prepared.get(route);
      if (!respond) {
        const kind = responseKindOf(route);
        // JSON and XML routes never render a template, so none is looked up for them.
        const template: TemplateRenderer = kind === "html" ? templateOf(route) : () => undefined;
        respond = prepareResult({ kind, handler: `${route.id}()`, template });
        prepared.set(route, respond);
      }
      return respond;
    },
    renderError(ctx: Context, info: ErrorInfo) {
      // The kit's one sequence (the host gives errors raised before the view the route of their path).
      answerErrorPage(ctx, info, errorPageRenderer);
    },
    describe(route) {
      return responseKindOf(route);
    },
  };
}

import type { Context } from "koa";
import { errorPageText, sendHtmlError, sendJsonError, wantsJsonError, type ErrorInfo } from "@fwkit/koa-host/plugin";

/**
 * Where an HTML error page is looked for, the same in every framework: the app's
 * `templates/error/<status>` page, else its `templates/error` page (then the framework's own pages,
 * if it has any, then the kit's built-in page).
 */
export function errorTemplateNames(status: number, extension = ""): string[] {
  return [`error/${status}${extension}`, `error${extension}`];
}

/** What an error page's template sees, in every framework (besides the framework's own locals). */
export interface ErrorPageValues {
  readonly status: number;
  /** The page's title, status first, in the request's language: `404 Not Found`, `404 Page introuvable`. */
  readonly title: string;
  /** The status's name alone, in the request's language: `Not Found`. */
  readonly name: string;
  /** The error's message (translated for the framework's own coded errors). */
  readonly message: string;
  /** The stack, in development for an unexpected error; undefined otherwise. */
  readonly stack: string | undefined;
}

/** How a framework finds and renders its error pages, for {@link answerErrorPage}. */
export interface ErrorPageRenderer<Page> {
  /** The framework's page for this error (by {@link errorTemplateNames}, then its own), or undefined for the built-in one. */
  page(ctx: Context, info: ErrorInfo): Page | undefined;
  /** The page's HTML with the values and the framework's locals. */
  render(ctx: Context, page: Page, values: ErrorPageValues): string;
}

/**
 * A responder's `renderError`, once for every framework: JSON for JSON and XML routes and JSON-only
 * clients, else the framework's page with the kit's words for it (title, status name and message in
 * the request's language), else the built-in page.
 */
export function answerErrorPage<Page>(ctx: Context, info: ErrorInfo, renderer: ErrorPageRenderer<Page>): void {
  if (wantsJsonError(ctx, info.route)) {
    sendJsonError(ctx, info);
    return;
  }
  const page = renderer.page(ctx, info);
  if (page === undefined) {
    sendHtmlError(ctx, info);
    return;
  }
  const text = errorPageText(ctx, info);
  const html = renderer.render(ctx, page, {
    status: info.status,
    title: text.title,
    name: text.name,
    message: text.message,
    stack: info.stack,
  });
  ctx.status = info.status;
  ctx.type = "text/html; charset=utf-8";
  ctx.body = html;
}

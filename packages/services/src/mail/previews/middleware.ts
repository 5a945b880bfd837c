/**
 * `/_mail`, the mail preview pages of development: installed by the services plugin only when
 * the app runs in development (elsewhere the path is an ordinary 404). Plugins add template
 * folders and languages through an optional `mailPreview()` method (fw-b's contrib mails, the
 * translations' languages and translators), read from the app's plugins on each request.
 */
import { join } from "node:path";
import type { Context, Middleware } from "koa";
import { runtimeOf } from "@fwkit/koa-host/plugin";
import type { Mailer } from "../mailer.js";
import type { CaughtMail } from "../transports/log.js";
import { caughtPage, indexPage, previewPage, type RenderedPreview } from "./page.js";
import { listMailSources, previewData } from "./sources.js";

/** The path the preview pages are served under. */
export const MAIL_PREVIEW_PATH = "/_mail";

/** What a plugin may offer the preview pages through a `mailPreview()` method. */
export interface MailPreviewHints {
  /** More template folders whose `mail/` and `contrib/<module>/mail/` mails are listed (after the app's). */
  readonly templateDirs?: readonly string[];
  /** The languages each mail is rendered in. */
  readonly languages?: readonly string[];
  /** The translator of a language, given to the templates as `t`. */
  translator?(language: string): (key: string, values?: Readonly<Record<string, unknown>>) => string;
}

function hintsOf(ctx: Context): MailPreviewHints[] {
  const hints: MailPreviewHints[] = [];
  for (const plugin of runtimeOf(ctx).plugins) {
    const offer = (plugin as { mailPreview?: () => MailPreviewHints | undefined }).mailPreview;
    const hint = typeof offer === "function" ? offer.call(plugin) : undefined;
    if (hint) hints.push(hint);
  }
  return hints;
}

function caughtMails(mailer: Mailer): readonly CaughtMail[] | undefined {
  try {
    const transport = mailer.transport as { kind: string; caught?: () => readonly CaughtMail[] };
    return transport.kind === "log" && typeof transport.caught === "function" ? transport.caught() : undefined;
  } catch {
    // An unconfigured mailer has no transport: nothing was caught.
    return undefined;
  }
}

function configuredLanguages(ctx: Context): readonly string[] | undefined {
  const i18n = (runtimeOf(ctx).config as { i18n?: { languages?: unknown } }).i18n;
  const languages = i18n?.languages;
  return Array.isArray(languages) && languages.every((language) => typeof language === "string")
    ? (languages as string[])
    : undefined;
}

async function renderIn(
  mailer: Mailer,
  name: string,
  data: Record<string, unknown>,
  language: string,
  hints: readonly MailPreviewHints[],
): Promise<RenderedPreview> {
  const translator = hints.find((hint) => hint.translator)?.translator;
  const context = { ...(translator ? { t: translator(language) } : {}), locale: language, ...data };
  try {
    const mail = await mailer.compose({ to: "preview@example.com", template: name, context });
    return {
      language,
      subject: mail.subject,
      ...(mail.html === undefined ? {} : { html: mail.html }),
      ...(mail.text === undefined ? {} : { text: mail.text }),
    };
  } catch (error) {
    return { language, error: error instanceof Error ? error.message : String(error) };
  }
}

function send(ctx: Context, html: string): void {
  ctx.type = "text/html; charset=utf-8";
  ctx.set("Cache-Control", "no-store");
  ctx.body = html;
}

/**
 * The preview pages' middleware: `/_mail`, `/_mail/preview/<name>`, `/_mail/caught/<n>`, over the
 * app's mailer (made at the services plugin's setup, before its phases ask for this middleware).
 */
export function mailPreviewMiddleware(options: { readonly root: string; readonly mailer: Mailer }): Middleware {
  const { mailer } = options;
  return async (ctx, next) => {
    if (ctx.path !== MAIL_PREVIEW_PATH && !ctx.path.startsWith(`${MAIL_PREVIEW_PATH}/`)) return next();
    if (ctx.method !== "GET" && ctx.method !== "HEAD") return next();
    const base = runtimeOf(ctx).basePath + MAIL_PREVIEW_PATH;
    const hints = hintsOf(ctx);
    const sources = listMailSources([
      join(options.root, "templates"),
      ...hints.flatMap((hint) => hint.templateDirs ?? []),
    ]);
    const rest = ctx.path.slice(MAIL_PREVIEW_PATH.length).replace(/^\/+/, "").replace(/\/+$/, "");
    if (rest === "") return send(ctx, indexPage(base, sources, caughtMails(mailer)));
    const caught = /^caught\/(\d{1,3})$/.exec(rest);
    if (caught) {
      const mail = caughtMails(mailer)?.[Number(caught[1])];
      return mail ? send(ctx, caughtPage(base, mail)) : next();
    }
    if (!rest.startsWith("preview/")) return next();
    let name: string;
    try {
      name = rest.slice("preview/".length).split("/").map(decodeURIComponent).join("/");
    } catch {
      return next();
    }
    const source = sources.find((candidate) => candidate.name === name);
    if (!source) return next();
    const languages = hints.find((hint) => hint.languages?.length)?.languages ?? configuredLanguages(ctx) ?? ["en"];
    const previews: RenderedPreview[] = [];
    for (const language of languages) {
      let data: Record<string, unknown>;
      try {
        data = await previewData(source, language);
      } catch (error) {
        previews.push({
          language,
          error: `The preview data ${source.previewFile} failed: ${error instanceof Error ? error.message : String(error)}`,
        });
        continue;
      }
      previews.push(await renderIn(mailer, name, data, language, hints));
    }
    return send(ctx, previewPage(base, source, previews));
  };
}

import type { MailRenderer } from "@fwkit/services";
import { TemplateStore } from "./templates.js";

/** Options of {@link pugMailRenderer}. */
export interface PugMailOptions {
  /** The app's `templates/` folder. */
  readonly appDir: string;
  /** fw-b's own `templates/` folder (the contrib modules' mails). */
  readonly packageDir: string;
  /** Re-read templates on every mail (development). */
  readonly development: boolean;
  /** Variables every mail sees (the app config, `t`...), under the mail's own context. */
  readonly globals?: Readonly<Record<string, unknown>>;
}

/**
 * Where a mail file lives: `mail/<name>.<part>`, except the contrib modules' mails,
 * `mail/contrib/<module>/<name>.<part>`, which live beside their pages as
 * `contrib/<module>/mail/<name>.<part>` (in the app's templates first, then fw-b's).
 */
export function mailTemplatePath(template: string): string {
  const contrib = /^mail\/contrib\/([^/]+)\/(.+)$/.exec(template);
  return contrib ? `contrib/${contrib[1]}/mail/${contrib[2]}` : template;
}

/**
 * fw-b's mail renderer for the services mailer: `mail/<name>.subject.txt` and `mail/<name>.txt`
 * are plain text with `#{expr}` interpolation; the HTML part is `mail/<name>.pug`, else
 * `mail/<name>.html`. A part that does not exist renders as `undefined` (the mailer decides).
 */
export function pugMailRenderer(options: PugMailOptions): MailRenderer {
  const store = new TemplateStore({
    appDir: options.appDir,
    packageDir: options.packageDir,
    development: options.development,
  });
  return (template, context) => {
    const path = mailTemplatePath(template);
    const locals = { ...options.globals, ...context };
    if (path.endsWith(".html")) {
      const base = path.slice(0, -".html".length);
      const found = store.findFile(`${base}.pug`) ?? store.findFile(`${base}.html`);
      return found?.render(locals);
    }
    return store.findFile(path)?.render(locals);
  };
}

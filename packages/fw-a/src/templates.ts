import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { FileProbe } from "@fwkit/koa-host/plugin";
import type nunjucksType from "nunjucks";
import { renderMarkdown, renderTrustedMarkdown } from "@fwkit/services";

const require = createRequire(import.meta.url);

/**
 * Nunjucks and the loader class built on it, loaded with the first template environment: an app
 * whose first request renders no template (an API, a text route) starts without its 21 modules.
 */
let loaded: { nunjucks: typeof nunjucksType; Loader: typeof nunjucksType.FileSystemLoader } | undefined;
function nunjucksModule() {
  if (loaded) return loaded;
  const nunjucks = require("nunjucks") as typeof nunjucksType;
  /**
   * Loads templates from the app's `templates/` folder; a `.md` template or include is converted
   * from Markdown to HTML before Nunjucks sees it. It is the app's own text, so its HTML is kept.
   */
  class MarkdownAwareLoader extends nunjucks.FileSystemLoader {
    override getSource(name: string): nunjucksType.LoaderSource {
      const source = super.getSource(name);
      if (source && name.endsWith(".md")) return { ...source, src: renderTrustedMarkdown(source.src) };
      return source;
    }
  }
  loaded = { nunjucks, Loader: MarkdownAwareLoader };
  return loaded;
}

/** Options of {@link createTemplateEnvironment}. */
export interface TemplateOptions {
  /** The app's `templates/` folder. */
  readonly dir: string;
  /** Re-read templates on every render (development). */
  readonly development: boolean;
  /** Escape values for HTML (default true); off only for plain-text output such as a mail's text part. */
  readonly autoescape?: boolean;
}

/**
 * The Nunjucks environment of an app: autoescaping on, templates compiled once and cached outside
 * development and re-read in development, a `markdown` filter that is safe for user and database
 * text (the shared renderer: sanitised against an allow-list).
 */
export function createTemplateEnvironment(options: TemplateOptions): nunjucksType.Environment {
  const { nunjucks, Loader } = nunjucksModule();
  const loader = new Loader(options.dir, { noCache: options.development, watch: false });
  const env = new nunjucks.Environment(loader, {
    autoescape: options.autoescape ?? true,
    throwOnUndefined: false,
    trimBlocks: true,
    lstripBlocks: true,
  });
  env.addFilter("markdown", (text: unknown) => new nunjucks.runtime.SafeString(renderMarkdown(String(text ?? ""))));
  return env;
}

/**
 * The template file of a view method: `<module>/<ClassName>/<methodName>.html` (or `.md`), if it
 * exists. `exists` checks a name under `dir` (default: one `existsSync` each; the responder passes
 * a probe that reads each folder once for all routes).
 */
export function findViewTemplate(
  dir: string,
  module: string,
  className: string,
  methodName: string,
  exists: FileProbe = existsUnder,
): { name: string; exists: boolean } {
  const base = `${module}/${className}/${methodName}`;
  for (const extension of [".html", ".md"]) {
    if (exists(dir, base + extension)) return { name: base + extension, exists: true };
  }
  return { name: `${base}.html`, exists: false };
}

function existsUnder(dir: string, name: string): boolean {
  return existsSync(join(dir, name));
}

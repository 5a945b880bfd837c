import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { FileProbe, TemplateCache } from "@fwkit/koa-host/plugin";
import type nunjucksType from "nunjucks";
import { renderMarkdown, renderTrustedMarkdown } from "@fwkit/services";

const require = createRequire(import.meta.url);

/**
 * Compiles a template's source into what its compiled code returns, as Nunjucks takes it from a
 * loader; `undefined` leaves the template to Nunjucks.
 */
type CompiledTemplate = (path: string, source: string) => object | undefined;

/** The app's template loader (made on the loaded Nunjucks, so only its type is named here). */
type AppTemplateLoader = new (
  dir: string,
  options: nunjucksType.FileSystemLoaderOptions,
) => nunjucksType.FileSystemLoader & { compiled: CompiledTemplate | undefined };

/**
 * Nunjucks and the loader class built on it, loaded with the first template environment: an app
 * whose first request renders no template (an API, a text route) starts without its 21 modules.
 */
let loaded: { nunjucks: typeof nunjucksType; Loader: AppTemplateLoader } | undefined;

function nunjucksModule() {
  if (loaded) return loaded;
  const nunjucks = require("nunjucks") as typeof nunjucksType;
  /**
   * Loads templates from the app's `templates/` folder; a `.md` template or include is converted
   * from Markdown to HTML before Nunjucks sees it. It is the app's own text, so its HTML is kept.
   * With `compiled` set (a template cache), a template is handed to Nunjucks compiled, as its own
   * precompiled templates are.
   */
  class Loader extends nunjucks.FileSystemLoader {
    compiled: CompiledTemplate | undefined;

    override getSource(name: string): nunjucksType.LoaderSource {
      const source = super.getSource(name);
      if (!source) return source;
      const src = name.endsWith(".md") ? renderTrustedMarkdown(source.src) : source.src;
      const compiled = this.compiled?.(source.path, src);
      // Nunjucks' loader source type names strings only; `{ type: "code" }` is its precompiled form.
      if (compiled) return { ...source, src: { type: "code", obj: compiled } as unknown as string };
      return src === source.src ? source : { ...source, src };
    }
  }
  loaded = { nunjucks, Loader };
  return loaded;
}

/**
 * Compiles through `cache`: the compiled source a start stored is run, not compiled again. What
 * shapes Nunjucks' output besides the source is in the key: the file, the environment's options
 * (delimiters, whitespace control) and its async filters' names. An environment with extensions
 * (custom tags, whose code shapes the output) compiles without the cache. A template Nunjucks
 * cannot compile is left to Nunjucks, which reports it as always.
 */
function compiledThrough(
  nunjucks: typeof nunjucksType,
  env: nunjucksType.Environment,
  cache: TemplateCache,
): CompiledTemplate {
  const internals = env as unknown as { opts: object; asyncFilters: string[]; extensionsList: unknown[] };
  const compiler = (nunjucks as unknown as { compiler: { compile(...args: unknown[]): string } }).compiler;
  return (path, source) => {
    if (internals.extensionsList.length > 0) return undefined;
    const key = JSON.stringify([path, internals.opts, internals.asyncFilters]);
    let body = cache.load(key, source);
    if (body === undefined) {
      try {
        body = compiler.compile(source, internals.asyncFilters, internals.extensionsList, path, internals.opts);
      } catch {
        return undefined;
      }
      cache.store(key, source, body);
    }
    return new Function(body)() as object;
  };
}

/** Options of {@link createTemplateEnvironment}. */
export interface TemplateOptions {
  /** The app's `templates/` folder. */
  readonly dir: string;
  /** Re-read templates on every render (development). */
  readonly development: boolean;
  /** Escape values for HTML (default true); off only for plain-text output such as a mail's text part. */
  readonly autoescape?: boolean;
  /** Where compiled templates are kept between starts (never in development); none when undefined. */
  readonly cache?: TemplateCache;
}

/**
 * The Nunjucks environment of an app: autoescaping on, templates compiled once and cached outside
 * development (and, given a cache, kept compiled from one start to the next) and re-read in
 * development, a `markdown` filter that is safe for user and database text (the shared renderer:
 * sanitised against an allow-list).
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
  if (options.cache && !options.development) loader.compiled = compiledThrough(nunjucks, env, options.cache);
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

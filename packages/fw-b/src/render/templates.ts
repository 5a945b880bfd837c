import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import { createFileProbe, type FileProbe, type TemplateCache } from "@fwkit/koa-host/plugin";
import type pug from "pug";
import { E_TEMPLATE_FAILED } from "../errors.js";
import { renderTrustedMarkdown } from "@fwkit/services";

/** The template formats fw-b renders, in lookup order. */
export const TEMPLATE_EXTENSIONS = [".pug", ".html", ".md"] as const;

/** A template file found at start-up (or per request in development). */
export interface Template {
  /** Absolute path of the file. */
  readonly path: string;
  /** Renders the file with the given variables. */
  render(locals: Record<string, unknown>): string;
}

/** Options of {@link TemplateStore}. */
export interface TemplateStoreOptions {
  /** The app's `templates/` folder. */
  readonly appDir: string;
  /** fw-b's own `templates/` folder, searched after the app's for layouts and includes. */
  readonly packageDir: string;
  /** Re-read files on every render (development) instead of compiling once. */
  readonly development: boolean;
  /**
   * Where compiled Pug templates are kept between starts outside development (koa-host's
   * `TemplateCache`); none when undefined.
   */
  readonly cache?: TemplateCache;
}

type Compiled = (locals: Record<string, unknown>) => string;

/** The function a compiled body (Pug's `compileClient` output, runtime inlined) defines as `template`. */
function templateFunction(body: string): Compiled {
  return new Function(`${body}\nreturn template;`)() as Compiled;
}

const require = createRequire(import.meta.url);
let pugModule: typeof pug | undefined;

/**
 * Pug's compiler (about 150 modules with Babel's types) loads with the first template compiled,
 * not with fw-b: templates compile on their first render, so an app whose first request renders
 * none starts without it.
 */
function loadPug(): typeof pug {
  pugModule ??= require("pug") as typeof pug;
  return pugModule;
}

/**
 * Finds and compiles templates. `.pug` files are Pug; `.html` files are HTML with Pug's `#{expr}`
 * (escaped) and `!{expr}` (raw) interpolation; `.md` files are Markdown shown inside the app's
 * `layouts/markdown.pug` or else the default layout, titled by their first `# heading`.
 * Absolute includes and `extends /layouts/default` look in the app's folder, then in fw-b's.
 * Outside development each file is compiled once and cached.
 */
export class TemplateStore {
  readonly #options: TemplateStoreOptions;
  readonly #cache = new Map<string, Compiled>();
  // Outside development `find` runs at start-up, once per route: it answers from folder listings
  // (koa-host's probe) instead of up to six existsSync calls per route.
  readonly #exists: FileProbe;

  constructor(options: TemplateStoreOptions) {
    this.#options = options;
    this.#exists = options.development ? (dir, file) => existsSync(join(dir, file)) : createFileProbe();
  }

  /** The path a template of this name would have (what error messages name). */
  expectedPath(name: string): string {
    return join(this.#options.appDir, `${name}.pug`);
  }

  /**
   * Finds `<name>.pug`, else `<name>.html`, else `<name>.md` in the app's templates, then in
   * fw-b's own (the contrib pages and mails), so an app overrides a shipped file at the same path.
   */
  find(name: string): Template | undefined {
    for (const dir of [this.#options.appDir, this.#options.packageDir]) {
      for (const extension of TEMPLATE_EXTENSIONS) {
        if (this.#exists(dir, `${name}${extension}`)) return this.#template(join(dir, `${name}${extension}`));
      }
    }
    return undefined;
  }

  /**
   * Finds a file by its full name (`mail/welcome.txt`) in the app's templates, then in fw-b's.
   * `.txt` files are plain text with Pug's `#{expr}` interpolation, not HTML-escaped.
   */
  findFile(file: string): Template | undefined {
    for (const dir of [this.#options.appDir, this.#options.packageDir]) {
      const path = join(dir, file);
      if (existsSync(path)) return this.#template(path);
    }
    return undefined;
  }

  /** A found file; outside development it is compiled on its first render and then kept. */
  #template(path: string): Template {
    if (this.#options.development) return { path, render: (locals) => this.#compiled(path)(locals) };
    let compiled: Compiled | undefined;
    return { path, render: (locals) => (compiled ??= this.#compiled(path))(locals) };
  }

  #compiled(path: string): Compiled {
    const cached = this.#cache.get(path);
    if (cached) return cached;
    let compiled: Compiled;
    try {
      compiled = this.#compile(path);
    } catch (error) {
      throw new E_TEMPLATE_FAILED(path, (error as Error).message);
    }
    const guarded: Compiled = (locals) => {
      try {
        return compiled(locals);
      } catch (error) {
        throw new E_TEMPLATE_FAILED(path, (error as Error).message);
      }
    };
    if (!this.#options.development) this.#cache.set(path, guarded);
    return guarded;
  }

  #compile(path: string): Compiled {
    const source = readFileSync(path, "utf8");
    switch (extname(path)) {
      case ".txt":
        // Plain text (a mail's subject or text part): `#{...}` is not HTML-escaped, and text as
        // written stays as written (an `&lt;` in the file is not turned into `<`).
        return this.#pug(
          source
            .split(/\r?\n/)
            .map((line) => (line === "" ? "|" : `| ${line}`))
            .join("\n"),
          path,
          false,
        );
      case ".html":
        // Every line becomes Pug piped text: HTML passes through, `#{...}` interpolates escaped.
        return this.#pug(
          source
            .split(/\r?\n/)
            .map((line) => (line === "" ? "|" : `| ${line}`))
            .join("\n"),
          path,
        );
      case ".md": {
        const html = renderTrustedMarkdown(source);
        // The app's layouts/markdown.pug frames Markdown pages when it exists; else the default layout.
        const layout = existsSync(join(this.#options.appDir, "layouts", "markdown.pug"))
          ? "/layouts/markdown"
          : "/layouts/default";
        const page = this.#pug(`extends ${layout}\nblock content\n  != __markdown`, path);
        const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(source)?.[1];
        return (locals) => page({ ...(heading ? { title: heading } : {}), ...locals, __markdown: html });
      }
      default:
        return this.#pug(source, path);
    }
  }

  #pug(source: string, filename: string, escaped = true): Compiled {
    const { appDir, packageDir, development } = this.#options;
    // @types/pug lacks `plugins`; Pug 3 supports a `resolve` plugin for includes and extends.
    const options: pug.Options & { plugins: unknown[] } = {
      filename,
      basedir: appDir,
      doctype: "html",
      compileDebug: development,
      // The `:markdown` filter only ever sees the template's own text, so it is trusted.
      filters: { markdown: renderTrustedMarkdown },
      plugins: [{ resolve: (file: string, from: string) => resolveInclude(file, from, appDir, packageDir) }],
    };
    if (escaped && this.#options.cache && !development) return this.#cachedPug(source, options, this.#options.cache);
    const compiler = loadPug();
    if (escaped) return compiler.compile(source, options);
    // Pug's runtime escape is swapped for String: the same compiler, no HTML escaping.
    const body = compiler.compileClient(source, { ...options, inlineRuntimeFunctions: false, name: "template" });
    return new Function("pug", `${body}\nreturn template;`)(plainRuntime(compiler)) as Compiled;
  }

  /** An HTML template from the disk cache, else compiled (runtime inlined) and kept there with what it read. */
  #cachedPug(source: string, options: pug.Options & { plugins: unknown[] }, cache: TemplateCache): Compiled {
    const { appDir, packageDir } = this.#options;
    // One of fw-b's own templates compiles differently in each app (the app's layouts win): the
    // entry is the app's.
    const filename = options.filename!;
    const key = `${appDir}\0${packageDir}\0${filename}`;
    const hit = cache.load(key, source);
    if (hit !== undefined) return templateFunction(hit);
    const inputs = { read: [] as string[], absent: [] as string[] };
    // A shipped file that stands in for the app's own is kept only while the app still has none.
    const tracked = (file: string, from: string) => {
      const resolved = resolveInclude(file, from, appDir, packageDir, inputs.absent);
      inputs.read.push(resolved);
      return resolved;
    };
    const { body } = loadPug().compileClientWithDependenciesTracked(source, {
      ...options,
      plugins: [{ resolve: tracked }],
      inlineRuntimeFunctions: true,
      name: "template",
    } as pug.Options);
    cache.store(key, source, body, inputs);
    return templateFunction(body);
  }
}

/** Pug's runtime without HTML escaping, for plain-text templates. */
function plainRuntime(compiler: typeof pug): Record<string, unknown> {
  return {
    ...(compiler as unknown as { runtime: Record<string, unknown> }).runtime,
    escape: (value: unknown) => String(value),
  };
}

/**
 * Resolves a Pug include or extends: absolute paths in the app's folder, then in fw-b's. When fw-b's
 * file is taken, the app's path it looked for first is added to `absent` (the template cache's entry
 * holds while it stays absent).
 */
export function resolveInclude(
  file: string,
  from: string,
  appDir: string,
  packageDir: string,
  absent?: string[],
): string {
  const name = file.trim();
  const withExtension = (path: string) => (extname(path) === "" ? `${path}.pug` : path);
  if (!name.startsWith("/")) return withExtension(join(dirname(from.trim()), name));
  const inApp = withExtension(join(appDir, name));
  if (existsSync(inApp)) return inApp;
  const inPackage = withExtension(join(packageDir, name));
  if (!existsSync(inPackage)) return inApp;
  absent?.push(inApp);
  return inPackage;
}

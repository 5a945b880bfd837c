import { generatedClass, generatedText } from "./workloads.js";

/** One generated route: its class, method, path (no trailing slash) and answer. */
export interface GeneratedRoute {
  readonly className: string;
  readonly method: string;
  readonly path: string;
  readonly text: string;
}

/**
 * The routes of an N-route app, in registration order: `N/10` classes `R00000...` of ten methods
 * `m0..m9` each (the last class holds the remainder), every method answering a constant text.
 */
export function generatedRoutes(routes: number): GeneratedRoute[] {
  const out: GeneratedRoute[] = [];
  for (let i = 0; out.length < routes; i++) {
    const className = generatedClass(i);
    for (let j = 0; j < 10 && out.length < routes; j++) {
      const method = `m${j}`;
      out.push({
        className,
        method,
        path: `/${className.toLowerCase()}/${method}`,
        text: generatedText(className, method),
      });
    }
  }
  return out;
}

/**
 * View classes for an N-route app, built at run time as real classes extending `base` (the
 * framework's view base class), so the kernel reads them exactly as it reads written ones.
 */
export function generatedViewModule(
  base: abstract new (...args: never[]) => unknown,
  routes: number,
): { name: string; exports: Record<string, unknown> } {
  const byClass = new Map<string, GeneratedRoute[]>();
  for (const route of generatedRoutes(routes)) {
    const list = byClass.get(route.className) ?? [];
    list.push(route);
    byClass.set(route.className, list);
  }
  const source = [...byClass]
    .map(([name, methods]) => {
      const body = methods.map((m) => `  ${m.method}() { return ${JSON.stringify(m.text)}; }`).join("\n");
      return `exports.${name} = class ${name} extends Base {\n${body}\n};`;
    })
    .join("\n");
  const exports: Record<string, unknown> = {};
  // The source is made here from fixed names; nothing outside this file goes into it.
  new Function("Base", "exports", source)(base, exports);
  return { name: "generated", exports };
}

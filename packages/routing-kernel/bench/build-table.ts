// Benchmark: builds the route table of 1,000 view classes of 10 methods each (10,000 routes)
// several times and prints the median. Not a timed test: run it with `pnpm bench` in this package
// (node --conditions=source --import tsx bench/build-table.ts [classes] [runs]).
//
// Classes are generated with real method sources (the kernel parses them) and decorated the way
// the TC39 runtime does it, through `context.metadata`. "cold" builds fresh classes every run (the
// parameter cache is empty); "warm" rebuilds the same classes (parameters already parsed).
import { performance } from "node:perf_hooks";
import { buildRouteTable, defineConventions, restrictVerbs, routePath, setTag, type ViewModule } from "../src/index.js";
import { METADATA } from "../src/plugin-api.js";
import { RESPONSE_KIND_TAG } from "../src/index.js";

class View {}
const conventions = defineConventions({ baseClass: View, trailingSlash: true });
const post = restrictVerbs("post", ["POST"]);
const json = setTag("json", RESPONSE_KIND_TAG, "json");

/** The 10 methods of every generated class: special names, parameters, optional segments. */
const METHODS: ReadonlyArray<readonly [name: string, params: string]> = [
  ["index", ""],
  ["get", "id"],
  ["post", ""],
  ["update", "id"],
  ["delete", "id"],
  ["edit", "id"],
  ["list", 'page = "1"'],
  ["search", 'q, page = "1"'],
  ["helloWorld", ""],
  ["importBatch", "batch"],
];

type Decorator = (value: unknown, context: ClassMethodDecoratorContext) => void;

function makeModule(index: number, count: number): ViewModule {
  const exports: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const name = `Resource${index}x${i}`;
    const body = METHODS.map(([m, params]) => `${m}(${params}) { return ${JSON.stringify(m)}; }`).join("\n");
    const cls = new Function("View", `return class ${name} extends View {\n${body}\n}`)(View) as typeof View;
    const metadata: DecoratorMetadataObject = Object.create(null);
    const decorate = (method: string, decorators: Decorator[]) => {
      for (const decorator of decorators) {
        decorator((cls.prototype as unknown as Record<string, unknown>)[method], {
          kind: "method",
          name: method,
          static: false,
          private: false,
          metadata,
          addInitializer() {},
          access: { has: () => true, get: () => undefined },
        } as unknown as ClassMethodDecoratorContext);
      }
    };
    decorate("importBatch", [post, routePath("route", "/import/:batch") as Decorator]);
    decorate("search", [json]);
    Object.defineProperty(cls, METADATA, { value: metadata });
    exports[name] = cls;
  }
  return { name: `views/m${index}`, exports };
}

function makeModules(classes: number, run: number): ViewModule[] {
  // 10 classes per module, as an app would split them.
  const modules: ViewModule[] = [];
  for (let m = 0; m < classes / 10; m++) modules.push(makeModule(run * 100_000 + m, 10));
  return modules;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const classes = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 7);
const cold: number[] = [];
const warm: number[] = [];
let routes = 0;
let entries = 0;
// One untimed warm-up so the JIT and acorn are loaded.
buildRouteTable({ conventions, modules: makeModules(classes, runs + 1) });
for (let run = 0; run < runs; run++) {
  const modules = makeModules(classes, run);
  let start = performance.now();
  const table = buildRouteTable({ conventions, modules });
  cold.push(performance.now() - start);
  start = performance.now();
  buildRouteTable({ conventions, modules });
  warm.push(performance.now() - start);
  routes = table.routes.length;
  entries = table.entries.length;
}
const fmt = (values: number[]) =>
  `median ${median(values).toFixed(1)} ms (min ${Math.min(...values).toFixed(1)}, max ${Math.max(...values).toFixed(1)})`;
console.log(
  `routing-kernel build-table: ${classes} classes x ${METHODS.length} methods = ${routes} routes, ${entries} patterns; ${runs} runs, node ${process.version}`,
);
console.log(`  cold (fresh classes, parameters parsed): ${fmt(cold)}`);
console.log(`  warm (same classes, parameters cached):  ${fmt(warm)}`);

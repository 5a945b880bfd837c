// TypeScript for the test runner (run-tests.mjs imports this into every test process): Node's
// synchronous, in-thread module hooks (module.registerHooks) with esbuild's transformSync and a
// cache on disk keyed by the file's path and contents. Loading the kit's sources this way costs
// about what loading its built dist/ does; a loader on a hooks thread (tsx) paid about 0.3 s more
// per test file, and the suite starts several hundred of them. Standard decorators are lowered by
// esbuild, as Node has none yet. Child processes that tests spawn keep `--import tsx`.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import * as nodeModule from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

if (typeof nodeModule.registerHooks !== "function") {
  throw new Error(`run-tests needs Node 22.15 or later (module.registerHooks); this is ${process.version}.`);
}
const esbuild = nodeModule.createRequire(import.meta.url)("esbuild");
const TRANSFORM = Object.freeze({ loader: "ts", format: "esm", target: "node22", sourcemap: "inline" });
const cacheDir = join(tmpdir(), `fwkit-ts-${esbuild.version}`);
mkdirSync(cacheDir, { recursive: true });
process.setSourceMapsEnabled(true);

/** The JavaScript of a TypeScript file, from the cache when its contents were seen before. */
function compiled(path) {
  const source = readFileSync(path, "utf8");
  const key = createHash("sha1").update(path).update("\0").update(source).digest("hex");
  const cached = join(cacheDir, `${key}.js`);
  if (existsSync(cached)) return readFileSync(cached, "utf8");
  const { code } = esbuild.transformSync(source, { ...TRANSFORM, sourcefile: path });
  // Written aside then renamed, so a test process running beside this one never reads half a file.
  const partial = `${cached}.${process.pid}`;
  writeFileSync(partial, code);
  renameSync(partial, cached);
  return code;
}

nodeModule.registerHooks({
  // Sources import each other as `./x.js` (what tsc emits); the file on disk is `./x.ts`.
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const relative = specifier.startsWith(".") || specifier.startsWith("file:") || specifier.startsWith("/");
      if (!relative || !specifier.endsWith(".js")) throw error;
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
  load(url, context, nextLoad) {
    if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
    return { format: "module", source: compiled(fileURLToPath(url)), shortCircuit: true };
  },
});

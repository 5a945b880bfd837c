#!/usr/bin/env node
// The fw-a command line (built: run `tsc -p tsconfig.build.json` in packages/fw-a first).
// Node's compile cache: the V8 code of every module loaded after this line is kept on disk (in this
// package's node_modules/.cache, owned by whoever installed it rather than a temp folder other
// users can write to, or in the folder NODE_COMPILE_CACHE names), so the next `start` of the same build
// does not compile fw-a, its batteries and the app again (about a tenth of a start's CPU time).
// The workers `start --workers N` forks inherit the folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
import { enableCompileCache } from "node:module";
import { fileURLToPath } from "node:url";

const cache = enableCompileCache(
  process.env.NODE_COMPILE_CACHE || fileURLToPath(new URL("../node_modules/.cache/node-compile", import.meta.url)),
);
if (cache.directory && !process.env.NODE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = cache.directory;
await import("../dist/cli/main.js");

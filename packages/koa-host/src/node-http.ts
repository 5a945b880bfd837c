/**
 * `node:http` as CommonJS loads it. An ES module's `import { createServer } from "node:http"` makes
 * the module's ES facade, which reads every export once, and three of them (`WebSocket`,
 * `CloseEvent`, `MessageEvent`) are getters that load Node's bundled undici: about 30 ms of a
 * start that serves no WebSocket client and makes no `fetch`. Type-only imports of `node:http`
 * are erased and cost nothing.
 */
export const nodeHttp: typeof import("node:http") = process.getBuiltinModule("node:http");

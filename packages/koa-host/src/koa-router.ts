import { createRequire } from "node:module";
import type KoaRouter from "@koa/router";

/**
 * @koa/router's class, from its CommonJS build: its ES build imports `node:http`, whose ES facade
 * loads Node's bundled undici at start-up (see node-http.ts), where its CommonJS build's
 * `require("http")` does not. The two builds are the same router.
 */
export const Router: typeof KoaRouter = createRequire(import.meta.url)("@koa/router");

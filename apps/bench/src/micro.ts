// In-process request cost without the network: real IncomingMessage/ServerResponse objects handed to
// each app's request callback, in blocks that alternate between the apps, CPU time per request per
// app. On a busy shared machine this isolates what the framework itself costs per request.
//   node dist/micro.js [requests per block = 300] [blocks = 300]
// (`pnpm --filter bench run micro` builds nothing; build first.) Heap grows during a run because the
// response objects have no socket to flush to; every app pays the same for it.
import { fileURLToPath } from "node:url";
import { createApp as createA } from "fw-a";
import { createApp as createB } from "fw-b";
import Koa from "koa";
import nunjucks from "nunjucks";
import pug from "pug";
import * as viewsA from "./servers/fw-a-views.js";
import * as viewsB from "./servers/fw-b-views.js";
import { benchConfig } from "./servers/framework.js";
import { SITE_ROOT } from "./servers/types.js";
import { JSON_BODY, PAGE_DATA, TEXT_BODY } from "./workloads.js";
import { runPaired, type Callback, type Variant } from "./micro-harness.js";

const bare = new Koa();
bare.use((ctx) => {
  if (ctx.path === "/text") {
    ctx.type = "text/plain; charset=utf-8";
    ctx.body = TEXT_BODY;
  } else if (ctx.path === "/api/data") {
    ctx.type = "application/json; charset=utf-8";
    ctx.body = JSON.stringify(JSON_BODY);
  }
});
const root = fileURLToPath(SITE_ROOT);
// The template pages written by hand, as the hand-written Koa server renders them (same files and options).
const templates = `${root}/templates/`;
const njkPage = new nunjucks.Environment(new nunjucks.FileSystemLoader(templates, { noCache: false, watch: false }), {
  autoescape: true,
  throwOnUndefined: false,
  trimBlocks: true,
  lstripBlocks: true,
}).getTemplate("main/Index/page.html", true);
const pugPage = pug.compileFile(`${templates}main/Index/pugPage.pug`, {
  basedir: templates,
  doctype: "html",
  compileDebug: false,
});
const pages = new Koa();
pages.use((ctx) => {
  ctx.type = "text/html; charset=utf-8";
  ctx.body = ctx.path === "/page" ? njkPage.render({ ...PAGE_DATA }) : pugPage({ ...PAGE_DATA });
});
const a = await createA({
  root,
  modules: [{ name: "main", exports: { Index: viewsA.Index, Items: viewsA.Items, Api: viewsA.Api } }],
  config: benchConfig("basic"),
  plugins: [],
});
const b = await createB({
  root,
  modules: [{ name: "main", exports: { Index: viewsB.Index, Items: viewsB.Items, Api: viewsB.Api } }],
  config: benchConfig("basic"),
  plugins: [],
});
const asCallback = (fn: unknown) => fn as Callback;

/** Each variant: its callback, URL, and the bare-Koa variant it is compared with. */
const variants: Record<string, Variant> = {
  "bare Koa text": { callback: asCallback(bare.callback()), url: "/text", reference: "bare Koa text" },
  "bare Koa JSON": { callback: asCallback(bare.callback()), url: "/api/data", reference: "bare Koa JSON" },
  "fw-a text": { callback: asCallback(a.callback()), url: "/text/", reference: "bare Koa text" },
  "fw-a JSON": { callback: asCallback(a.callback()), url: "/api/data/", reference: "bare Koa JSON" },
  "fw-a params": { callback: asCallback(a.callback()), url: "/items/pair/42/7/", reference: "bare Koa text" },
  "fw-b text": { callback: asCallback(b.callback()), url: "/text", reference: "bare Koa text" },
  "fw-b JSON": { callback: asCallback(b.callback()), url: "/api/data", reference: "bare Koa JSON" },
  "fw-b params": { callback: asCallback(b.callback()), url: "/items/pair/42/7", reference: "bare Koa text" },
  "Koa Nunjucks page": { callback: asCallback(pages.callback()), url: "/page", reference: "Koa Nunjucks page" },
  "fw-a Nunjucks page": { callback: asCallback(a.callback()), url: "/page/", reference: "Koa Nunjucks page" },
  "Koa Pug page": { callback: asCallback(pages.callback()), url: "/pug-page", reference: "Koa Pug page" },
  "fw-b Pug page": { callback: asCallback(b.callback()), url: "/pug-page", reference: "Koa Pug page" },
};

for (const line of await runPaired(variants, Number(process.argv[2] ?? 300), Number(process.argv[3] ?? 300)))
  console.log(line);
process.exit(0);

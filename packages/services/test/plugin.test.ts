// The services plugin inside a real koa-host app, over HTTP on 127.0.0.1.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Context } from "koa";
import type { Host } from "@fwkit/koa-host";
import { createHost, HostView, type Responder } from "@fwkit/koa-host/plugin";
import { defineConventions } from "routing-kernel";
import { startSmtp, type SmtpServer } from "@fwkit/test-servers";
import { cacheResponse } from "../src/cache/decorator.js";
import { servicesPlugin, type Services, type ServicesPlugin } from "../src/plugin.js";
import { SignalRegistry } from "../src/signals/signal.js";
import type { FileStoredPayload, MailSentPayload, RequestFinishedPayload } from "../src/signals/names.js";
import { rawGet } from "./helpers.js";

const CSS = "h1 { color: teal; }\n";
const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 10);
let runs = 0;

const services = (ctx: Context) => ctx.state["services"] as Services;

class Index extends HostView {
  @cacheResponse(30)
  cached() {
    runs++;
    return `run ${runs}`;
  }
  /** The responder below renders `{ asset }` with the template helper. */
  page() {
    return { asset: "css/app.css" };
  }
  async post() {
    const files = (this.ctx.request as unknown as { files?: Record<string, unknown> }).files;
    const file = files?.["upload"] as { filepath: string; originalFilename: string; mimetype: string };
    const stored = await services(this.ctx).storage.storeUpload(file, { prefix: "forms" });
    return stored.key;
  }
  async mail() {
    const info = await services(this.ctx).mailer.sendMail({
      to: "ann@example.test",
      template: "hello",
      context: { who: "Ann" },
    });
    return info.messageId;
  }
}

/** A minimal framework: strings are bodies, `{ asset }` uses the `static` template helper. */
function responder(setup: { locals: (ctx: Context) => Record<string, unknown> }): Responder {
  return {
    prepare: () => (ctx, result) => {
      if (result && typeof result === "object" && "asset" in result) {
        const helper = setup.locals(ctx)["static"] as (path: string) => string;
        ctx.body = `<link href="${helper(String(result.asset))}">`;
      } else ctx.body = result;
    },
    renderError: (ctx, info) => {
      ctx.status = info.status;
      ctx.body = { error: info.message };
    },
    describe: () => "text",
  };
}

describe("servicesPlugin in a koa-host app", () => {
  let root: string;
  let host: Host;
  let plugin: ServicesPlugin;
  let base: string;
  let smtp: SmtpServer;
  const signals = new SignalRegistry({ error: () => {}, warn: () => {} });
  const finished: RequestFinishedPayload[] = [];
  const stored: FileStoredPayload[] = [];
  const mails: MailSentPayload[] = [];
  signals.get<RequestFinishedPayload>("request.finished").connect((p) => void finished.push(p));
  signals.get<FileStoredPayload>("file.stored").connect((p) => void stored.push(p));
  signals.get<MailSentPayload>("mail.sent").connect((p) => void mails.push(p));

  before(async () => {
    smtp = await startSmtp();
    root = await mkdtemp(join(tmpdir(), "services-plugin-"));
    await mkdir(join(root, "static/css"), { recursive: true });
    await mkdir(join(root, "assets"), { recursive: true });
    await writeFile(join(root, "static/css/app.css"), CSS);
    await writeFile(join(root, "assets/main.ts"), "console.log('bundled-main');\n");
    plugin = servicesPlugin({
      signals,
      mailRenderer: () => (template, context) =>
        ({
          "mail/hello.subject.txt": `Hello ${String(context["who"])}`,
          "mail/hello.txt": `Hi ${String(context["who"])}`,
        })[template],
    });
    host = await createHost({
      root,
      conventions: defineConventions({ baseClass: HostView, trailingSlash: false, reservedNames: ["ctx"] }),
      responder,
      modules: [{ name: "main", exports: { Index } }],
      config: {
        logRequests: false,
        logLevel: "silent",
        mailUrl: smtp.url,
        mailFrom: "app@example.test",
        storage: { maxBytes: 1024, allowedTypes: ["text/plain"] },
        assets: { bundles: { "main.js": ["assets/main.ts"] } },
      },
      plugins: [plugin],
    });
    const server = await host.listen(0, "127.0.0.1");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await host.close();
    await smtp.close();
    await rm(root, { recursive: true, force: true });
  });

  test("a route tagged cacheResponse is served from the cache", async () => {
    const first = await (await fetch(`${base}/cached`)).text();
    const second = await fetch(`${base}/cached`);
    assert.equal(await second.text(), first);
    assert.equal(second.headers.get("x-cache"), "HIT");
    assert.equal(runs, 1);
  });

  test("templates get static(path) with the hashed URL, and the hashed file is served immutable", async () => {
    const html = await (await fetch(`${base}/page`)).text();
    const url = `/static/css/app.${hash(CSS)}.css`;
    assert.equal(html, `<link href="${url}">`);
    const css = await fetch(base + url);
    assert.equal(await css.text(), CSS);
    assert.equal(css.headers.get("cache-control"), "public, max-age=31536000, immutable");
    const bundle = await fetch(base + plugin.services.assets.assetUrl("main.js"));
    assert.match(await bundle.text(), /bundled-main/);
    assert.ok(existsSync(join(root, "build/assets/main.js")));
  });

  test("traversal under /static and /uploads gets 4xx, never 500", async () => {
    for (const path of [
      "/static/%2e%2e/%2e%2e/etc/passwd",
      "/static/..%2f..%2fpackage.json",
      "/uploads/%2e%2e/x",
      "/uploads/a%00b",
    ]) {
      const response = await rawGet(base, path);
      assert.ok(response.status >= 400 && response.status < 500, `${path}: ${response.status}`);
    }
  });

  test("a multipart upload is stored under a generated name within the configured limits", async () => {
    const form = new FormData();
    form.append("upload", new Blob(["hello upload"], { type: "text/plain" }), "../../notes.txt");
    const response = await fetch(base, { method: "POST", body: form });
    const key = await response.text();
    assert.equal(response.status, 200, key);
    assert.match(key, /^forms\/[0-9a-f-]{36}\.txt$/);
    assert.equal(Buffer.from(await plugin.services.storage.getBytes(key)).toString(), "hello upload");
    assert.equal(stored.at(-1)?.originalName, "../../notes.txt");

    const wrongType = new FormData();
    wrongType.append("upload", new Blob(["<html>"], { type: "text/html" }), "x.html");
    assert.equal((await fetch(base, { method: "POST", body: wrongType })).status, 415);
    const tooBig = new FormData();
    tooBig.append("upload", new Blob([Buffer.alloc(2048)], { type: "text/plain" }), "big.txt");
    assert.equal((await fetch(base, { method: "POST", body: tooBig })).status, 413);
  });

  test("the mailer from config sends through SMTP and mail.sent fires", async () => {
    const response = await fetch(`${base}/mail`);
    assert.equal(response.status, 200);
    const mail = await smtp.waitForMail();
    assert.equal(mail.parsed.subject, "Hello Ann");
    assert.equal(mail.parsed.text, "Hi Ann\n");
    assert.equal(mails.at(-1)?.messageId, await response.text());
  });

  test("request.finished carries the status, errors included", async () => {
    finished.length = 0;
    await fetch(`${base}/cached`);
    await fetch(`${base}/no-such-page`);
    assert.deepEqual(
      finished.map((f) => [f.method, f.path, f.status]),
      [
        ["GET", "/cached", 200],
        ["GET", "/no-such-page", 404],
      ],
    );
  });
});

describe("servicesPlugin without a host", () => {
  const quiet = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
  const context = (config: Record<string, unknown>) =>
    ({ config: { env: "test", secretKey: "s", ...config }, logger: quiet, table: undefined }) as never;

  test("services before setup, and a mailer without mailUrl, say what is missing", async () => {
    const plugin = servicesPlugin({ signals: new SignalRegistry(quiet) });
    assert.throws(() => plugin.services, { code: "E_SERVICE_NOT_CONFIGURED", message: /setup/ });
    const root = await mkdtemp(join(tmpdir(), "services-plugin-bare-"));
    try {
      await plugin.setup!(context({ root }));
      await assert.rejects(plugin.services.mailer.sendMail({ to: "a@example.test", template: "x" }), {
        code: "E_SERVICE_NOT_CONFIGURED",
        message: /mailUrl/,
      });
      assert.equal(plugin.services.cache.store.kind, "memory");
      assert.equal(plugin.services.storage.kind, "local");
      await plugin.close!();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  test("a bad service URL stops the start with its code", async () => {
    const root = await mkdtemp(join(tmpdir(), "services-plugin-bad-"));
    try {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ cacheUrl: "memcached://x" }, "E_SERVICE_URL_INVALID"],
        [{ storageUrl: "ftp://x" }, "E_SERVICE_URL_INVALID"],
        [{ mailUrl: "http://x", mailFrom: "a@example.test" }, "E_SERVICE_URL_INVALID"],
        [{ signalsUrl: "redis://127.0.0.1:1", signals: { names: ["a.b"] } }, "E_SERVICE_UNREACHABLE"],
      ];
      for (const [config, code] of cases) {
        const plugin = servicesPlugin({ signals: new SignalRegistry(quiet), mailRenderer: () => () => undefined });
        await assert.rejects(async () => plugin.setup!(context({ root, ...config })), { code }, JSON.stringify(config));
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

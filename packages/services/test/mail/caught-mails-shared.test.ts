// The development mail catcher (mailUrl log:) is shared by the app's processes and kept across
// restarts: a mail a job worker sent shows at the web process's /_mail, and still after a restart.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Host } from "@fwkit/koa-host";
import { createHost, HostView, type Responder } from "@fwkit/koa-host/plugin";
import { defineConventions } from "routing-kernel";
import { servicesPlugin, type ServicesPlugin } from "../../src/plugin.js";
import { CAUGHT_MAILS_KEPT } from "../../src/mail/transports/log.js";

const SENDER = fileURLToPath(new URL("../fixtures/send-caught-mail.ts", import.meta.url));

const responder = (): Responder => ({
  prepare: () => (ctx, result) => {
    ctx.body = result;
  },
  renderError: (ctx, info) => {
    ctx.status = info.status;
    ctx.body = info.message;
  },
  describe: () => "text",
});

async function startApp(
  root: string,
  env = "development",
): Promise<{ host: Host; plugin: ServicesPlugin; base: string }> {
  const plugin = servicesPlugin({ mailRenderer: () => (template) => (template.endsWith(".txt") ? "Hi" : undefined) });
  const host = await createHost({
    root,
    conventions: defineConventions({ baseClass: HostView, trailingSlash: false, reservedNames: ["ctx"] }),
    responder,
    modules: [],
    config: { env, logRequests: false, logLevel: "silent", mailUrl: "log:", mailFrom: "app@example.test" },
    plugins: [plugin],
  });
  const server = await host.listen(0, "127.0.0.1");
  return { host, plugin, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Sends one mail from another node process of the same app folder. */
function sendFromAnotherProcess(root: string, subject: string): void {
  const sent = spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", SENDER, root, subject], {
    encoding: "utf8",
    env: process.env,
  });
  assert.equal(sent.status, 0, `the sending process failed: ${sent.stderr}`);
}

describe("the development mail catcher, shared by the app's processes", () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "caught-mails-"));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test("a mail another process sent shows at /_mail, and still after a restart", async () => {
    const web = await startApp(root);
    try {
      assert.match(await (await fetch(`${web.base}/_mail`)).text(), /No mail caught yet/);
      sendFromAnotherProcess(root, "Sent by the worker");
      const page = await (await fetch(`${web.base}/_mail`)).text();
      assert.match(page, /Sent by the worker/);
      const mail = await (await fetch(`${web.base}/_mail/caught/0`)).text();
      assert.match(mail, /ann@example\.test/);
    } finally {
      await web.host.close();
    }
    const restarted = await startApp(root);
    try {
      assert.match(await (await fetch(`${restarted.base}/_mail`)).text(), /Sent by the worker/);
    } finally {
      await restarted.host.close();
    }
  });

  test(`keeps the newest ${CAUGHT_MAILS_KEPT} mails, newest first, in .fwkit/mail (git-ignored)`, async () => {
    const web = await startApp(root);
    try {
      for (let n = 1; n <= CAUGHT_MAILS_KEPT + 3; n++)
        await web.plugin.services.mailer.sendMail({ to: "bob@example.test", template: "hello", subject: `Mail ${n}` });
      const dir = join(root, ".fwkit", "mail");
      assert.equal(readdirSync(dir).filter((name) => name.endsWith(".json")).length, CAUGHT_MAILS_KEPT);
      assert.ok(existsSync(join(dir, ".gitignore")));
      const page = await (await fetch(`${web.base}/_mail`)).text();
      assert.ok(page.indexOf(`Mail ${CAUGHT_MAILS_KEPT + 3}<`) < page.indexOf(`Mail ${CAUGHT_MAILS_KEPT + 2}<`));
      assert.doesNotMatch(page, /Mail 3</);
      assert.doesNotMatch(page, /Sent by the worker/);
    } finally {
      await web.host.close();
    }
  });

  test("outside development nothing is written to the app folder", async () => {
    const other = await mkdtemp(join(tmpdir(), "caught-mails-test-env-"));
    const app = await startApp(other, "test");
    try {
      await app.plugin.services.mailer.sendMail({ to: "c@example.test", template: "hello", subject: "In tests" });
      assert.equal(existsSync(join(other, ".fwkit")), false);
    } finally {
      await app.host.close();
      await rm(other, { recursive: true, force: true });
    }
  });
});

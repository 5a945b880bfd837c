import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { createHost } from "@fwkit/koa-host/plugin";
import { appServicesOf } from "../src/app-services.js";
import { conventions, responder } from "./production-app/lib/base.js";

declare module "@fwkit/koa-host" {
  interface AppServices {
    readonly greeter: { hello(name: string): string };
  }
}

const root = mkdtempSync(join(tmpdir(), "cli-app-services-"));
after(() => rmSync(root, { recursive: true, force: true }));

const build = (plugins: never[]) =>
  createHost({
    root,
    conventions,
    responder: () => responder,
    modules: [],
    plugins,
    config: { env: "test", logLevel: "silent", logRequests: false },
  });

test("an app command reaches the services plugin's services, typed through AppServices", async () => {
  const services = { greeter: { hello: (name: string) => `hello ${name}` } };
  const host = await build([{ name: "services", services } as never]);
  try {
    assert.equal(appServicesOf(host).greeter.hello("Ann"), "hello Ann");
  } finally {
    await host.close();
  }
});

test("without the services battery, asking for a service says which switch is off", async () => {
  const host = await build([]);
  try {
    assert.throws(() => appServicesOf(host).greeter, { code: "E_COMMAND_OPTION", message: /batteries\.services/ });
  } finally {
    await host.close();
  }
});

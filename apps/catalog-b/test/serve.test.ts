// The catalogue served by the fw-b CLI as a user runs it (`pnpm start`: fw-b :serve --no-reload).
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const appDir = fileURLToPath(new URL("..", import.meta.url));
const workspace = join(appDir, "..", "..");
const bin = join(appDir, "node_modules", "fw-b", "bin", "fw-b.js");

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("catalog-b under fw-b :serve", () => {
  let child: ChildProcess | undefined;
  let output = "";

  before(() => {
    const tsc = join(workspace, "node_modules", "typescript", "bin", "tsc");
    for (const name of ["routing-kernel", "koa-host", "fw-b"]) {
      // folder names under packages/
      const built = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
        cwd: join(workspace, "packages", name),
        encoding: "utf8",
      });
      assert.equal(built.status, 0, `build of ${name} failed:\n${built.stdout}${built.stderr}`);
    }
  });
  after(() => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
  });

  test("serves pages, JSON and XML, then stops on SIGTERM", async () => {
    const port = await freePort();
    child = spawn(process.execPath, [bin, ":serve", "--no-reload", "--port", String(port)], {
      cwd: appDir,
      env: {
        ...process.env,
        NODE_OPTIONS: "",
        APP_ENV: "production",
        SECRET_KEY: crypto.randomUUID(),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // Only ends a hang: the production start takes many times longer on a busy machine.
    const deadline = Date.now() + 180_000;
    while (!output.includes("Serving") && Date.now() < deadline && child.exitCode === null)
      await new Promise((r) => setTimeout(r, 100));
    assert.match(output, /Serving catalog-b on http:\/\/127\.0\.0\.1:\d+ \(APP_ENV=production\)/);

    const url = `http://127.0.0.1:${port}`;
    assert.match(await (await fetch(`${url}/`)).text(), /<h1>Tea Catalogue<\/h1>/);
    assert.equal(((await (await fetch(`${url}/api/products/1`)).json()) as { name: string }).name, "Sencha");
    assert.match(await (await fetch(`${url}/feed`)).text(), /^<\?xml version="1.0" encoding="UTF-8"\?>\n<response>/);

    const exited = new Promise<number | null>((resolve) => child!.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    assert.equal(await exited, 0, output);
  });
});

// For the tests of the realtime battery behind the generated balancers: an app on koa-host with
// only the realtime battery (its realtime.path read from its config file, as the deploy command
// reads it), a self-signed certificate for localhost, and HAProxy and nginx run from the generated
// files with TLS (HTTP/2 offered by ALPN) and plain HTTP served side by side.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import type { Host } from "@fwkit/koa-host";
import { createHost, currentUserSlot, HostView } from "@fwkit/koa-host/plugin";
import { realtimePlugin } from "@fwkit/realtime";
import type { Context, Middleware } from "koa";
import { defineConventions } from "routing-kernel";
import {
  appDeployPaths,
  deployTarget,
  haproxyConfig,
  nginxConfig,
  type DeployTarget,
} from "../src/production/deploy/index.js";
import { eventually, freePort } from "./production-support.js";

class View extends HostView {}
const conventions = defineConventions({ baseClass: View, trailingSlash: false });
// Refusals answered as JSON with their code, as the frameworks answer a client that asks for JSON.
const responder = () => ({
  prepare: () => () => {},
  renderError: (ctx: Context, info: { message: string; error: unknown }) => {
    ctx.body = { code: (info.error as { code?: string }).code, message: info.message };
  },
  describe: () => "text",
});
const quiet: Record<string, unknown> = { level: "error", trace() {}, debug() {}, info() {}, warn() {} };
quiet["error"] = quiet["fatal"] = (fields: unknown, message?: string) => console.error(fields, message);
quiet["child"] = () => quiet;

/**
 * The user a request is logged in as: the `user` cookie, standing in for the security battery's
 * cookie session (the handshake's cookie has to cross the balancer to be read).
 */
const userFromCookie: Middleware = async (ctx: Context, next) => {
  const id = ctx.cookies.get("user");
  if (id) currentUserSlot.set(ctx, { id: Number(id) });
  await next();
};

/** The realtime app behind the balancers, and the deploy target its folder gives. */
export interface RealtimeApp {
  readonly host: Host;
  readonly port: number;
  readonly target: DeployTarget;
  close(): Promise<void>;
}

/**
 * Writes `lib/config.ts` with `path` as the realtime path into `dir`, reads it back as the deploy
 * command does, and starts an app serving `realtime` on that path behind a trusted proxy.
 */
export async function startRealtimeApp(
  dir: string,
  path: string,
  realtime: Record<string, unknown>,
): Promise<RealtimeApp> {
  mkdirSync(join(dir, "lib"), { recursive: true });
  writeFileSync(join(dir, "lib", "config.ts"), `export const config = { realtime: { path: "${path}" } };\n`);
  const target = deployTarget(dir, "fixture", {
    name: "live-shop",
    hosts: ["localhost", "127.0.0.1"],
    ...(await appDeployPaths(dir)),
  });
  const host = await createHost({
    root: dir,
    conventions,
    responder,
    modules: [],
    plugins: [{ name: "user", phases: { request: () => [userFromCookie] } }, realtimePlugin()],
    logger: quiet as never,
    // One balancer in front: the handshake's origin is checked against what it forwards.
    config: { env: "test", logRequests: false, trustProxy: 1, realtime: { ...realtime, path: target.realtimePath } },
  });
  const server = await host.listen(0, "127.0.0.1");
  const { port } = server.address() as { port: number };
  return { host, port, target, close: () => host.close() };
}

/** A self-signed certificate for localhost in `dir`: its PEM (HAProxy), certificate and key (nginx). */
export function testCertificate(dir: string): { pem: string; certificate: string; key: string } {
  const certificate = join(dir, "site.crt");
  const key = join(dir, "site.key");
  const made = spawnSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2"].concat([
      "-subj",
      "/CN=localhost",
    ]),
    { encoding: "utf8" },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a test certificate: ${made.stderr}`);
  const pem = join(dir, "site.pem");
  writeFileSync(pem, readFileSync(certificate, "utf8") + readFileSync(key, "utf8"));
  return { pem, certificate, key };
}

/** A proxy run from a generated file: its plain and TLS ports, and its log. */
export interface RunningProxy {
  readonly name: string;
  readonly plain: number;
  readonly tls: number;
  readonly child: ChildProcess;
  log(): string;
}

function get(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { Connection: "close" } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
    req.end();
  });
}

function launch(name: string, command: string, args: readonly string[]) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.on(
    "error",
    (error) => (output += `\n${name} could not start (apt-get install -y haproxy nginx): ${error.message}`),
  );
  return { child, output: () => output };
}

async function ready(proxy: RunningProxy): Promise<RunningProxy> {
  await eventually(`${proxy.name} to pass requests to the app`, async () => {
    if (proxy.child.exitCode !== null) throw new Error(`${proxy.name} exited: ${proxy.log()}`);
    // Any answer of the app (it serves no page: 404), not the proxy's 502 or 503.
    const status = await get(proxy.plain, "/");
    return status > 0 && status < 500 ? true : undefined;
  });
  return proxy;
}

/** HAProxy from the generated file, TLS (`alpn h2,http/1.1`) and plain HTTP both served. */
export async function startHaproxy(dir: string, app: RealtimeApp, certs: { pem: string }): Promise<RunningProxy> {
  const [plain, tls] = [await freePort(), await freePort()];
  const file = join(dir, `haproxy-${plain}.cfg`);
  writeFileSync(
    file,
    haproxyConfig(app.target, {
      bind: `127.0.0.1:${plain}`,
      tls: { bind: `127.0.0.1:${tls}`, pem: certs.pem },
      plainHttp: "serve",
      servers: [`127.0.0.1:${app.port}`],
      log: "stderr format raw local0 info",
      checkIntervalSeconds: 1,
    }),
  );
  const { child, output } = launch("haproxy", "haproxy", ["-f", file, "-db"]);
  return ready({ name: "haproxy", plain, tls, child, log: output });
}

/** nginx from the generated file, TLS (`listen ... ssl http2`) and plain HTTP both served. */
export async function startNginx(
  dir: string,
  app: RealtimeApp,
  certs: { certificate: string; key: string },
): Promise<RunningProxy> {
  const [plain, tls] = [await freePort(), await freePort()];
  const prefix = join(dir, `nginx-${plain}`);
  mkdirSync(join(prefix, "logs"), { recursive: true });
  writeFileSync(
    join(prefix, "site.conf"),
    nginxConfig(app.target, {
      listen: `127.0.0.1:${plain}`,
      tls: { listen: `127.0.0.1:${tls}`, ...certs },
      plainHttp: "serve",
      servers: [`127.0.0.1:${app.port}`],
    }),
  );
  writeFileSync(
    join(prefix, "nginx.conf"),
    `daemon off;\nmaster_process off;\npid ${join(prefix, "nginx.pid")};\nerror_log ${join(prefix, "logs", "error.log")};\nevents {}\nhttp {\n  access_log off;\n  include ${join(prefix, "site.conf")};\n}\n`,
  );
  const { child } = launch("nginx", "nginx", ["-p", prefix, "-c", join(prefix, "nginx.conf")]);
  return ready({
    name: "nginx",
    plain,
    tls,
    child,
    log: () => readFileSync(join(prefix, "logs", "error.log"), "utf8"),
  });
}

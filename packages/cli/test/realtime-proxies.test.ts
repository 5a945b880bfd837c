// The generated HAProxy and nginx configs, run by Debian's haproxy and nginx, in front of an app
// that streams on a realtime.path of its own (read from its config, as the deploy command does):
// a server-sent event reaches the client as it is written (no buffering, although
// the app sends no X-Accel-Buffering header), a stream with the app's 15 s heartbeats stays open
// past the proxies' 30 s and 35 s request timeouts, and a WebSocket handshake on the realtime path
// is passed on (101), carries bytes both ways, and stays open through 40 s of silence.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { appDeployPaths, deployTarget, haproxyConfig, nginxConfig } from "../src/production/deploy/index.js";
import { eventually, freePort, within } from "./production-support.js";

const dir = mkdtempSync(join(tmpdir(), "fw-realtime-proxies-"));
const proxies: ChildProcess[] = [];
/** Each proxy's log, shown when a check fails. */
const proxyLogs = new Map<string, () => string>();
// The app's realtime.path is not the default, and production says another one again: the files
// follow what the app runs with in production.
const REALTIME_PATH = "/live/updates";
mkdirSync(join(dir, "lib"));
writeFileSync(
  join(dir, "lib", "config.ts"),
  `export const config = { realtime: { path: "/dev-updates" }, environments: { production: { realtime: { path: "${REALTIME_PATH}" } } } };\n`,
);
const paths = await appDeployPaths(dir);
const target = deployTarget(dir, "fixture", { name: "live-shop", hosts: ["127.0.0.1"], ...paths });
// The app's default heartbeat; the silence the test waits through is longer than both proxies'
// ordinary request timeouts (HAProxy 30 s client / 35 s server, nginx 35 s).
const HEARTBEAT_MS = 15_000;
const SILENCE_MS = 40_000;
const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

// The app: an event stream on the realtime path (heartbeats, and an event on demand), an echoing
// WebSocket on upgrade, 200 for everything else (the health checks).
const streams = new Set<ServerResponse>();
let app: Server;
let appPort = 0;
before(async () => {
  app = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === REALTIME_PATH) {
      // Deliberately no X-Accel-Buffering: nginx must stream this path by its own config.
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      res.write("event: one\ndata: 1\n\n");
      const heartbeat = setInterval(() => res.write(": heartbeat\n\n"), HEARTBEAT_MS);
      streams.add(res);
      res.on("close", () => {
        clearInterval(heartbeat);
        streams.delete(res);
      });
      return;
    }
    if (url.pathname === "/push") {
      for (const stream of streams) stream.write(`event: two\ndata: ${url.searchParams.get("n")}\n\n`);
      res.end("pushed");
      return;
    }
    res.end("ok");
  });
  app.on("upgrade", (req: IncomingMessage, socket: Socket) => {
    const accept = createHash("sha1").update(`${req.headers["sec-websocket-key"]}${WS_GUID}`).digest("base64");
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    // Bytes are echoed as they come: the proxies pass the upgraded connection on without reading it.
    socket.pipe(socket);
  });
  appPort = await freePort();
  await new Promise<void>((resolve) => app.listen(appPort, "127.0.0.1", resolve));
});

after(() => {
  for (const proxy of proxies) proxy.kill("SIGKILL");
  for (const stream of streams) stream.destroy();
  app?.closeAllConnections();
  app?.close();
  rmSync(dir, { recursive: true, force: true });
});

function launch(command: string, args: readonly string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.on(
    "error",
    (error) => (output += `\n${command} could not start (apt-get install -y haproxy nginx): ${error.message}`),
  );
  proxies.push(child);
  return { child, output: () => output };
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

async function startHaproxy(): Promise<number> {
  const port = await freePort();
  const file = join(dir, `haproxy-${port}.cfg`);
  writeFileSync(
    file,
    haproxyConfig(target, {
      bind: `127.0.0.1:${port}`,
      servers: [`127.0.0.1:${appPort}`],
      tls: false,
      log: "stderr format raw local0 info",
      checkIntervalSeconds: 1,
    }),
  );
  const proxy = launch("haproxy", ["-f", file, "-db"]);
  proxyLogs.set("haproxy", proxy.output);
  await eventually("HAProxy to pass requests to the app", async () => {
    if (proxy.child.exitCode !== null) throw new Error(`haproxy exited: ${proxy.output()}`);
    return (await get(port, "/")) === 200 ? true : undefined;
  });
  return port;
}

async function startNginx(): Promise<number> {
  const port = await freePort();
  const prefix = join(dir, `nginx-${port}`);
  mkdirSync(join(prefix, "logs"), { recursive: true });
  writeFileSync(
    join(prefix, "site.conf"),
    nginxConfig(target, { listen: `127.0.0.1:${port}`, servers: [`127.0.0.1:${appPort}`], tls: false }),
  );
  writeFileSync(
    join(prefix, "nginx.conf"),
    `daemon off;\nmaster_process off;\npid ${join(prefix, "nginx.pid")};\nerror_log ${join(prefix, "logs", "error.log")};\nevents {}\nhttp {\n  access_log off;\n  include ${join(prefix, "site.conf")};\n}\n`,
  );
  const proxy = launch("nginx", ["-p", prefix, "-c", join(prefix, "nginx.conf")]);
  proxyLogs.set("nginx", () => readFileSync(join(prefix, "logs", "error.log"), "utf8"));
  await eventually("nginx to pass requests to the app", async () => {
    if (proxy.child.exitCode !== null) throw new Error(`nginx exited: ${proxy.output()}`);
    return (await get(port, "/")) === 200 ? true : undefined;
  });
  return port;
}

/** An event stream through the proxy; `until(text)` resolves once the text has arrived. */
function openStream(port: number) {
  let text = "";
  let ended = false;
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const waker of [...wakers]) waker();
  };
  const req = request({ host: "127.0.0.1", port, path: `${REALTIME_PATH}?channel=news` }, (res) => {
    assert.equal(res.statusCode, 200);
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      text += chunk;
      wake();
    });
    res.on("close", () => {
      ended = true;
      wake();
    });
  });
  req.on("error", () => {
    ended = true;
    wake();
  });
  req.end();
  return {
    get ended() {
      return ended;
    },
    text: () => text,
    until: (wanted: string, ms: number) =>
      within(
        `"${wanted.trim()}" on the stream`,
        new Promise<void>((resolve, reject) => {
          const check = () => {
            if (text.includes(wanted)) resolve();
            else if (ended) reject(new Error(`the stream ended before "${wanted.trim()}"; it got: ${text}`));
            else return;
            wakers.delete(check);
          };
          wakers.add(check);
          check();
        }),
        ms,
      ),
    close: () => req.destroy(),
  };
}

/** A WebSocket handshake through the proxy; resolves with the upgraded socket. */
function openWebSocket(port: number, path: string): Promise<Socket> {
  return within(
    `a WebSocket handshake on ${path}`,
    new Promise<Socket>((resolve, reject) => {
      const req = request({
        host: "127.0.0.1",
        port,
        path,
        headers: {
          Connection: "Upgrade",
          Upgrade: "websocket",
          "Sec-WebSocket-Key": randomBytes(16).toString("base64"),
          "Sec-WebSocket-Version": "13",
        },
      });
      req.on("upgrade", (res, socket) => {
        assert.equal(res.statusCode, 101);
        resolve(socket);
      });
      req.on("response", (res) => reject(new Error(`no upgrade: the proxy answered ${res.statusCode}`)));
      req.on("error", reject);
      req.end();
    }),
    30_000,
  );
}

/** Writes bytes on the upgraded socket and waits for their echo. */
function echo(socket: Socket, text: string): Promise<void> {
  return within(
    `the echo of "${text}"`,
    new Promise<void>((resolve, reject) => {
      let got = "";
      const onData = (chunk: Buffer) => {
        got += chunk.toString();
        if (got.includes(text)) {
          socket.off("data", onData);
          resolve();
        }
      };
      socket.on("data", onData);
      socket.once("close", () => reject(new Error(`the socket closed before the echo of "${text}"`)));
      socket.write(text);
    }),
    30_000,
  );
}

/** What each proxy must do for the realtime path, in one pass (both proxies run it at once). */
async function streamsThrough(name: string, port: number): Promise<void> {
  const stream = openStream(port);
  // The first event arrives while the response is still open: nothing holds it back.
  await stream.until("event: one", 30_000);
  assert.equal(stream.ended, false, `${name}: the stream is still open`);
  const socket = await openWebSocket(port, REALTIME_PATH);
  const elsewhere = await openWebSocket(port, "/chat");
  await echo(socket, `hello through ${name}`);
  await echo(elsewhere, `hello elsewhere through ${name}`);
  elsewhere.destroy();
  // Silence on the socket, heartbeats only on the stream, for longer than the request timeouts.
  await new Promise((resolve) => setTimeout(resolve, SILENCE_MS));
  assert.equal(
    stream.ended,
    false,
    `${name}: the stream outlived ${SILENCE_MS / 1000} s on heartbeats; its log:\n${proxyLogs.get(name)?.()}\nthe stream:\n${stream.text()}`,
  );
  assert.match(stream.text(), /: heartbeat/);
  assert.equal(await get(port, `/push?n=${name}`), 200);
  await stream.until(`event: two\ndata: ${name}`, 30_000);
  await echo(socket, `still here through ${name}`);
  socket.destroy();
  stream.close();
}

test("the deploy files name the app's production realtime.path, not the default", () => {
  assert.deepEqual(paths, { metricsPath: "/metrics", realtimePath: REALTIME_PATH });
  const haproxy = haproxyConfig(target, { servers: ["10.0.0.11:5000"] });
  const nginx = nginxConfig(target, { servers: ["10.0.0.11:5000"] });
  assert.match(haproxy, /^ {4}http-request set-timeout server 75s if \{ path \/live\/updates \}$/m);
  assert.match(nginx, /location = \/live\/updates \{[^}]*proxy_buffering off;[^}]*proxy_read_timeout 75s;/);
  for (const text of [haproxy, nginx]) assert.doesNotMatch(text, /_events|dev-updates/);
});

test("the generated HAProxy and nginx configs stream events unbuffered, keep streams open on heartbeats and pass WebSocket upgrades", {
  timeout: 240_000,
}, async () => {
  const [haproxy, nginx] = await Promise.all([startHaproxy(), startNginx()]);
  await Promise.all([streamsThrough("haproxy", haproxy), streamsThrough("nginx", nginx)]);
});

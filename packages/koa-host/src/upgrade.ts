/**
 * HTTP upgrades (WebSocket handshakes) claimed by plugins. A plugin names the paths it takes
 * upgrades on (`upgradePaths()`); the host then runs such a request through the app's whole
 * middleware, like any GET (request id, log line, the session and current user, coded error
 * answers), with a response written onto the upgrading socket. The plugin's middleware at that
 * path takes the socket with `upgradeOf(ctx)` and hands it to its WebSocket server; a refusal
 * before that is an ordinary HTTP answer (403, 503...), after which the socket is closed. Without
 * a claimed path the server gets no `upgrade` listener and Node answers upgrades as plain requests.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { Context } from "koa";
import { nodeHttp } from "./node-http.js";
import { defineSlot } from "./slot.js";

/** The socket of an upgrade request and the bytes read past its headers, for a WebSocket server. */
export interface PendingUpgrade {
  readonly socket: Duplex;
  readonly head: Buffer;
}

/** The server's `upgrade` listener. */
export type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

const pending = defineSlot<PendingUpgrade>("koa-host.upgrade");

/**
 * The upgrade a request asks for when its path was claimed, once: the caller takes the socket
 * over (`ctx.respond = false` first). Undefined for an ordinary request, or when taken already.
 */
export function upgradeOf(ctx: Context): PendingUpgrade | undefined {
  const upgrade = pending.get(ctx.req);
  pending.set(ctx.req, undefined);
  return upgrade;
}

/**
 * The listener for `server.on("upgrade", ...)`, or undefined when no path is claimed. A claimed
 * path runs through `handle` (the app's request handler); another path is answered 404 and closed.
 */
export function upgradeListener(
  paths: readonly string[],
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): UpgradeListener | undefined {
  if (paths.length === 0) return undefined;
  const claimed = new Set(paths);
  return (req, socket, head) => {
    socket.on("error", () => socket.destroy());
    const path = (req.url ?? "/").split("?")[0]!;
    if (!claimed.has(path)) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    pending.set(req, { socket, head });
    // An answer written instead of the upgrade (a refusal) goes onto the socket, which then closes.
    const res = new nodeHttp.ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as never);
    res.on("finish", () => {
      res.detachSocket(socket as never);
      if (pending.get(req)) socket.end();
    });
    handle(req, res);
  };
}

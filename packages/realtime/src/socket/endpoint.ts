/**
 * The WebSocket handshake at the stream's path (`GET /_events` with `Upgrade: websocket`). The
 * host runs it through the app's middleware like any request, so the session has been read and
 * the current user is known when a subscription is authorised. Before the upgrade the handshake is
 * checked like a form post against cross-site requests: its `Origin` must be the app's own (or one
 * of `realtime.allowedOrigins`), else 403 `E_REALTIME_ORIGIN_REFUSED`, logged without payload;
 * then the node's connection cap and a shutdown under way (503). Every refusal is an HTTP answer.
 */
import type { Context, Middleware } from "koa";
import type { WebSocketServer } from "ws";
import { isDraining } from "@fwkit/koa-host/operations";
import { upgradeOf } from "@fwkit/koa-host/plugin";
import { E_REALTIME_FULL, E_REALTIME_ORIGIN_REFUSED, E_REALTIME_SUBSCRIPTION_INVALID } from "../errors.js";
import { SocketConnection, type SocketShared } from "./connection.js";

/** What the handshake endpoint needs from its plugin. */
export interface SocketEndpointState extends SocketShared {
  readonly server: WebSocketServer;
  readonly sockets: Set<SocketConnection>;
  /** Streams and sockets open on this process now (the cap counts both transports). */
  readonly open: () => number;
  /** The path with the app's base path. */
  readonly path: string;
}

/** True when the handshake comes from the app's own pages or an allowed origin. */
function originAllowed(ctx: Context, allowed: readonly string[]): boolean {
  const origin = ctx.get("Origin");
  // Browsers always send Origin on a WebSocket handshake: none is refused too (fails closed).
  if (origin === "") return false;
  // The app's own origin as this request reached it (behind a trusted proxy: as the proxy says).
  // Not ctx.origin: in Koa 3 that is the Origin header itself.
  return origin === `${ctx.protocol}://${ctx.host}` || allowed.includes(origin);
}

/** The handshake's middleware: answers upgrade requests at the path, hands the rest on. */
export function socketEndpoint(state: SocketEndpointState): Middleware {
  const { settings, server, sockets } = state;
  return async (ctx, next) => {
    if (ctx.path !== state.path || ctx.get("Upgrade").toLowerCase() !== "websocket") return next();
    if (ctx.method !== "GET") throw new E_REALTIME_SUBSCRIPTION_INVALID("a WebSocket handshake is a GET");
    if (!originAllowed(ctx, settings.allowedOrigins)) {
      ctx.log?.warn?.(
        { origin: ctx.get("Origin").slice(0, 200) || undefined, code: "E_REALTIME_ORIGIN_REFUSED" },
        "realtime WebSocket handshake refused: not the app's origin",
      );
      throw new E_REALTIME_ORIGIN_REFUSED(ctx.get("Origin") || "(none)");
    }
    if (isDraining()) {
      ctx.set("Retry-After", "1");
      throw new E_REALTIME_FULL("it is shutting down");
    }
    if (state.open() >= settings.maxConnections) {
      ctx.set("Retry-After", "5");
      ctx.log?.warn?.({ max: settings.maxConnections, code: "E_REALTIME_FULL" }, "realtime socket refused: node full");
      throw new E_REALTIME_FULL(`${settings.maxConnections} connections are open`);
    }
    const upgrade = upgradeOf(ctx);
    if (!upgrade) {
      // An upgrade that did not come through the server's upgrade listener (an in-process test client).
      ctx.status = 426;
      ctx.body = { code: "E_REALTIME_SUBSCRIPTION_INVALID", message: "Open the WebSocket on a listening server." };
      return;
    }
    ctx.respond = false;
    await new Promise<void>((resolve) => {
      server.handleUpgrade(ctx.req, upgrade.socket, upgrade.head, (socket) => {
        const connection = new SocketConnection(socket, ctx, state);
        sockets.add(connection);
        // The socket is silent for a while after the handshake: no idle timeout cuts it.
        ctx.req.socket.setTimeout(0);
        ctx.req.socket.setNoDelay(true);
        resolve();
      });
      // A handshake ws refuses (a bad key or version) is answered 400 by ws and the socket closed.
      upgrade.socket.once("close", () => resolve());
    });
  };
}

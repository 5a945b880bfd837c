import type { Server } from "node:http";
import { Server as NetServer } from "node:net";

/**
 * Milliseconds a draining process keeps its idle keep-alive connections open: longer than the 4 s
 * after which the generated nginx config closes its idle connections to the app (docs/deployment.md).
 */
export const IDLE_LINGER_MS = 5000;

/**
 * Stops accepting connections for a drain; resolves once every connection has ended. Node's
 * `http.Server#close()` also closes idle keep-alive connections at once, while a proxy may be
 * sending a request on one at that instant (nginx then answers 502, and rightly does not send a
 * POST again). So only the listening socket closes here: a request that still arrives on an idle
 * connection is answered with `Connection: close` (the request front does so while draining), the
 * proxy closes the others after its own idle timeout, and what is still idle after
 * {@link IDLE_LINGER_MS} (or the grace period, if shorter) is closed then.
 */
export function stopAccepting(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
  const linger = setTimeout(() => server.closeIdleConnections(), Math.min(IDLE_LINGER_MS, graceMs));
  linger.unref();
  void closed.then(() => clearTimeout(linger));
  return closed;
}

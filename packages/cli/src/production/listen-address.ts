/**
 * What the start banner says about the address the app listens on. `start` listens on every
 * network interface (0.0.0.0) unless told otherwise, as a container or a balancer on another
 * machine needs; on a host where the balancer runs beside the app that is more than it needs, so
 * the banner says it, and how to keep the app on this machine.
 */

/** Addresses that listen on every interface. */
const EVERY_INTERFACE: ReadonlySet<string> = new Set(["0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0"]);

/** The banner's words for `host`: every interface (with how to narrow it), or only this address. */
export function listenNote(host: string): string {
  if (EVERY_INTERFACE.has(host))
    return `listening on every network interface (${host}, the default): other machines can reach it; --host 127.0.0.1 or HOST=127.0.0.1 keeps it on this one`;
  return `listening on ${host} only`;
}

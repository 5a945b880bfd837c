import { BlockList, isIP } from "node:net";
import type Koa from "koa";
import type { Context } from "koa";
import { E_PRODUCTION_CONFIG } from "../errors.js";

/**
 * What the app believes of `X-Forwarded-For/Proto/Host` (and an incoming request id): `false`
 * (nothing), a number of proxies in front (that many `X-Forwarded-For` entries, from the right,
 * are believed), or the proxies' addresses and CIDR ranges (the headers are believed only on a
 * connection from one of them, and the client is the first address, from the right, not in the list).
 */
export type TrustProxySetting = false | number | readonly string[];

const FALSE = new Set(["false", "0", "no", "off", ""]);
// `true` believes every X-Forwarded-For entry, and the leftmost one is written by the client.
const EVERY_HOP = new Set(["true", "yes", "on"]);
/** Names usable in an address list, for proxies whose addresses are not known in advance. */
const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  loopback: ["127.0.0.0/8", "::1/128"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
});

const EXPECTED =
  'the number of proxies in front of the app (1 behind one balancer), or their addresses and CIDR ranges ("10.0.0.5, 10.0.1.0/24"; "loopback" and "private" name the usual ranges), or false. ' +
  "true is refused: it believes every X-Forwarded-For entry, and the client writes the leftmost one";

/** Reads `trustProxy` (`TRUST_PROXY` arrives as a string); a wrong value is a start-up error. */
export function trustProxyOf(value: unknown): TrustProxySetting {
  if (value === false || value === 0) return false;
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  if (typeof value === "string") {
    const text = value.trim().toLowerCase();
    if (FALSE.has(text)) return false;
    if (/^[1-9]\d*$/.test(text)) return Number(text);
    if (!EVERY_HOP.has(text)) return addressListOf(value.split(/[\s,]+/).filter(Boolean), value);
  }
  if (Array.isArray(value) && value.length > 0 && value.every((entry) => typeof entry === "string"))
    return addressListOf(value as string[], value);
  throw new E_PRODUCTION_CONFIG("trustProxy", EXPECTED, value);
}

function addressListOf(entries: readonly string[], value: unknown): readonly string[] {
  for (const entry of entries) {
    if (!rangeOf(entry))
      throw new E_PRODUCTION_CONFIG(
        "trustProxy",
        `${EXPECTED} (${JSON.stringify(entry)} is not an address, a CIDR range or a known name)`,
        value,
      );
  }
  return Object.freeze(entries.map((entry) => entry.trim().toLowerCase()));
}

/** An entry as [address, prefix length, family], or undefined when it is not an address or range. */
function rangeOf(entry: string): Array<[string, number, "ipv4" | "ipv6"]> | undefined {
  const text = entry.trim().toLowerCase();
  const named = NAMED_RANGES[text];
  if (named) return named.flatMap((range) => rangeOf(range)!);
  const [address = "", prefix, ...rest] = text.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return undefined;
  const max = family === 4 ? 32 : 128;
  const bits = prefix === undefined ? max : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
  if (!(bits >= 0 && bits <= max)) return undefined;
  return [[address, bits, family === 4 ? "ipv4" : "ipv6"]];
}

/** Koa's own options for a setting: an address list is checked per request instead ({@link installTrustProxy}). */
export function koaProxyOptions(setting: TrustProxySetting): { proxy: boolean; maxIpsCount?: number } {
  return typeof setting === "number" ? { proxy: true, maxIpsCount: setting } : { proxy: false };
}

/** The test "may this connection's peer speak for the client?" of a setting. */
export function peerTrust(setting: TrustProxySetting): (ctx: Context) => boolean {
  if (setting === false) return () => false;
  // A hop count cannot see who is in front: the app must be reachable only through its proxies.
  if (typeof setting === "number") return () => true;
  const list = new BlockList();
  for (const [address, bits, family] of setting.flatMap((entry) => rangeOf(entry)!))
    list.addSubnet(address, bits, family);
  const trusted = (address: string | undefined): boolean => {
    if (!address) return false;
    const plain = address.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 4 ? "ipv4" : "ipv6");
  };
  return Object.assign((ctx: Context) => trusted(ctx.req.socket.remoteAddress), { address: trusted });
}

/**
 * With an address list, replaces Koa's `ips`, `protocol` and `host` on this app's request object:
 * the forwarded headers count only on a connection from a listed proxy, and `X-Forwarded-For` is
 * walked from the right past listed addresses; the first other one is the client (`ctx.ip`).
 * A hop count or `false` is Koa's own behaviour ({@link koaProxyOptions}).
 */
export function installTrustProxy(koa: Koa, setting: TrustProxySetting): void {
  if (!Array.isArray(setting)) return;
  const fromPeer = peerTrust(setting) as ((ctx: Context) => boolean) & { address: (address: string) => boolean };
  const first = (value: string | string[] | undefined): string =>
    String(Array.isArray(value) ? value[0] : (value ?? ""))
      .split(",")[0]!
      .trim();
  Object.defineProperties(koa.request, {
    ips: {
      configurable: true,
      get(this: Koa.Request): string[] {
        if (!fromPeer(this.ctx)) return [];
        const chain = String(this.headers["x-forwarded-for"] ?? "")
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean);
        let index = chain.length - 1;
        while (index > 0 && fromPeer.address(chain[index]!)) index--;
        return chain.slice(Math.max(index, 0));
      },
    },
    protocol: {
      configurable: true,
      get(this: Koa.Request): string {
        if ((this.socket as { encrypted?: boolean }).encrypted) return "https";
        const forwarded = fromPeer(this.ctx) ? first(this.headers["x-forwarded-proto"]).toLowerCase() : "";
        return forwarded === "https" || forwarded === "http" ? forwarded : "http";
      },
    },
    host: {
      configurable: true,
      get(this: Koa.Request): string {
        const forwarded = fromPeer(this.ctx) ? first(this.headers["x-forwarded-host"]) : "";
        if (forwarded) return forwarded;
        const authority = this.req.httpVersionMajor >= 2 ? this.get(":authority") : "";
        return authority || this.get("Host") || "";
      },
    },
  });
}

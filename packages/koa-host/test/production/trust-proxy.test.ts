// trustProxy's forms, each through a real server: a hop count believes that many X-Forwarded-For
// entries from the right (so a client's forged leftmost entries change nothing), an address list
// believes the forwarded headers only from a listed peer, `true` is refused, and the request id
// is believed only from a trusted proxy.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { startHost, TestView } from "../fixtures.js";
import { defaultConfig, loadConfig } from "../../src/config.js";
import { E_PRODUCTION_CONFIG } from "../../src/errors.js";
import { productionSettings } from "../../src/production/settings.js";
import { trustProxyOf } from "../../src/production/trust-proxy.js";

class Where extends TestView {
  index() {
    return JSON.stringify({
      ip: this.ctx.ip,
      ips: this.ctx.ips,
      protocol: this.ctx.protocol,
      host: this.ctx.host,
      id: this.ctx.state["requestId"],
    });
  }
}

type Seen = { ip: string; ips: string[]; protocol: string; host: string; id: string };

async function seenWith(trustProxy: unknown, requests: ReadonlyArray<Record<string, string>>): Promise<Seen[]> {
  const { host, url } = await startHost(
    { Where },
    { config: { env: "test", logRequests: false, trustProxy: trustProxy as string } },
  );
  try {
    const seen: Seen[] = [];
    for (const headers of requests) seen.push((await (await fetch(`${url}/where`, { headers })).json()) as Seen);
    return seen;
  } finally {
    await host.close();
  }
}

// What a client sends through one balancer: forged entries first, then the one the balancer appended.
const forged = (n: number) => ({
  "X-Forwarded-For": `198.51.100.${n}, 10.0.0.2`,
  "X-Forwarded-Proto": "https",
  "X-Forwarded-Host": "shop.example.com",
});

describe("trustProxy forms", () => {
  test('TRUST_PROXY="1" is one proxy: rotating forged X-Forwarded-For entries all give the balancer\'s entry', async () => {
    const config = await loadConfig(new URL("../app", import.meta.url).pathname, { env: "test" }, { TRUST_PROXY: "1" });
    assert.equal(productionSettings(config).trustProxy, 1);
    const seen = await seenWith("1", [1, 2, 3, 4].map(forged));
    assert.deepEqual(new Set(seen.map((s) => s.ip)), new Set(["10.0.0.2"]));
    assert.equal(seen[0]!.protocol, "https");
    assert.equal(seen[0]!.host, "shop.example.com");
  });

  test("a hop count of 2 believes two entries from the right", async () => {
    const [seen] = await seenWith(2, [forged(7)]);
    assert.equal(seen!.ip, "198.51.100.7");
  });

  test("an address list: the peer is listed, X-Forwarded-For is walked from the right past listed proxies", async () => {
    const [both, one] = await seenWith("loopback, 10.0.0.0/8", [
      forged(1),
      { "X-Forwarded-For": "198.51.100.1, 203.0.113.5, 10.0.0.2" },
    ]);
    assert.equal(both!.ip, "198.51.100.1");
    assert.deepEqual([both!.protocol, both!.host], ["https", "shop.example.com"]);
    // 203.0.113.5 is not a listed proxy: it is the client, whatever it claims came before it.
    assert.equal(one!.ip, "203.0.113.5");
  });

  test("an address list given as an array, with the peer listed but not the entry it appended", async () => {
    const [seen] = await seenWith(["127.0.0.1"], [forged(1)]);
    assert.equal(seen!.ip, "10.0.0.2");
  });

  test("an address list whose ranges do not hold the peer: every forwarded header is ignored", async () => {
    const [seen] = await seenWith("10.0.0.0/8, 192.168.1.7", [forged(1)]);
    assert.equal(seen!.ip, "127.0.0.1");
    assert.deepEqual(seen!.ips, []);
    assert.equal(seen!.protocol, "http");
    assert.match(seen!.host, /^127\.0\.0\.1:\d+$/);
  });

  test("off: the forwarded headers are ignored", async () => {
    const [seen] = await seenWith(false, [forged(1)]);
    assert.equal(seen!.ip, "127.0.0.1");
    assert.equal(seen!.protocol, "http");
  });

  test("the values read: numbers, lists (commas or spaces), named ranges, IPv6, off", () => {
    assert.equal(trustProxyOf("3"), 3);
    assert.equal(trustProxyOf(1), 1);
    assert.equal(trustProxyOf("0"), false);
    assert.equal(trustProxyOf("off"), false);
    assert.equal(trustProxyOf(false), false);
    assert.deepEqual(trustProxyOf("10.0.0.5,  10.0.1.0/24 private"), ["10.0.0.5", "10.0.1.0/24", "private"]);
    assert.deepEqual(trustProxyOf(["::1", "fd00::/8"]), ["::1", "fd00::/8"]);
  });

  for (const value of [true, "true", "yes", "on", "10.0.0.0/33", "10.0.0.1/8/9", "proxy.example", [], [1], -2, 1.5]) {
    test(`${JSON.stringify(value)} is refused at start-up, naming trustProxy and the forms`, () => {
      assert.throws(
        () => productionSettings({ ...defaultConfig("/app", "production"), trustProxy: value as string }),
        (error: unknown) =>
          error instanceof E_PRODUCTION_CONFIG &&
          /trustProxy/.test((error as Error).message) &&
          /number of proxies/.test((error as Error).message),
      );
    });
  }

  test("true is refused with the reason", () => {
    assert.throws(() => trustProxyOf(true), /client writes the leftmost/);
  });
});

describe("request ids from proxies", () => {
  test("an incoming X-Request-Id is believed from a trusted proxy only", async () => {
    const headers = { "X-Request-Id": "someone-elses-id" };
    const [untrusted] = await seenWith(false, [headers]);
    assert.notEqual(untrusted!.id, "someone-elses-id");
    const [unlisted] = await seenWith("10.0.0.0/8", [headers]);
    assert.notEqual(unlisted!.id, "someone-elses-id");
    const [listed] = await seenWith("127.0.0.1", [headers]);
    assert.equal(listed!.id, "someone-elses-id");
    const [hops] = await seenWith(1, [headers]);
    assert.equal(hops!.id, "someone-elses-id");
  });
});

import assert from "node:assert/strict";
import type { ConformanceSecurity } from "../adapter.js";
import { Jar } from "../jar.js";
import type { SuiteContext } from "../suite.js";
import { adapterPart, expectStatus } from "../suite.js";

const TITLE = "sessions and CSRF";

/** CSRF on every unsafe verb, per-view exemption, bearer-only exemption, sessions. */
export function securityCases(s: SuiteContext): void {
  const part = adapterPart(s, "security", TITLE);
  if (!part) return;
  const security: ConformanceSecurity = part;
  const { Base, decorators: d } = s.adapter;

  class Guard extends Base {
    token() {
      return security.csrfToken(this);
    }
    @d.post submit() {
      return "submitted";
    }
    @d.put replace() {
      return "replaced";
    }
    // biome-ignore format: esbuild parses a decorator named `delete` only in parentheses
    @(d.delete) remove() {
      return "removed";
    }
    @d.post @security.csrfExempt hook() {
      return "hook";
    }
    @d.post remember(value: string) {
      security.session(this)["remembered"] = value;
      return "kept";
    }
    recall() {
      return String(security.session(this)["remembered"] ?? "nothing");
    }
  }
  const modules = () => [{ name: "conformance/security", exports: { Guard } }];
  const form = (fields: Record<string, string>) => ({
    "content-type": "application/x-www-form-urlencoded",
    body: new URLSearchParams(fields).toString(),
  });

  s.group(
    TITLE,
    modules,
    (t) => {
      t("an unsafe request without a CSRF token is 403", async (c) => {
        expectStatus(await c.send("POST", s.p("/guard/submit")), 403, "POST without token");
        expectStatus(await c.send("PUT", s.p("/guard/replace")), 403, "PUT without token");
        expectStatus(await c.send("DELETE", s.p("/guard/remove")), 403, "DELETE without token");
      });
      t("the session's token passes as a header or a form field", async (c) => {
        const jar = new Jar();
        const token = jar.keep(await c.get(s.p("/guard/token"), { headers: jar.header() })).text;
        assert.ok(token.length >= 16, "a token is issued");
        const header = await c.send("POST", s.p("/guard/submit"), {
          headers: { ...jar.header(), "x-csrf-token": token },
        });
        expectStatus(header, 200, "X-CSRF-Token header");
        const { body, ...type } = form({ _csrf_token: token });
        const field = await c.send("POST", s.p("/guard/submit"), { headers: { ...jar.header(), ...type }, body });
        expectStatus(field, 200, "_csrf_token field");
        expectStatus(
          await c.send("DELETE", s.p("/guard/remove"), { headers: { ...jar.header(), "x-csrf-token": token } }),
          200,
          "DELETE with token",
        );
      });
      t("a tampered token or another session's token is 403", async (c) => {
        const mine = new Jar();
        const token = mine.keep(await c.get(s.p("/guard/token"))).text;
        const tampered = `${token.slice(0, -3)}${token.endsWith("a") ? "bbb" : "aaa"}`;
        expectStatus(
          await c.send("POST", s.p("/guard/submit"), { headers: { ...mine.header(), "x-csrf-token": tampered } }),
          403,
          "tampered",
        );
        const other = new Jar();
        other.keep(await c.get(s.p("/guard/token")));
        expectStatus(
          await c.send("POST", s.p("/guard/submit"), { headers: { ...other.header(), "x-csrf-token": token } }),
          403,
          "another session's token",
        );
      });
      t("an exempt view and a bearer-only request need no token", async (c) => {
        expectStatus(await c.send("POST", s.p("/guard/hook")), 200, "csrfExempt view");
        expectStatus(
          await c.send("POST", s.p("/guard/submit"), { headers: { authorization: "Bearer some.jwt.token" } }),
          200,
          "bearer-only",
        );
      });
      t(
        "CSRF fails closed: an unsafe request that no view answers is checked too (403, 404 with the token)",
        async (c) => {
          expectStatus(await c.send("POST", s.p("/guard/no-such-route")), 403, "POST to an unknown path without token");
          expectStatus(await c.send("PATCH", s.p("/nowhere/at/all")), 403, "PATCH to an unknown path without token");
          const jar = new Jar();
          const token = jar.keep(await c.get(s.p("/guard/token"), { headers: jar.header() })).text;
          expectStatus(
            await c.send("POST", s.p("/guard/no-such-route"), { headers: { ...jar.header(), "x-csrf-token": token } }),
            404,
            "with the token",
          );
        },
      );
      t("a request the dispatcher answers itself keeps its status (405 with Allow), not 403", async (c) => {
        const res = await c.send("POST", s.p("/guard/token"));
        expectStatus(res, 405, "POST to a GET-only view");
      });
      t("the session carries values across requests, per client", async (c) => {
        const jar = new Jar();
        const token = jar.keep(await c.get(s.p("/guard/token"))).text;
        expectStatus(
          jar.keep(
            await c.send("POST", s.p("/guard/remember/blue"), { headers: { ...jar.header(), "x-csrf-token": token } }),
          ),
          200,
          "store",
        );
        assert.equal(jar.keep(await c.get(s.p("/guard/recall"), { headers: jar.header() })).text, "blue");
        assert.equal((await c.get(s.p("/guard/recall"))).text, "nothing", "another client has its own session");
      });
    },
    (m) => security.start(m),
  );
}

import assert from "node:assert/strict";
import type { ConformanceSecurity } from "../adapter.js";
import type { ClientResponse, RequestOptions } from "../client.js";
import type { GroupClient, SuiteContext } from "../suite.js";
import { adapterPart, expectStatus } from "../suite.js";

const TITLE = "errors before the view answer in the route's kind (docs/views.md)";
/** A browser's Accept: the route's kind wins over it. */
const HTML_ACCEPT = "text/html,application/xhtml+xml,*/*;q=0.8";
const LIMITS = { bodyLimits: { json: "1kb", form: "1kb", text: "1kb", fileSize: 1024 } };

/** Asserts a JSON error answer `{ error: { status, message } }` of this status. */
function expectJsonError(response: ClientResponse, status: number, what: string, message?: RegExp): void {
  expectStatus(response, status, what);
  assert.equal(response.type, "application/json", `${what}: content type`);
  const body = response.json() as { error: { status: number; message: string } };
  assert.equal(body.error.status, status, `${what}: error.status`);
  if (message) assert.match(body.error.message, message, `${what}: error.message`);
}

/**
 * Errors raised before the view (body parse and size, CSRF, 405, 404 under a JSON
 * class) answer in the route's kind (JSON for a JSON route, whatever the Accept header), as the
 * view's own errors do; on an HTML route the same error is an HTML page. Served with the security
 * part (CSRF on) and 1 kB body limits.
 */
export function errorsBeforeViewCases(s: SuiteContext): void {
  const part = adapterPart(s, "security", TITLE);
  if (!part) return;
  const security: ConformanceSecurity = part;
  const { Base, decorators: d } = s.adapter;

  @d.json
  class Store extends Base {
    @d.post create() {
      return { created: true };
    }
  }
  class Form extends Base {
    @d.post save() {
      return "saved";
    }
  }

  const send = (c: GroupClient, method: string, path: string, options: RequestOptions = {}) =>
    c.send(method, path, { ...options, headers: { accept: HTML_ACCEPT, ...options.headers } });
  const postJson = (c: GroupClient, path: string, body: string) =>
    send(c, "POST", path, { headers: { "content-type": "application/json" }, body });

  s.group(
    TITLE,
    () => [{ name: "conformance/errors", exports: { Store, Form } }],
    (t) => {
      t("malformed JSON to a JSON route: 400 in JSON naming the problem", async (c) => {
        expectJsonError(await postJson(c, s.p("/store/create"), "{bad"), 400, "malformed JSON", /JSON/);
      });
      t("an oversized body to a JSON route: 413 in JSON", async (c) => {
        expectJsonError(
          await postJson(c, s.p("/store/create"), JSON.stringify({ a: "x".repeat(4096) })),
          413,
          "oversized body",
          /limit/,
        );
      });
      t("a missing CSRF token on a JSON route: 403 in JSON", async (c) => {
        expectJsonError(await postJson(c, s.p("/store/create"), "{}"), 403, "no CSRF token");
      });
      t("a wrong verb on a JSON route: 405 in JSON", async (c) => {
        expectJsonError(await send(c, "DELETE", s.p("/store/create")), 405, "DELETE");
      });
      t("an unknown path under a JSON class: 404 in JSON", async (c) => {
        expectJsonError(await send(c, "GET", s.p("/store/nothing")), 404, "unknown method name");
        expectJsonError(await send(c, "GET", s.p("/store/1/more")), 404, "unknown deeper path");
      });
      t("the same body error on an HTML route is an HTML page", async (c) => {
        const res = await postJson(c, s.p("/form/save"), "{bad");
        expectStatus(res, 400, "malformed JSON to an HTML route");
        assert.equal(res.type, "text/html");
      });
    },
    (modules) => security.start(modules, { config: LIMITS }),
  );
}

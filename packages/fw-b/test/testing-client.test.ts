// The test client of fw-b/testing: the shared cases of @fwkit/test-servers/framework-cases (XML
// answers included), and the example of docs/api.md ("Testing your app").
import assert from "node:assert/strict";
import { test } from "node:test";
import { testClientCases, type TestClientSubject } from "@fwkit/test-servers/framework-cases";
import { FwB, currentUser, type CurrentUser } from "fw-b";
import { loginRequired, renderJson, renderXml } from "fw-b/decorators";
import { testClient } from "fw-b/testing";

testClientCases({
  name: "fw-b",
  trailingSlash: false,
  Base: FwB,
  testClient: testClient as unknown as TestClientSubject["testClient"],
  json: renderJson,
  xml: renderXml,
  loginRequired,
  currentUser: (ctx) => currentUser<{ name: string }>(ctx as never),
});

@renderXml
class Account extends FwB {
  index() {
    return { name: currentUser<{ id: number; name: string }>(this.ctx)?.name ?? "nobody" };
  }
}

test("loginAs signs the user in for the next requests (docs/api.md)", async () => {
  // Your user row (what your login view passes to login()); here a plain object typed as the app's user.
  const ada = { id: 1, name: "Ada" } as CurrentUser;
  const client = await testClient({
    modules: [{ name: "account", exports: { Account } }],
    auth: { loadUser: (id: string) => (id === "1" ? ada : undefined) },
  });
  try {
    assert.equal((await client.get("/account")).xml().find("name")?.text, "nobody");
    await client.loginAs(ada);
    assert.equal((await client.get("/account")).xml().find("name")?.text, "Ada");
  } finally {
    await client.close();
  }
});

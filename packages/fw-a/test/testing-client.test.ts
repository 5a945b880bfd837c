// The test client of fw-a/testing against an fw-a app with the security battery on: the shared
// cases of @fwkit/test-servers/framework-cases.
import { testClientCases, type TestClientSubject } from "@fwkit/test-servers/framework-cases";
import { FwA, response, security } from "fw-a";
import { testClient } from "fw-a/testing";

testClientCases({
  name: "fw-a",
  trailingSlash: true,
  Base: FwA,
  testClient: testClient as unknown as TestClientSubject["testClient"],
  json: response.json,
  loginRequired: security.loginRequired,
  currentUser: (ctx) => security.currentUser<{ name: string }>(ctx as never),
});

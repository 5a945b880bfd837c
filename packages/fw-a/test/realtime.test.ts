// Realtime in an fw-a app: the shared cases of @fwkit/test-servers/framework-cases (SSE from Node on
// real servers, two instances on one Redis, private channels, client.realtime).
import { realtimeCases, type RealtimeSubject } from "@fwkit/test-servers/framework-cases";
import { broadcast, createApp, defineJob, FwA, response, security } from "fw-a";
import { testClient } from "fw-a/testing";

realtimeCases({
  name: "fw-a",
  trailingSlash: true,
  Base: FwA,
  json: response.json,
  createApp: createApp as unknown as RealtimeSubject["createApp"],
  testClient: testClient as unknown as RealtimeSubject["testClient"],
  broadcast,
  login: (ctx, user) => security.login(ctx as never, user as never),
  defineJob: defineJob as unknown as RealtimeSubject["defineJob"],
});

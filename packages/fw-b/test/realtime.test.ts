// Realtime in an fw-b app: the shared cases of @fwkit/test-servers/framework-cases (SSE from Node on
// real servers, two instances on one Redis, private channels, client.realtime).
import { realtimeCases, type RealtimeSubject } from "@fwkit/test-servers/framework-cases";
import { broadcast, createApp, defineJob, FwB, login } from "fw-b";
import { renderJson } from "fw-b/decorators";
import { testClient } from "fw-b/testing";

realtimeCases({
  name: "fw-b",
  trailingSlash: false,
  Base: FwB,
  json: renderJson,
  createApp: createApp as unknown as RealtimeSubject["createApp"],
  testClient: testClient as unknown as RealtimeSubject["testClient"],
  broadcast,
  login: (ctx, user) => login(ctx as never, user as never),
  defineJob: defineJob as unknown as RealtimeSubject["defineJob"],
});

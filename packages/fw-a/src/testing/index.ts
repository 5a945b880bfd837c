/**
 * @module fw-a/testing
 * Test factories for fw-a apps: the test client (`testClient(appFolder)`: in-memory requests,
 * cookies, CSRF, `loginAs`), in-process requests (`inject`), a listening app on 127.0.0.1
 * (`listenForTest`), and the adapter the shared conformance suite runs against.
 */
export {
  inject,
  listenForTest,
  TestClient,
  TestResponse,
  XmlElement,
  type InjectedResponse,
  type TestClientFolderOptions,
  type TestRequestInit,
} from "@fwkit/koa-host/testing";
export { testClient, type AppTestClient, type TestAppOptions } from "./client.js";
export { conformanceAdapter } from "./conformance.js";

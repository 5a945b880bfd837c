/**
 * @module @fwkit/app-kit/testing/app
 * What a framework's `./testing` entry gives an app, the same in fw-a and fw-b: the test client's
 * types, in-process requests (`inject`), a listening app on 127.0.0.1 (`listenForTest`) and the
 * response helpers. Each framework re-exports this whole entry and adds its own `testClient` and
 * conformance adapter.
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
export type { AppTestClient, TestAppOptions } from "./client.js";

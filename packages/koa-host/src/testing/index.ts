/**
 * @module koa-host/testing
 * Test factories shared by the frameworks, the batteries and apps: the test client users' own
 * tests use (fw-a/testing and fw-b/testing wire it to the session battery), in-process requests
 * against a host (no port), and a listening host on 127.0.0.1 for end-to-end tests.
 */
import type { AddressInfo } from "node:net";
import type { InjectOptions, Response } from "light-my-request";
import type { Host } from "../host.js";
import { lightMyRequest } from "./light-my-request.js";

export {
  createTestClient,
  loadTestClient,
  TestClient,
  type LoadTestClientOptions,
  type TestClientOptions,
  type TestClientSession,
  type TestRequestInit,
} from "./client.js";
export { CookieJar } from "./cookie-jar.js";
/** The test client's error codes (docs/errors.md). */
export { E_SERVE_FOR_TEST, E_TEST_CLIENT_LOGIN, E_TEST_RESPONSE_FORMAT, E_XML_INVALID } from "../errors.js";
export { frameworkTestClient, type TestClientFolderOptions, type TestClientFramework } from "./framework-client.js";
export {
  serveForTest,
  type ServedForTest,
  type ServeForTestFramework,
  type ServeForTestOptions,
} from "./serve-for-test.js";
export { TestResponse } from "./test-response.js";
export { parseXml, XmlElement } from "./xml.js";

/** An in-process response: status, headers, body text and a JSON helper. */
export type InjectedResponse = Response;

/** Sends one request through the host's Koa callback without opening a port. */
export async function inject(host: Pick<Host, "callback">, options: InjectOptions | string): Promise<InjectedResponse> {
  return await lightMyRequest()(host.callback() as never, typeof options === "string" ? { url: options } : options);
}

/** Starts the host on 127.0.0.1 on a free port; `close` stops it and its plugins. */
export async function listenForTest(host: Host): Promise<{ url: string; close: () => Promise<void> }> {
  const server = await host.listen(0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => host.close() };
}

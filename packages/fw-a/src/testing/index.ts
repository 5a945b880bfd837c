/**
 * @module fw-a/testing
 * Test factories for fw-a apps: the test client (`testClient(appFolder)`: in-memory requests,
 * cookies, CSRF, `loginAs`), in-process requests (`inject`), a listening app on 127.0.0.1
 * (`listenForTest`), and the adapter the shared conformance suite runs against.
 */
import { frameworkTestClient } from "@fwkit/app-kit/testing";
import type { AppTestClient, TestAppOptions, TestClientFolderOptions } from "@fwkit/app-kit/testing/app";
import { framework } from "../app.js";

// What fw-b/testing gives apps too, written once in the app kit.
export * from "@fwkit/app-kit/testing/app";
export { conformanceAdapter } from "./conformance.js";

const client = frameworkTestClient(framework);

/**
 * A test client for an fw-a app: `await testClient(appFolder)` builds the app of the folder (its
 * `app.ts`) as the CLI does, in the `test` environment; `await testClient({ modules: [views] })`
 * builds one of view modules. Requests go through the app in memory (no port); cookies are kept,
 * the CSRF token is sent on unsafe verbs, `loginAs(user)` logs in through the security battery,
 * `client.jobs` is the app's fake job queue (`dispatched(Job)`, `runAll()`). Call `close()` when done.
 */
export function testClient(source: string | TestAppOptions, options?: TestClientFolderOptions): Promise<AppTestClient> {
  return client(source, options);
}

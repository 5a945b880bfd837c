import {
  frameworkTestClient,
  type AppTestClient,
  type TestAppOptions as KitTestAppOptions,
} from "@fwkit/app-kit/testing";
import type { TestClientFolderOptions } from "@fwkit/koa-host/testing";
import { framework } from "../app.js";

/** The test client: in-memory requests, cookies, CSRF, `loginAs`, and `jobs` (the fake job queue). */
export type { AppTestClient };

/** An app built from view modules instead of a folder (`root` defaults to an empty temporary folder). */
export type TestAppOptions = KitTestAppOptions;

const client = frameworkTestClient(framework);

/**
 * A test client for an fw-b app: `await testClient(appFolder)` builds the app of the folder (its
 * `app.ts`) as the CLI does, in the `test` environment; `await testClient({ modules: [views] })`
 * builds one of view modules. Requests go through the app in memory (no port); cookies are kept,
 * the CSRF token is sent on unsafe verbs, `loginAs(user)` logs in through the security battery,
 * `client.jobs` is the app's fake job queue (`dispatched(Job)`, `runAll()`). Call `close()` when done.
 */
export function testClient(source: string | TestAppOptions, options?: TestClientFolderOptions): Promise<AppTestClient> {
  return client(source, options);
}

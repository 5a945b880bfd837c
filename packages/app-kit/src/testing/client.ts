import { E_JOB_OPTION_INVALID, jobsOf } from "@fwkit/jobs";
import type { FakeQueue } from "@fwkit/jobs/testing";
import {
  frameworkTestClient as hostTestClient,
  type TestClient,
  type TestClientFolderOptions,
} from "@fwkit/koa-host/testing";
import { realtimeFake, type RealtimeFake } from "@fwkit/realtime/testing";
import { csrfToken, login } from "@fwkit/security";
import type { ViewModule } from "routing-kernel";
import type { AppOptions } from "../app-options.js";
import type { Framework } from "../framework.js";
import { mailFake, type MailFake } from "./mail.js";

/** An app built from view modules instead of a folder (`root` defaults to an empty temporary folder). */
export type TestAppOptions = Partial<AppOptions> & { readonly modules: readonly ViewModule[] };

/** The test client of an app of the kit: requests, cookies, `loginAs`, and the jobs battery's fake. */
export interface AppTestClient extends TestClient {
  /**
   * The fake job queue of the app (the jobs battery records dispatches in the test environment):
   * `client.jobs.dispatched(SendWelcome)` lists them, `await client.jobs.runAll()` runs them here.
   */
  readonly jobs: FakeQueue;
  /**
   * The mails the app sent (the test environment's `memory:` transport keeps them, sending none):
   * `client.mail.last("ada@example.test").links`, `client.mail.sent({ subject: /Welcome/ })`.
   */
  readonly mail: MailFake;
  /**
   * The broadcasts the app made (realtime keeps them in the test environment):
   * `client.realtime.last("orders/42")?.data`, `client.realtime.broadcasts("news")`.
   */
  readonly realtime: RealtimeFake;
}

/** Gives the client its `jobs` (the app's fake queue, or a coded error saying why there is none), its `mail` and its `realtime`. */
function withJobs(client: TestClient): AppTestClient {
  Object.defineProperty(client, "jobs", {
    get: () => {
      const fake = jobsOf(client.host)?.fake;
      if (!fake)
        throw new E_JOB_OPTION_INVALID(
          "client.jobs",
          "jobs.fake",
          "true (the test environment's default) with the jobs battery on",
          false,
        );
      return fake;
    },
  });
  Object.defineProperty(client, "mail", { value: mailFake(client) });
  Object.defineProperty(client, "realtime", { value: realtimeFake(client.host) });
  return client as AppTestClient;
}

/**
 * The `testClient(source)` of a framework: `await testClient(appFolder)` builds the app of the
 * folder (its `app.ts`) as the CLI does, in the `test` environment; `await testClient({ modules })`
 * builds one of view modules with the framework's `createApp`. Requests go through the app in
 * memory (no port); cookies are kept, the CSRF token is sent on unsafe verbs, `loginAs(user)` logs
 * in through the security battery; `jobs` is the app's fake job queue, `mail` the mails it sent, `realtime` its broadcasts.
 * Call `close()` when done.
 */
export function frameworkTestClient(
  framework: Framework,
): (source: string | TestAppOptions, options?: TestClientFolderOptions) => Promise<AppTestClient> {
  const built = {
    name: framework.name,
    createApp: (options: AppOptions) => framework.createApp(options),
    session: { csrfToken, login },
  };
  return async (source, options) => withJobs(await hostTestClient<TestAppOptions>(built, source, options));
}

import { frameworkTestClient as hostTestClient, type TestClient, type TestClientFolderOptions } from "@fwkit/koa-host/testing";
import { csrfToken, login } from "@fwkit/security";
import type { ViewModule } from "routing-kernel";
import type { AppOptions } from "../app-options.js";
import type { Framework } from "../framework.js";

/** An app built from view modules instead of a folder (`root` defaults to an empty temporary folder). */
export type TestAppOptions = Partial<AppOptions> & { readonly modules: readonly ViewModule[] };

/**
 * The `testClient(source)` of a framework: `await testClient(appFolder)` builds the app of the
 * folder (its `app.ts`) as the CLI does, in the `test` environment; `await testClient({ modules })`
 * builds one of view modules with the framework's `createApp`. Requests go through the app in
 * memory (no port); cookies are kept, the CSRF token is sent on unsafe verbs, `loginAs(user)` logs
 * in through the security battery. Call `close()` when done.
 */
export function frameworkTestClient(framework: Framework): (source: string | TestAppOptions, options?: TestClientFolderOptions) => Promise<TestClient> {
  const built = { name: framework.name, createApp: (options: AppOptions) => framework.createApp(options), session: { csrfToken, login } };
  return (source, options) => hostTestClient<TestAppOptions>(built, source, options);
}

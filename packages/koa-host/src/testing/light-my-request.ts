import type * as LightMyRequest from "light-my-request";
import { requireDevTool } from "../dev-tools.js";

/** What needs light-my-request, as `E_DEV_TOOL_MISSING` names it. */
const PURPOSE = "test client (fw-a/testing, fw-b/testing)";

let loaded: typeof LightMyRequest.inject | undefined;

/**
 * light-my-request's `inject`, loaded on first use. It is a test-time tool, a devDependency of the
 * app (the scaffold lists it), not a runtime dependency of koa-host: a production install carries
 * no test client. Found from the working directory, then beside koa-host (`E_DEV_TOOL_MISSING`,
 * naming `npm install -D light-my-request`, when neither has it).
 */
export function lightMyRequest(): typeof LightMyRequest.inject {
  loaded ??= requireDevTool<{ inject: typeof LightMyRequest.inject }>("light-my-request", PURPOSE).inject;
  return loaded;
}

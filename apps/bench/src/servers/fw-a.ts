import { conventions, createApp, FwA } from "fw-a";
import type { Scenario } from "../workloads.js";
import { startFramework, measureFrameworkTable, type FrameworkSpec } from "./framework.js";
import * as views from "./fw-a-views.js";
import type { RunningServer } from "./types.js";

/** What the bench knows of this framework (also used by the in-process harness). */
export const spec: FrameworkSpec = {
  name: "fw-a",
  conventions,
  base: FwA,
  createApp: (options) => createApp(options),
  views: { basic: { Index: views.Index, Items: views.Items, Api: views.Api }, security: { Account: views.Account } },
};

/** fw-a with the bench views (paths end with `/`). */
export function start(scenario: Scenario, port: number): Promise<RunningServer> {
  return startFramework(spec, scenario, port);
}

/** Route-table build time of an N-route fw-a app. */
export function measureTable(routes: number): number {
  return measureFrameworkTable(spec, routes);
}

// The suite against koa-host itself (the host under fw-a and fw-b), once per slash policy.
import { runConformance } from "../src/index.js";
import { koaHostAdapter } from "./koa-host-adapter.js";

runConformance(koaHostAdapter(true));
runConformance(koaHostAdapter(false));

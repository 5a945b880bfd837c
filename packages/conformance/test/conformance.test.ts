// The suite against the mini adapter, once per slash policy (fw-a's and fw-b's).
import { runConformance } from "../src/index.js";
import { miniAdapter } from "./mini-adapter.js";

runConformance(miniAdapter(true));
runConformance(miniAdapter(false));

// The shared conformance suite (packages/conformance) against fw-b, through its adapter.
import { runConformance } from "@fwkit/conformance";
import { conformanceAdapter } from "./index.js";

runConformance(conformanceAdapter);

// The shared conformance suite (packages/conformance) against fw-b, through its adapter.
import { runConformance } from "conformance";
import { conformanceAdapter } from "./index.js";

runConformance(conformanceAdapter);

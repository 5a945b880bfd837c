// The shared routing suite (SPEC section 2) against fw-a over real HTTP on 127.0.0.1.
import { runConformance } from "@fwkit/conformance";
import { conformanceAdapter } from "../src/testing/index.js";

runConformance(conformanceAdapter);

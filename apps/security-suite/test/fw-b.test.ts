// The security suite's attacks against a freshly scaffolded fw-b app (contrib auth on) in production mode.
import { runSecuritySuite } from "../src/suite.js";

runSecuritySuite("fw-b");

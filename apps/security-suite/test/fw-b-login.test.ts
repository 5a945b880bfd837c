// The security suite's login cases (rotation, logout, throttles) and mailed-link cases, then the
// store scan, against a freshly scaffolded fw-b app of their own (contrib auth on) in production mode.
import { runLoginSuite } from "../src/suite.js";

runLoginSuite();

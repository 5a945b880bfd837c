// The security suite's session cases (anonymous visitors, password changes, a mailed reset), then the
// store scan, against a freshly scaffolded fw-b app of their own (contrib auth on) in production mode.
import { runSessionSuite } from "../src/suite.js";

runSessionSuite();

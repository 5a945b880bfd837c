// The security suite's refused-input and redirect cases against a freshly scaffolded fw-b app of
// their own (contrib auth on) in production mode.
import { runAttackSuite } from "../src/suite.js";

runAttackSuite("fw-b", "input");

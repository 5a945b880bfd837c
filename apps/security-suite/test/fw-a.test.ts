// The security suite's attacks against a freshly scaffolded fw-a app in production mode.
import { runSecuritySuite } from "../src/suite.js";

runSecuritySuite("fw-a");

// The security suite's attacks against a freshly scaffolded fw-a app in production mode, and its development tools.
import { runAttackSuite, runDevToolSuite } from "../src/suite.js";

runAttackSuite("fw-a");
runDevToolSuite("fw-a");

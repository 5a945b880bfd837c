// The security suite's timing cases (login, lost password) and limit cases, then the store scan,
// against a freshly scaffolded fw-b app of their own (contrib auth on) in production mode.
import { runTimingSuite } from "../src/suite.js";

runTimingSuite();

// The security suite's attacks by request (XSS, CSRF and CORS, probes, cookies, headers, the HAProxy)
// against a freshly scaffolded fw-b app (contrib auth on) in production mode, and its development
// tools. The other cases start apps of their own: fw-b-input, fw-b-sessions, fw-b-login, fw-b-timing.
import { runAttackSuite, runDevToolSuite } from "../src/suite.js";

runAttackSuite("fw-b", "requests");
runDevToolSuite("fw-b");

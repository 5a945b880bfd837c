// The shared conformance suite (packages/conformance) against fw-a over real HTTP on 127.0.0.1, with
// the machine's Redis as the session store of the cases that need one (none with FW_TEST_NO_SERVERS=1).
import { runConformance } from "@fwkit/conformance";
import { noServers, requireServer } from "@fwkit/test-servers";
import { conformanceAdapter as adapter } from "../src/testing/index.js";

runConformance(
  noServers ? adapter : { ...adapter, security: { ...adapter.security, sessionStore: () => requireServer("redis") } },
);

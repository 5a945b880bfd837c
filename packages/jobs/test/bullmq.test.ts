// BullMQ on the machine's Redis runs the same shared cases as the in-process queue.
import { requireServer, serverUrls } from "@fwkit/test-servers";
import { createJobQueue } from "../src/index.js";
import { dropPrefix, uniquePrefix } from "./helpers.js";
import { queueSuite } from "./suite.js";

const prefix = uniquePrefix("suite");
queueSuite(
  "redis:// (BullMQ)",
  async () => {
    await requireServer("redis");
    return createJobQueue({ url: serverUrls.redis, prefix });
  },
  () => dropPrefix(serverUrls.redis, prefix),
);

// The in-process queue (memory:, the development default) runs the shared cases with no Redis.
import { createJobQueue } from "../src/index.js";
import { queueSuite } from "./suite.js";

queueSuite("memory:", () => createJobQueue({ url: "memory:" }));

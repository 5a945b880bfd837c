// The payload types follow the schema: the type checker (tsc over test/) refuses a wrong payload at
// dispatch, for a class and for defineJob. The test itself only runs the fake.
import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { defineJob, Job, type JobContext } from "../src/index.js";
import { createFakeQueue } from "../src/testing.js";

class Resize extends Job<{ width: number }> {
  static override schema = z.object({ width: z.number() });
  handle(payload: { width: number }, _context: JobContext): number {
    return payload.width;
  }
}

const Parse = defineJob({
  name: "parse",
  schema: z.object({ count: z.string().transform(Number) }),
  handle(payload) {
    const count: number = payload.count;
    return count;
  },
});

test("dispatch takes the schema's input, handle gets its output", async () => {
  const jobs = createFakeQueue();
  try {
    await Resize.dispatch({ width: 10 });
    // @ts-expect-error width is a number
    await assert.rejects(Resize.dispatch({ width: "10" }), { code: "E_JOB_PAYLOAD_INVALID" });
    await Parse.dispatch({ count: "3" });
    // @ts-expect-error count is given as a string (the schema makes it a number)
    await assert.rejects(Parse.dispatch({ count: 3 }), { code: "E_JOB_PAYLOAD_INVALID" });
    const [parsed] = jobs.dispatched(Parse);
    const count: number = parsed!.payload.count;
    assert.equal(count, 3);
    assert.equal(jobs.dispatched(Resize)[0]!.payload.width, 10);
  } finally {
    jobs.restore();
  }
});

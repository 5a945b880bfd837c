// context.services: the app's services (its mailer, storage, cache) reach a job typed, on the queues
// and in the test fake; without the services battery a job that asks for them is told why.
import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { createJobQueue, defineJob, type JobContext } from "../src/index.js";
import { createFakeQueue } from "../src/testing.js";

declare module "@fwkit/koa-host" {
  interface AppServices {
    readonly greeter: { hello(name: string): string };
  }
}

const said: string[] = [];
const Hello = defineJob({
  name: "job-services.hello",
  schema: z.object({ name: z.string() }),
  handle({ name }, context: JobContext) {
    // Typed through AppServices: no cast.
    said.push(context.services.greeter.hello(name));
  },
});

const services = { greeter: { hello: (name: string) => `hello ${name}` } };

test("a job reaches the app's services as context.services, on a queue and in the fake", async () => {
  said.length = 0;
  const queue = await createJobQueue({ url: "sync:", jobs: [Hello], locals: { services }, bind: false });
  try {
    await queue.dispatch(Hello, { name: "Ann" });
  } finally {
    await queue.close();
  }
  const fake = createFakeQueue({ locals: { services } });
  await fake.dispatch(Hello, { name: "Bob" });
  await fake.runAll();
  assert.deepEqual(said, ["hello Ann", "hello Bob"]);
});

test("without the services battery, context.services says so instead of a TypeError", async () => {
  const fake = createFakeQueue();
  await fake.dispatch(Hello, { name: "Cy" });
  await assert.rejects(fake.runAll(), (error: Error & { code?: string }) => {
    assert.equal(error.code, "E_JOB_OPTION_INVALID");
    assert.match(error.message, /batteries\.services/);
    return true;
  });
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { TRANSLATE_STATE_KEY } from "@fwkit/koa-host/plugin";
import { z } from "zod";
import { validate, ValidationError } from "../src/validate.js";
import { zodErrorMap } from "../src/zod-locale.js";

const schema = z.object({
  name: z.string().min(2),
  email: z.email(),
  nick: z.string().min(2, "Nick: at least 2 characters"),
});
const body = { name: "x", email: "nope", nick: "y" };

/** A request as a translations plugin leaves it: a translator and the chosen language on ctx.state. */
function request(locale?: string) {
  const state: Record<string, unknown> = locale ? { [TRANSLATE_STATE_KEY]: (key: string) => key, locale } : {};
  return { query: {}, request: { body }, state };
}

async function fieldsOf(ctx: ReturnType<typeof request>): Promise<Record<string, string[]>> {
  const error = await validate(ctx, schema).then(
    () => assert.fail("the input is invalid"),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ValidationError);
  return error.fields;
}

test("zod's messages follow the request's language (fr, es, de); the schema's own message is kept", async () => {
  const fr = await fieldsOf(request("fr"));
  assert.match(fr["name"]![0]!, /^Trop petit/);
  assert.match(fr["email"]![0]!, /adresse e-mail invalide/i);
  assert.deepEqual(fr["nick"], ["Nick: at least 2 characters"]);
  assert.match((await fieldsOf(request("es")))["name"]![0]!, /Demasiado peque/);
  assert.match((await fieldsOf(request("de")))["name"]![0]!, /Zu klein/);
  assert.match((await fieldsOf(request("de-AT")))["name"]![0]!, /Zu klein/, "a region falls back to its language");
});

test("English without a translations plugin, for English and for a language zod does not ship", async () => {
  for (const ctx of [request(), request("en"), request("xx")]) {
    const fields = await fieldsOf(ctx);
    assert.deepEqual(fields["name"], ["Too small: expected string to have >=2 characters"]);
  }
  assert.equal(await zodErrorMap("constructor"), undefined, "only zod's locales, never an object property");
});

test("a valid input is returned typed through the per-request error map", async () => {
  const ctx = {
    query: {},
    request: { body: { name: "Ada", email: "ada@example.com", nick: "ad" } },
    state: request("fr").state,
  };
  assert.deepEqual(await validate(ctx, schema), { name: "Ada", email: "ada@example.com", nick: "ad" });
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { TRANSLATE_STATE_KEY } from "@fwkit/koa-host/plugin";
import { FLASH_SESSION_KEY } from "../src/flash.js";
import { requestText } from "../src/request-text.js";
import { respondToValidationError } from "../src/validation-response.js";
import { ValidationError } from "../src/validate.js";

const FRENCH: Record<string, string> = {
  "form.failed": "Corrigez les champs : {{fields}}.",
  "pagination.next": "Suivant »",
};
const french = (key: string, values?: Record<string, unknown>) =>
  (FRENCH[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(values?.[name] ?? ""));

test("requestText: the request's translation, undefined without a translator or for an unknown key", () => {
  assert.equal(requestText({ state: { [TRANSLATE_STATE_KEY]: french } }, "pagination.next"), "Suivant »");
  assert.equal(requestText({ state: { [TRANSLATE_STATE_KEY]: french } }, "no.such.key"), undefined);
  assert.equal(requestText({ state: {} }, "pagination.next"), undefined);
});

test("a refused HTML form flashes its summary in the request's language", () => {
  const session: Record<string, unknown> = {};
  const ctx = {
    state: { [TRANSLATE_STATE_KEY]: french },
    session,
    get: () => "",
    headers: {},
    request: { body: {}, is: () => false },
    is: () => false,
    accepts: () => "html",
    originalUrl: "/form",
    path: "/form",
    redirect(url: string) {
      (this as { location?: string }).location = url;
    },
  } as unknown as Parameters<typeof respondToValidationError>[0];
  assert.equal(respondToValidationError(ctx, new ValidationError({ email: ["Enter an email address."] })), true);
  const flashed = session[FLASH_SESSION_KEY] as { messages: Array<{ kind: string; message: string }> };
  assert.deepEqual(flashed.messages, [{ kind: "error", message: "Corrigez les champs : email." }]);
});

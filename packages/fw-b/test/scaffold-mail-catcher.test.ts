/**
 * A new app prints its mail in development (mailUrl "log:", the development mail catcher of the
 * services package) so a signup's verification link can be followed without an SMTP server, and
 * keeps production free to use MAIL_URL.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { skeletonFiles } from "../src/cli/scaffold.js";

/** The object given to defineConfig in the generated lib/config.ts (a plain literal). */
function generatedConfig(source: string): { environments: Record<string, Record<string, unknown>> } {
  const literal = /defineConfig\((\{[\s\S]*\})\);/.exec(source)?.[1];
  assert.ok(literal, "lib/config.ts calls defineConfig with an object");
  return new Function(`return (${literal});`)() as { environments: Record<string, Record<string, unknown>> };
}

test("the scaffold's development environment sends mail to the log: catcher with a sender set", () => {
  const config = generatedConfig(skeletonFiles("shop", "/opt/fw-b/")["lib/config.ts"]!);
  assert.equal(config.environments["development"]?.["mailUrl"], "log:");
  assert.match(String(config.environments["development"]?.["mailFrom"]), /^shop <noreply@example\.com>$/);
  assert.equal(config.environments["production"]?.["mailUrl"], undefined, "production takes MAIL_URL");
});

test("the scaffold's test environment keeps mail in memory (client.mail) and has a database of its own", () => {
  const config = generatedConfig(skeletonFiles("shop", "/opt/fw-b/")["lib/config.ts"]!);
  assert.equal(config.environments["test"]?.["mailUrl"], "memory:");
  assert.match(String(config.environments["test"]?.["mailFrom"]), /^shop <noreply@example\.com>$/);
  assert.equal(config.environments["test"]?.["dbUrl"], "sqlite::memory:");
});

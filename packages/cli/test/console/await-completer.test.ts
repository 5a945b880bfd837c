import assert from "node:assert/strict";
import { start } from "node:repl";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { completeAfterAwait } from "../../src/console/await-completer.js";

function complete(line: string): Promise<[string[], string]> {
  const server = start({ input: new PassThrough(), output: new PassThrough(), terminal: false, useGlobal: false });
  server.context["Note"] = { count: () => 0 };
  completeAfterAwait(server);
  return new Promise((resolve, reject) => {
    server.completer(line, (error: Error | null | undefined, result?: [string[], string]) => {
      server.close();
      if (error) reject(error);
      else resolve(result!);
    });
  });
}

// Node 24's own completer answers [[], "await No"]; Node 20 and 22 answer [["Note"], "No"].
test(`what follows await completes (Node ${process.versions.node})`, async () => {
  const [names, typed] = await complete("await No");
  assert.ok(names.includes("Note"), JSON.stringify(names));
  assert.equal(typed, "No");
  const [members, member] = await complete("const n = await Note.co");
  assert.ok(members.includes("Note.count"), JSON.stringify(members));
  assert.equal(member, "Note.co");
});

test("a line without await completes as Node does", async () => {
  const [names, typed] = await complete("No");
  assert.ok(names.includes("Note"), JSON.stringify(names));
  assert.equal(typed, "No");
});

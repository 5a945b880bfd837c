// A test reporter for run-tests.mjs: per test file, the time its top-level tests took (module loading
// left out) and how many passed and failed, one tab-separated line per file, slowest first. CI time
// is spent in a few long files; this says which, on every run.
/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* testFileTimes(source) {
  /** @type {Map<string, { ms: number, pass: number, fail: number }>} */
  const files = new Map();
  for await (const event of source) {
    if ((event.type !== "test:pass" && event.type !== "test:fail") || event.data.nesting !== 0) continue;
    const file = event.data.file ?? "(no file)";
    const entry = files.get(file) ?? { ms: 0, pass: 0, fail: 0 };
    entry.ms += event.data.details?.duration_ms ?? 0;
    entry[event.type === "test:pass" ? "pass" : "fail"] += 1;
    files.set(file, entry);
  }
  const rows = [...files].sort((a, b) => b[1].ms - a[1].ms);
  for (const [file, { ms, pass, fail }] of rows) yield `${(ms / 1000).toFixed(1)}\t${pass}\t${fail}\t${file}\n`;
}

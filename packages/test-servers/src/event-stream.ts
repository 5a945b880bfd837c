/**
 * A server-sent event client for tests, on Node's fetch (what a Node subscriber of a realtime app
 * uses): opens a stream, parses its events as they come, and waits for the ones a test expects.
 */
import assert from "node:assert/strict";

/** One event of the stream (comments such as heartbeats are counted, not listed). */
export interface StreamEvent {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
  /** `data` parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
}

/** An open stream, or a refused one (`status` not 200, `body` its answer). */
export interface EventStreamClient {
  readonly status: number;
  readonly headers: Headers;
  /** The answer's text when the stream was refused. */
  readonly body: string;
  /** The events so far. */
  readonly events: StreamEvent[];
  /** The comment lines so far (`: heartbeat`). */
  readonly comments: string[];
  /** The `retry:` values so far. */
  readonly retries: number[];
  /** True once the server ended the stream (or cut it). */
  readonly ended: boolean;
  /** Resolves once `count` events named `event` (any name when omitted) have come; fails naming what was missing after `timeoutMs`. */
  waitFor(count: number, event?: string, timeoutMs?: number): Promise<StreamEvent[]>;
  /** Resolves once the server ended the stream. */
  waitForEnd(timeoutMs?: number): Promise<void>;
  /** Closes the stream from this side. */
  close(): void;
}

/** Opens `url` as an event stream with `headers` (a `Last-Event-ID`, a session cookie). */
export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { Accept: "text/event-stream", ...headers }, signal: abort.signal });
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  let ended = false;
  let body = "";
  const changed = new Set<() => void>();
  const notify = () => {
    for (const wake of changed) wake();
  };
  if (response.status !== 200 || !response.body) {
    body = await response.text();
    ended = true;
  } else {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let pending = "";
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          pending += value;
          let at = pending.indexOf("\n\n");
          while (at >= 0) {
            const block = pending.slice(0, at);
            pending = pending.slice(at + 2);
            let id: string | undefined;
            let event = "message";
            const data: string[] = [];
            for (const line of block.split("\n")) {
              if (line.startsWith(":")) comments.push(line);
              else if (line.startsWith("id: ")) id = line.slice(4);
              else if (line.startsWith("event: ")) event = line.slice(7);
              else if (line.startsWith("data: ")) data.push(line.slice(6));
              else if (line.startsWith("retry: ")) retries.push(Number(line.slice(7)));
            }
            if (data.length > 0) {
              const text = data.join("\n");
              let json: unknown;
              try {
                json = JSON.parse(text);
              } catch {
                json = undefined;
              }
              events.push({ id, event, data: text, json });
            }
            at = pending.indexOf("\n\n");
          }
          notify();
        }
      } catch {
        // Aborted or cut: the stream is over either way.
      }
      ended = true;
      notify();
    })();
  }
  const until = (what: string, check: () => boolean, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      if (check()) return resolve();
      const timer = setTimeout(() => {
        changed.delete(wake);
        reject(
          new assert.AssertionError({
            message: `timed out waiting for ${what}; got ${JSON.stringify(events.map((e) => e.event))}`,
          }),
        );
      }, timeoutMs);
      const wake = () => {
        if (!check()) return;
        clearTimeout(timer);
        changed.delete(wake);
        resolve();
      };
      changed.add(wake);
    });
  const named = (event?: string) => events.filter((item) => event === undefined || item.event === event);
  return {
    status: response.status,
    headers: response.headers,
    get body() {
      return body;
    },
    events,
    comments,
    retries,
    get ended() {
      return ended;
    },
    async waitFor(count, event, timeoutMs = 30_000) {
      await until(`${count} ${event ?? "any"} events`, () => named(event).length >= count, timeoutMs);
      return named(event);
    },
    waitForEnd: (timeoutMs = 30_000) => until("the end of the stream", () => ended, timeoutMs),
    close: () => abort.abort(),
  };
}

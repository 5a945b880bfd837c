// Steady requests without a load tool: a few loops, each sending the next request when the last
// one is answered, counting statuses, connection errors and requests that hang.

/** A running load: `stop()` waits for the requests in flight and gives the counts by status. */
export interface LoadLoop {
  stop(): Promise<Record<string, number>>;
}

/**
 * Starts `concurrency` loops on `url` (each request on a new connection). A request unanswered
 * after `hungMs` counts as "hung", a connection failure as "error", others by status code.
 */
export function loadLoop(url: string, concurrency: number, hungMs = 20_000): LoadLoop {
  let running = true;
  const counts: Record<string, number> = {};
  const count = (key: string) => {
    counts[key] = (counts[key] ?? 0) + 1;
  };
  const loops = Array.from({ length: concurrency }, async () => {
    while (running) {
      try {
        const res = await fetch(url, { headers: { connection: "close" }, signal: AbortSignal.timeout(hungMs) });
        await res.arrayBuffer();
        count(String(res.status));
      } catch (error) {
        count((error as Error)?.name === "TimeoutError" ? "hung" : "error");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return counts;
    },
  };
}

import type { Context } from "koa";
import { reply } from "@fwkit/koa-host";
import { FixtureView } from "../lib/base.js";

// A slow request that says when it starts: the balancer tests count these lines per `?mark=`.
async function runOrder(ctx: Context, method: string): Promise<string> {
  const mark = String(ctx.query["mark"] ?? "");
  console.log(`order ${method} ${mark} started in ${process.pid}`);
  await new Promise((resolve) => setTimeout(resolve, Math.min(Number(ctx.query["ms"]) || 3000, 20_000)));
  return `order ${method} ${mark} done in ${process.pid}`;
}

/** What the balancer tests send through HAProxy and nginx: slow requests whose runs they count, and what the app believes. */
export class Orders extends FixtureView {
  /** A slow GET (safe to send again). */
  index() {
    return runOrder(this.ctx, "GET");
  }
  /** A slow POST (an order placed twice is the harm a retry does). */
  post() {
    return runOrder(this.ctx, "POST");
  }
  /** The client address, host, protocol and request id the app believes behind the balancer. */
  where() {
    return {
      ip: this.ctx.ip,
      host: this.ctx.host,
      protocol: this.ctx.protocol,
      id: this.ctx.state["requestId"],
      // What reached the app of a trace context (the balancers drop a client's).
      traceparent: this.ctx.get("traceparent") || null,
      baggage: this.ctx.get("baggage") || null,
    };
  }
  /** The app's own 503 (its Redis down, say): a balancer passes it through and keeps the process. */
  unavailable() {
    return reply("unavailable", { status: 503 });
  }
}

/** A path the balancer tests name as the app's private metrics path: the app answers it, the balancers never pass it. */
export class Internal extends FixtureView {
  stats() {
    return "private";
  }
}

/** A quick POST that logs nothing: the load of the rolling-restart test. */
export class Quick extends FixtureView {
  post() {
    return "saved";
  }
}

import type { Context } from "koa";
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
    return { ip: this.ctx.ip, host: this.ctx.host, protocol: this.ctx.protocol, id: this.ctx.state["requestId"] };
  }
}

/** A quick POST that logs nothing: the load of the rolling-restart test. */
export class Quick extends FixtureView {
  post() {
    return "saved";
  }
}

import { Job } from "fw-b";
import { z } from "zod";
import { Product } from "../lib/models.js";

const Payload = z.object({ productId: z.number().int(), price: z.number().positive() });

/**
 * An example job: sets a product's price outside the request. Dispatch it from a view with
 * `await SetPrice.dispatch({ productId: 1, price: 4.2 })`; in development it runs in the process,
 * in production on a `fw-b :work` process (QUEUE_URL=redis://...). A job may run more than once (a
 * worker stopped mid-job runs it again), so it sets a value instead of adding to one: run twice,
 * the result is the same.
 */
export class SetPrice extends Job<z.infer<typeof Payload>> {
  static override schema = Payload;
  static override options = { attempts: 3, backoff: "5s" };

  async handle({ productId, price }: z.infer<typeof Payload>): Promise<void> {
    await Product.query().where({ id: productId }).update({ price });
  }
}

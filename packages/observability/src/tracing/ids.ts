/**
 * Trace and span ids cut from a pool of random bytes. The SDK's own generator writes `Math.random`
 * into a buffer and hex-encodes it per id (about a thousand instructions each, two ids per traced
 * request); here the operating system's random bytes are hex-encoded 2,048 at a time and each id
 * is a slice of that text, so an id costs a string slice and is cryptographically random.
 */
import { randomFillSync } from "node:crypto";
import type { IdGenerator } from "@opentelemetry/sdk-trace-base";

/** Random bytes encoded per refill: 85 traced requests' ids. */
const POOL_BYTES = 2048;

/**
 * W3C forbids an all-zero id; the chance is 2^-64 at worst, but the rule is kept (tested on the
 * first digit first: comparing a slice with a whole string takes V8's slow path).
 */
const ZERO = 0x30;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);

/** Ids for the SDK's tracer provider (its `idGenerator` option), from a shared pool of random hex. */
export class PooledIdGenerator implements IdGenerator {
  private readonly bytes = Buffer.allocUnsafe(POOL_BYTES);
  private hex = "";
  private at = 0;

  /** `fill` writes random bytes into the buffer it is given (default: the operating system's). */
  constructor(private readonly fill: (bytes: Buffer) => Buffer = randomFillSync) {}

  /** 32 lower-case hex digits, never all zeros. */
  generateTraceId(): string {
    const id = this.take(32);
    return id.charCodeAt(0) === ZERO && id === ZERO_TRACE ? this.generateTraceId() : id;
  }

  /** 16 lower-case hex digits, never all zeros. */
  generateSpanId(): string {
    const id = this.take(16);
    return id.charCodeAt(0) === ZERO && id === ZERO_SPAN ? this.generateSpanId() : id;
  }

  private take(digits: number): string {
    if (this.at + digits > this.hex.length) {
      this.hex = this.fill(this.bytes).toString("hex");
      this.at = 0;
    }
    return this.hex.slice(this.at, (this.at += digits));
  }
}

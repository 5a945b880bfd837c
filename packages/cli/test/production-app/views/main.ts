import { FixtureView } from "../lib/base.js";

/** Pages the production tests request. */
export class Index extends FixtureView {
  index() {
    return "home";
  }
  /** The serving worker's pid: which process answered. */
  pid() {
    return String(process.pid);
  }
  /** Answers after `ms` milliseconds: a request in flight during a shutdown or restart. */
  async slow(ms = "1000") {
    // The tests signal once this line is out: the request is then surely in flight.
    console.log(`slow request started in ${process.pid}`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(Number(ms) || 0, 20_000)));
    return `slow ${process.pid}`;
  }
  /** Blocks the worker's event loop for `ms` (it reads no message meanwhile: a hung worker). */
  block(ms = "1000") {
    console.log(`blocking in ${process.pid}`);
    const until = Date.now() + Math.min(Number(ms) || 0, 20_000);
    while (Date.now() < until);
    return `blocked ${process.pid}`;
  }
  /** Kills the worker that serves it (a crash), after answering. */
  crash() {
    setTimeout(() => process.exit(3), 20);
    return `crashing ${process.pid}`;
  }
}

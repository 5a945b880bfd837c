// NestJS 11 on its Express adapter, written in plain JavaScript: the legacy decorators are applied
// as functions, so no TypeScript `emitDecoratorMetadata` build is needed. The controller has no
// constructor dependencies, so Nest needs no design-time type metadata either.
import "reflect-metadata";
import { Controller, Get, Header, Module, Param } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { JSON_BODY, TEXT_BODY, pairText } from "../workloads.js";

class BenchController {
  text() {
    return TEXT_BODY;
  }
  pair(a, b) {
    return pairText(a, b);
  }
  data() {
    return JSON_BODY;
  }
}

/** Applies legacy method decorators the way TypeScript's `__decorate` does. */
function decorate(cls, method, ...decorators) {
  const proto = cls.prototype;
  let descriptor = Object.getOwnPropertyDescriptor(proto, method);
  for (const decorator of decorators.reverse()) descriptor = decorator(proto, method, descriptor) ?? descriptor;
  Object.defineProperty(proto, method, descriptor);
}

decorate(BenchController, "text", Get("text"), Header("Content-Type", "text/plain; charset=utf-8"));
Param("a")(BenchController.prototype, "pair", 0);
Param("b")(BenchController.prototype, "pair", 1);
decorate(BenchController, "pair", Get("items/pair/:a/:b"), Header("Content-Type", "text/plain; charset=utf-8"));
decorate(BenchController, "data", Get("api/data"));
Controller()(BenchController);

class BenchModule {}
Module({ controllers: [BenchController] })(BenchModule);

/**
 * NestJS (Express adapter) serving the three simple workloads.
 * @param {string} scenario
 * @param {number} port
 */
export async function start(scenario, port) {
  if (scenario !== "basic") throw new Error(`The nest bench server has no "${scenario}" scenario.`);
  const t0 = performance.now();
  const app = await NestFactory.create(BenchModule, { logger: false });
  const appBuild = performance.now() - t0;
  await app.listen(port, "127.0.0.1");
  const address = app.getHttpServer().address();
  return {
    port: typeof address === "object" && address ? address.port : port,
    timings: { appBuild },
    close: () => app.close(),
  };
}

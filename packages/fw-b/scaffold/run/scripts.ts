import { defineCommands } from "fw-b";
import { products } from "../lib/models.js";

/** The app's own commands: `fw-b products:count`. Each handler receives the built app. */
export const commands = defineCommands([
  {
    command: "products:count",
    describe: "print how many products there are",
    handler(_argv, app) {
      console.log(`${products.length} products (${app.config.env})`);
    },
  },
]);

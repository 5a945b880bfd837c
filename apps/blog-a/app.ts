import { defineApp } from "fw-a";

/** The blog app: `fw-a gen:serve` in this folder serves it. */
export const app = defineApp({ root: import.meta.dirname });

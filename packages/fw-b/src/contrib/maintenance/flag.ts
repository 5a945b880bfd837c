import type { Knex } from "@fwkit/data";
import { CONTRIB_TABLES } from "../models.js";

const KEY = "maintenance";

/**
 * The maintenance switch, stored in the database (`fwb_settings`) so every process of the app
 * sees it; each process trusts what it read for `cacheMs` (the process that flips it at once).
 */
export class MaintenanceFlag {
  readonly #knex: () => Knex;
  readonly #cacheMs: number;
  #cached: { on: boolean; at: number } | undefined;

  constructor(knex: () => Knex, cacheMs = 1000) {
    this.#knex = knex;
    this.#cacheMs = cacheMs;
  }

  /** True while the site is in maintenance. */
  async isOn(): Promise<boolean> {
    const now = Date.now();
    if (this.#cached && now - this.#cached.at < this.#cacheMs) return this.#cached.on;
    const row = (await this.#knex()(CONTRIB_TABLES.settings).where({ key: KEY }).first()) as
      | { value?: string }
      | undefined;
    const on = row?.value === "on";
    this.#cached = { on, at: now };
    return on;
  }

  /** Switches maintenance on or off (an upsert, safe with several processes). */
  async set(on: boolean): Promise<void> {
    await setMaintenance(this.#knex(), on);
    this.#cached = { on, at: Date.now() };
  }
}

/** Writes the maintenance switch (used by the admin toggle and `fw-b :maintenance on|off`). */
export async function setMaintenance(knex: Knex, on: boolean): Promise<void> {
  await knex(CONTRIB_TABLES.settings)
    .insert({ key: KEY, value: on ? "on" : "off", updated_at: new Date() })
    .onConflict("key")
    .merge(["value", "updated_at"]);
}

// Times one password hash and one verification at the security package's default settings (bcrypt
// cost 12) and with argon2id, median of a few runs. `pnpm --filter bench run password` prints them;
// `pnpm bench` runs it after the load runs. A timing, never an assertion.
import { hashPassword, verifyPassword } from "@fwkit/security";

const RUNS = Number(process.env["PASSWORD_RUNS"] ?? 5);

async function time(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Median milliseconds of hashing and verifying with each algorithm at its default cost. */
export async function passwordTimings(): Promise<Array<{ algorithm: string; hashMs: number; verifyMs: number }>> {
  const rows = [];
  for (const algorithm of ["bcrypt", "argon2id"] as const) {
    const hash = await hashPassword("correct horse battery staple", { algorithm });
    rows.push({
      algorithm: algorithm === "bcrypt" ? "bcrypt (cost 12, the default)" : "argon2id (19 MiB, t=2, p=1)",
      hashMs: await time(() => hashPassword("correct horse battery staple", { algorithm })),
      verifyMs: await time(() => verifyPassword("correct horse battery staple", hash)),
    });
  }
  return rows;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  for (const row of await passwordTimings()) {
    console.log(
      `${row.algorithm}: hash ${row.hashMs.toFixed(1)} ms, verify ${row.verifyMs.toFixed(1)} ms (median of ${RUNS})`,
    );
  }
}

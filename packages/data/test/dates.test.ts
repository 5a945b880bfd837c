import "./support/new-york-time.js";
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dateHelpers, formatDate, isoDate, timeAgo } from "../src/dates.js";

const instant = new Date("2024-05-01T12:30:00.000Z");

describe("formatDate", () => {
  test("formats in UTC by default, whatever the process time zone", () => {
    assert.equal(formatDate(instant), "2024-05-01 12:30");
    assert.equal(formatDate(instant, "D MMM YYYY, HH:mm:ss"), "1 May 2024, 12:30:00");
  });

  test("formats in a given IANA zone, across DST changes", () => {
    assert.equal(formatDate(instant, "YYYY-MM-DD HH:mm Z", "Europe/Paris"), "2024-05-01 14:30 +02:00");
    assert.equal(formatDate(new Date("2024-03-10T06:59:59Z"), "HH:mm", "America/New_York"), "01:59");
    assert.equal(formatDate(new Date("2024-03-10T07:00:00Z"), "HH:mm", "America/New_York"), "03:00");
  });

  test("accepts epoch milliseconds and date strings, and gives '' for nothing or garbage", () => {
    assert.equal(formatDate(instant.getTime()), "2024-05-01 12:30");
    assert.equal(formatDate("2024-05-01 12:30:00"), "2024-05-01 12:30", "SQLite CURRENT_TIMESTAMP text is UTC");
    assert.equal(formatDate("2024-05-01T12:30:00Z"), "2024-05-01 12:30");
    assert.equal(formatDate(null), "");
    assert.equal(formatDate(undefined), "");
    assert.equal(formatDate("not a date"), "");
  });

  test("an unknown zone is E_BAD_TIMEZONE", () => {
    assert.throws(() => formatDate(instant, "HH:mm", "Mars/Olympus"), { code: "E_BAD_TIMEZONE" });
  });
});

describe("timeAgo", () => {
  test("says how long ago in words", () => {
    const now = Date.now();
    assert.equal(timeAgo(new Date(now - 3 * 3600_000)), "3 hours ago");
    assert.equal(timeAgo(new Date(now - 2 * 86_400_000)), "2 days ago");
    assert.equal(timeAgo(new Date(now - 10_000)), "a few seconds ago");
    assert.equal(timeAgo(new Date(now + 5 * 60_000)), "in 5 minutes");
    assert.equal(timeAgo(instant, new Date("2024-05-01T15:30:00Z")), "3 hours ago");
    assert.equal(timeAgo(null), "");
  });
});

describe("dateHelpers", () => {
  test("binds the configured zone and format, overridable per call", () => {
    const helpers = dateHelpers({ timezone: "Asia/Tokyo", dateFormat: "YYYY/MM/DD HH:mm" });
    assert.equal(helpers.timezone, "Asia/Tokyo");
    assert.equal(helpers.formatDate(instant), "2024/05/01 21:30");
    assert.equal(helpers.formatDate(instant, "HH:mm", "UTC"), "12:30");
    assert.equal(helpers.isoDate(instant), "2024-05-01T12:30:00.000Z");
    assert.equal(helpers.timeAgo(new Date(Date.now() - 3 * 3600_000)), "3 hours ago");
  });

  test("defaults to UTC and fails at start-up on an unknown zone", () => {
    assert.equal(dateHelpers().formatDate(instant), "2024-05-01 12:30");
    assert.throws(() => dateHelpers({ timezone: "Nowhere/Nothing" }), { code: "E_BAD_TIMEZONE", status: 500 });
  });

  test("isoDate is UTC ISO 8601", () => {
    assert.equal(isoDate(instant.getTime()), "2024-05-01T12:30:00.000Z");
    assert.equal(isoDate(undefined), "");
  });
});

describe("dates in the request's language", () => {
  const instant = new Date("2026-03-05T18:30:00Z");

  test("named styles are written the way each language writes dates, in the zone given", () => {
    assert.equal(formatDate(instant, "date", "UTC", "en"), "Mar 5, 2026");
    assert.equal(formatDate(instant, "date", "UTC", "fr"), "5 mars 2026");
    assert.equal(formatDate(instant, "date", "UTC", "de"), "05.03.2026");
    assert.equal(formatDate(instant, "date", "UTC", "es"), "5 mar 2026");
    assert.equal(formatDate(instant, "time", "Europe/Paris", "fr"), "19:30");
    assert.equal(formatDate(instant, "date"), "Mar 5, 2026", "English without a locale");
  });

  test("dayjs formats and timeAgo use the language's month names and words", () => {
    assert.equal(formatDate(instant, "D MMMM YYYY", "UTC", "fr"), "5 mars 2026");
    assert.equal(formatDate(instant, "D MMMM YYYY", "UTC", "de"), "5 März 2026");
    assert.equal(
      formatDate(instant, "D MMMM YYYY", "UTC", "pt-BR"),
      "5 março 2026",
      "a region falls back to dayjs's tag or its language",
    );
    assert.equal(formatDate(instant, "D MMMM YYYY", "UTC", "xx"), "5 March 2026", "an unknown language is English");
    assert.equal(
      formatDate(instant, "D MMMM YYYY"),
      "5 March 2026",
      "no locale leaves dayjs's global English untouched",
    );
    const later = new Date(instant.getTime() + 3 * 3600_000);
    assert.equal(timeAgo(instant, later, "fr"), "il y a 3 heures");
    assert.equal(timeAgo(instant, later, "es"), "hace 3 horas");
    assert.equal(timeAgo(instant, later), "3 hours ago");
  });
});

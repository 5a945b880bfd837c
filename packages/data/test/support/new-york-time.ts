/**
 * Imported first by suites that must prove dates do not depend on the process time zone: from
 * here on the process runs in America/New_York (UTC-5/-4, with DST changes).
 */
process.env["TZ"] = "America/New_York";

/**
 * What the contrib modules need in production before the first request, checked at start-up:
 * the modules that mail links (auth, contact) need a mail transport and the app's public
 * address, OAuth needs the public address for its redirect URI. Without them a signup would say
 * "check your mail" and drop the mail, or a reset link would be built from the client's Host.
 */
import type { AppConfig } from "@fwkit/koa-host";
import { requireBaseUrl, resolveBaseUrl } from "@fwkit/koa-host/plugin";
import { requireMailer } from "@fwkit/services/battery";
import type { BatteryPlugins } from "@fwkit/app-kit";
import { E_CONTRIB_CONFIG } from "../errors.js";
import type { ContribSettings } from "./config.js";

/** The contrib modules that send mail, and what they send. */
function mailingModules(settings: ContribSettings): string[] {
  return [
    ...(settings.auth ? ["contrib.auth (confirmation and password-reset mails)"] : []),
    ...(settings.contact ? ["contrib.contact (messages to its recipients)"] : []),
  ];
}

/**
 * Checks the app's `baseUrl` (always) and, in production, that the modules which mail have a
 * mailer (`MAIL_URL`, `MAIL_FROM`, the services battery) and that modules which build absolute
 * links have `BASE_URL`. Returns the checked base URL.
 */
export function checkContribProduction(
  config: AppConfig,
  settings: ContribSettings,
  batteries: BatteryPlugins,
): string | undefined {
  if (config.env !== "production") return resolveBaseUrl(config);
  const mailing = mailingModules(settings);
  if (mailing.length > 0) {
    const needs = mailing.join(" and ");
    if (!batteries.services)
      throw new E_CONTRIB_CONFIG("batteries.services", `${needs} sends mail through the services battery; turn it on`);
    requireMailer(config, needs);
  }
  const linking = [...mailing, ...(settings.oauth ? ["contrib.oauth (its redirect URI)"] : [])];
  return linking.length > 0 ? requireBaseUrl(config, linking.join(" and ")) : resolveBaseUrl(config);
}

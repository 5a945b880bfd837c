/**
 * The app folder the batteries' drivers resolve from is kept by `@fwkit/battery-kit`; the host sets
 * it when it is created (host.ts imports it from here).
 */
export { setDriverRoot } from "@fwkit/battery-kit/host";

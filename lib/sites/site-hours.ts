import type { Site } from "../generated/prisma/client";
import type { WeekHours } from "../contracts/service-hours";
import { serviceStatus, type ServiceStatus } from "../service-hours/service-hours";

/** The columns that say when a site's team works (docs/service-hours.md). */
export type SiteHours = Pick<Site, "timezone" | "hours" | "holidays">;

/** The site's service status at `at`; `offline` also when the owner switched the site offline. */
export function siteAvailability(site: SiteHours & Pick<Site, "offline">, at: Date): ServiceStatus & { offline: boolean } {
  // hours is written only through serviceHoursFields (lib/contracts/service-hours.ts)
  const status = serviceStatus({ timezone: site.timezone, hours: site.hours as WeekHours | null, holidays: site.holidays }, at);
  return { ...status, offline: site.offline || !status.open };
}

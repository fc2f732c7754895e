import type { Prisma } from "../generated/prisma/client";

/** A site's columns that shape its widget (look, words, faces, away message, storage before interaction): the widget's config and the sites' API read the same ones. */
export const siteDesignColumns = {
  title: true,
  greeting: true,
  brandColor: true,
  locale: true,
  position: true,
  launcherLabel: true,
  teamMemberIds: true,
  awayMessage: true,
  trackBeforeInteraction: true,
} as const satisfies Prisma.SiteSelect;

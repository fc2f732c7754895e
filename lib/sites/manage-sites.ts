import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { Prisma } from "../generated/prisma/client";
import { AppError, invalidRequest } from "../core/errors";
import type { CreateSiteInput, UpdateSiteInput } from "../contracts/sites";
import type { WeekHours } from "../contracts/service-hours";
import { siteDesignColumns } from "./design-columns";
import { helpCenterTitle } from "./help-center-title";
import type { AnswerMode } from "../contracts/answers";
import type { PrechatSetting } from "../contracts/attributes";
import { checkPrechatKeys } from "../attributes/prechat";

const siteView = {
  id: true,
  name: true,
  origins: true,
  offline: true,
  inboxId: true,
  inbox: { select: { dailyAllowance: true } },
  ...siteDesignColumns,
  identityRequired: true,
  identitySecret: true,
  timezone: true,
  hours: true,
  holidays: true,
  assignment: true,
  reassignAfterMinutes: true,
  defaultTeamId: true,
  departments: true,
  prechat: true,
  retentionDays: true,
  helpCenterEnabled: true,
  helpCenterTitle: true,
  answers: true,
} as const;

type SiteRow = Prisma.SiteGetPayload<{ select: typeof siteView }>;

/** The secret itself never leaves POST …/identity-secret; a site says only whether it has one. */
function toWireSite(site: SiteRow) {
  return {
    id: site.id,
    name: site.name,
    origins: site.origins,
    offline: site.offline,
    inbox_id: site.inboxId,
    daily_allowance: site.inbox.dailyAllowance,
    title: site.title,
    greeting: site.greeting,
    brand_color: site.brandColor,
    locale: site.locale,
    position: site.position as "right" | "left", // stored only through the sites' WIDGET_POSITIONS
    launcher_label: site.launcherLabel,
    team_member_ids: site.teamMemberIds,
    identity_required: site.identityRequired,
    has_identity_secret: site.identitySecret !== null,
    track_before_interaction: site.trackBeforeInteraction,
    timezone: site.timezone,
    hours: site.hours as WeekHours | null, // stored only through serviceHoursFields
    holidays: site.holidays,
    away_message: site.awayMessage,
    assignment: site.assignment as "manual" | "round_robin", // stored only through routingFields
    reassign_after_minutes: site.reassignAfterMinutes,
    default_team_id: site.defaultTeamId,
    departments: site.departments as Department[], // stored only through the sites' contract
    prechat: site.prechat as PrechatSetting, // stored only through the sites' contract
    retention_days: site.retentionDays,
    help_center: { enabled: site.helpCenterEnabled, title: helpCenterTitle(site) },
    answers: site.answers as AnswerMode, // stored only through answerSiteFields (and a CHECK)
  };
}

type WidgetColumns = Pick<
  CreateSiteInput,
  | "title"
  | "greeting"
  | "brandColor"
  | "locale"
  | "position"
  | "launcherLabel"
  | "teamMemberIds"
  | "identityRequired"
  | "trackBeforeInteraction"
  | "timezone"
  | "hours"
  | "holidays"
  | "awayMessage"
  | "assignment"
  | "reassignAfterMinutes"
  | "departments"
  | "prechat"
  | "helpCenterEnabled"
  | "helpCenterTitle"
  | "answers"
>;
const widgetData = (input: WidgetColumns) => ({
  title: input.title,
  greeting: input.greeting,
  brandColor: input.brandColor,
  locale: input.locale,
  position: input.position,
  launcherLabel: input.launcherLabel,
  teamMemberIds: input.teamMemberIds,
  identityRequired: input.identityRequired,
  trackBeforeInteraction: input.trackBeforeInteraction,
  timezone: input.timezone,
  // A JSON column is cleared with DbNull (a plain null would mean JSON's null)
  hours: input.hours === null ? Prisma.DbNull : input.hours,
  holidays: input.holidays,
  awayMessage: input.awayMessage,
  assignment: input.assignment,
  reassignAfterMinutes: input.reassignAfterMinutes,
  departments: input.departments,
  prechat: input.prechat === null ? Prisma.DbNull : input.prechat,
  helpCenterEnabled: input.helpCenterEnabled,
  helpCenterTitle: input.helpCenterTitle,
  answers: input.answers,
});

/** The header's faces must be active members; an unknown one is the caller's mistake (400), nothing is saved. */
async function checkTeamFaces(client: Pick<Prisma.TransactionClient, "member">, ids: string[] | undefined) {
  if (!ids?.length) return;
  const found = await client.member.findMany({ where: { id: { in: ids }, deactivatedAt: null }, select: { id: true } });
  const known = new Set(found.map((member) => member.id));
  const fields = ids.flatMap((id, index) => (known.has(id) ? [] : [{ path: `team_member_ids.${index}`, problem: "must be an active member's id" }]));
  if (fields.length) throw invalidRequest("Invalid request body. team_member_ids: each must be an active member's id.", fields);
}

export type Department = { team_id: string; label: string };

/** A default team and each department must be a team; an unknown one is 400 naming it, nothing saved. */
async function checkTeams(client: Pick<Prisma.TransactionClient, "team">, id: string | null | undefined, departments: Department[] | undefined) {
  if (departments?.length) {
    const found = new Set((await client.team.findMany({ where: { id: { in: departments.map((entry) => entry.team_id) } }, select: { id: true } })).map((team) => team.id));
    const fields = departments.flatMap((entry, index) => (found.has(entry.team_id) ? [] : [{ path: `departments.${index}.team_id`, problem: "no team has this id" }]));
    if (fields.length) throw invalidRequest(`Invalid request body. ${fields[0]!.path}: no team has this id.`, fields);
  }
  if (!id) return;
  if (!(await client.team.findUnique({ where: { id }, select: { id: true } }))) {
    throw invalidRequest("Invalid request body. default_team_id: no team has this id.", [{ path: "default_team_id", problem: "no team has this id" }]);
  }
}

/** Creates a site with an inbox of its own. */
export async function createSite(input: CreateSiteInput) {
  const name = input.name ?? input.id;
  await checkTeamFaces(await db(), input.teamMemberIds);
  await checkTeams(await db(), input.defaultTeamId, input.departments);
  await checkPrechatKeys(input.prechat);
  try {
    const site = await (await db()).site.create({
      data: {
        id: input.id,
        name,
        origins: input.origins,
        offline: input.offline ?? false,
        retentionDays: input.retentionDays,
        ...widgetData(input),
        ...(input.defaultTeamId ? { defaultTeam: { connect: { id: input.defaultTeamId } } } : {}),
        inbox: { create: { id: randomUUID(), name, dailyAllowance: input.dailyAllowance } },
      },
      select: siteView,
    });
    return toWireSite(site);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("already_exists", "A site with this id already exists.");
    throw error;
  }
}

export async function updateSite(id: string, input: UpdateSiteInput) {
  const prisma = await db();
  await checkPrechatKeys(input.prechat); // before the transaction: its reads take the one client (PGlite has one connection)
  const site = await prisma.$transaction(async (tx) => {
    const existing = await tx.site.findUnique({ where: { id }, select: { inboxId: true } });
    if (!existing) throw new AppError("site_not_found", "No site has this identifier.");
    await checkTeamFaces(tx, input.teamMemberIds);
    await checkTeams(tx, input.defaultTeamId, input.departments);
    if (input.dailyAllowance !== undefined) {
      await tx.inbox.update({ where: { id: existing.inboxId }, data: { dailyAllowance: input.dailyAllowance } });
    }
    return tx.site.update({
      where: { id },
      data: {
        name: input.name,
        origins: input.origins,
        offline: input.offline,
        retentionDays: input.retentionDays,
        ...widgetData(input),
        defaultTeam: input.defaultTeamId === undefined ? undefined : input.defaultTeamId === null ? { disconnect: true } : { connect: { id: input.defaultTeamId } },
      },
      select: siteView,
    });
  });
  return toWireSite(site);
}

/** Every site, by name. */
export async function listSites() {
  const sites = await (await db()).site.findMany({ orderBy: [{ name: "asc" }, { id: "asc" }], select: siteView });
  return sites.map(toWireSite);
}

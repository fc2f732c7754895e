import Link from "next/link";
import { serviceOrigin } from "@/lib/core/env";
import { listLabels } from "@/lib/labels/labels";
import { listSavedReplies } from "@/lib/saved-replies/saved-replies";
import { listSites } from "@/lib/sites/manage-sites";
import { lastSeenByOrigin } from "@/lib/page-views/origins-seen";
import { listFaceCandidates } from "@/lib/widget-config/widget-config";
import { listTeam } from "@/lib/staff/team";
import { listPendingInvites } from "@/lib/staff/invites";
import { listWebhooks } from "@/lib/webhooks/webhooks";
import styles from "../../inbox.module.css";
import { OwnersOnly } from "../../_components/shared/owners-only";
import { LabelsSection } from "../../_components/settings/labels";
import { AttributesSection } from "../../_components/settings/attributes";
import { listAttributeDefinitions } from "@/lib/attributes/definitions";
import { SavedRepliesSection } from "../../_components/settings/saved-replies";
import { InviteForm, MemberEditor, PendingInvites } from "../../_components/settings/members";
import { NewSiteForm, SiteEditor } from "../../_components/settings/sites";
import { HoursEditor } from "../../_components/settings/hours";
import { WidgetDesigner } from "../../_components/settings/widget";
import { EmbedStatus } from "../../_components/settings/embed-status";
import { RoutingEditor } from "../../_components/settings/routing";
import { SiteIntakeEditor } from "../../_components/settings/site-intake";
import { TeamsSection } from "../../_components/settings/teams";
import { listTeams } from "@/lib/teams/teams";
import { timeZoneNames } from "@/lib/core/validation/time-zone";
import { NewWebhookForm } from "../../_components/settings/webhooks";
import { PrivacySection } from "../../_components/settings/privacy";
import { WebhookHealth } from "../../_components/settings/webhook-health";
import { requireStaffPage } from "../../_components/shared/staff-session";
import { PushToggle } from "../../_components/settings/push-toggle";

export default async function SettingsPage() {
  const { member } = await requireStaffPage();
  // Agents manage their own saved replies here; everything else is for owners.
  if (member.role !== "owner") {
    return (
      <OwnersOnly title="Settings">
        <PushToggle />
        <SavedRepliesSection replies={await listSavedReplies(member)} canManageTeam={false} />
      </OwnersOnly>
    );
  }
  const [sites, team, invites, webhooks, replies, labels, faces, attributeDefinitions, teams] = await Promise.all([
    listSites(),
    listTeam(),
    listPendingInvites(),
    listWebhooks(),
    listSavedReplies(member),
    listLabels(),
    listFaceCandidates(),
    listAttributeDefinitions(),
    listTeams(),
  ]);
  const seen = await Promise.all(sites.map(lastSeenByOrigin));
  const timeZones = timeZoneNames();
  return (
    <main id="main" className={styles.page}>
      <h1>Settings</h1>
      <PushToggle />
      <p>
        <Link href="/inbox/settings/audit">Audit log</Link>: who changed what, and every sign-in.
      </p>
      <p>
        <Link href="/inbox/settings/rules">Rules</Link>: labels, teams, notes and replies that happen by themselves.
      </p>
      <p>
        <Link href="/inbox/settings/sla">SLA policies</Link>: response and resolution targets, and where they apply.
      </p>
      <section aria-labelledby="sites-title">
        <h2 id="sites-title">Sites</h2>
        <NewSiteForm />
        {sites.map((site, index) => (
          <div key={site.id}>
            <SiteEditor site={site} embed={<EmbedStatus siteId={site.id} serviceOrigin={serviceOrigin()} seen={seen[index]!} />} />
            <WidgetDesigner site={site} faces={faces} serviceOrigin={serviceOrigin()} startOpen={sites.length === 1} />
            <HoursEditor site={site} timeZones={timeZones} />
            <RoutingEditor site={site} />
            <SiteIntakeEditor site={site} teams={teams} attributes={attributeDefinitions} startOpen={sites.length === 1} />
          </div>
        ))}
      </section>
      <section aria-labelledby="team-title">
        <h2 id="team-title">Members</h2>
        <InviteForm />
        <PendingInvites invites={invites} />
        {team.map((entry) => (
          <MemberEditor key={entry.id} member={entry} self={entry.id === member.id} />
        ))}
      </section>
      <TeamsSection teams={teams} candidates={team.filter((entry) => entry.active).map(({ id, name, role }) => ({ id, name, role }))} />
      <SavedRepliesSection replies={replies} canManageTeam />
      <LabelsSection labels={labels} />
      <AttributesSection definitions={attributeDefinitions} />
      <section aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Webhooks</h2>
        <p className={styles.hint}>
          Parley posts each chosen event to your endpoint, signed (Standard Webhooks), and retries for about a day until it answers 2xx.
        </p>
        {webhooks.length > 0 ? (
          <ul className={styles.cards} data-testid="webhooks">
            {webhooks.map((webhook) => (
              <li key={webhook.id} className={styles.card}>
                <Link href={`/inbox/settings/webhooks/${encodeURIComponent(webhook.id)}`} className={styles.breakAnywhere}>
                  {webhook.url}
                </Link>
                <p className={styles.meta}>
                  {webhook.events.join(", ")}
                  {webhook.description ? ` · ${webhook.description}` : ""}
                </p>
                <WebhookHealth health={webhook.health} />
              </li>
            ))}
          </ul>
        ) : null}
        <NewWebhookForm />
      </section>
      <PrivacySection sites={sites.map(({ id, name }) => ({ id, name }))} />
    </main>
  );
}

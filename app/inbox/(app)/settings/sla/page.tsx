import Link from "next/link";
import { listLabels } from "@/lib/labels/labels";
import { listSites } from "@/lib/sites/manage-sites";
import { listSlaPolicies } from "@/lib/sla/policies";
import { listTeams } from "@/lib/teams/teams";
import styles from "../../../inbox.module.css";
import { OwnersOnly } from "../../../_components/shared/owners-only";
import { requireStaffPage } from "../../../_components/shared/staff-session";
import { NewSlaPolicyForm, SlaPolicyRow } from "../../../_components/settings/sla";

// SLA policies for owners (docs/sla.md): the ordered list, each policy's targets and where it
// applies; the first policy that matches a conversation applies.

export default async function SlaSettingsPage() {
  const { member } = await requireStaffPage();
  if (member.role !== "owner") return <OwnersOnly title="SLA policies" what="change SLA policies" />;
  const [policies, sites, teams, labels] = await Promise.all([listSlaPolicies(), listSites(), listTeams(), listLabels()]);
  const choices = {
    sites: sites.map((site) => ({ id: site.id, name: site.name })),
    teams: teams.map((team) => ({ id: team.id, name: team.name })),
    labels: labels.map((label) => ({ id: label.id, name: label.name })),
  };
  return (
    <main id="main" className={styles.page}>
      <p>
        <Link href="/inbox/settings">Settings</Link>
      </p>
      <h1>SLA policies</h1>
      <p className={styles.hint}>
        Targets in minutes; leave one empty for none. The first policy in this order whose sites, teams and labels match a conversation applies (an empty
        choice matches any). With business hours, only the site&apos;s service hours count; snoozed time never counts.
      </p>
      <NewSlaPolicyForm choices={choices} />
      {policies.length === 0 ? (
        <p className={styles.empty}>No SLA policies yet.</p>
      ) : (
        <ol className={styles.cards} data-testid="sla-policies">
          {policies.map((policy, index) => (
            <SlaPolicyRow key={policy.id} policy={policy} choices={choices} first={index === 0} last={index === policies.length - 1} />
          ))}
        </ol>
      )}
    </main>
  );
}

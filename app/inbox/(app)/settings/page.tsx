import { serviceOrigin } from "@/lib/env";
import { listSites } from "@/lib/sites/manage-sites";
import { listTeam } from "@/lib/staff/team";
import styles from "../../inbox.module.css";
import { InviteForm, MemberEditor } from "../../_components/settings-members";
import { NewSiteForm, SiteEditor } from "../../_components/settings-sites";
import { requireStaffPage } from "../../_components/staff-session";

export default async function SettingsPage() {
  const { member } = await requireStaffPage();
  if (member.role !== "owner") {
    return (
      <main id="main" className={styles.page}>
        <h1>Settings</h1>
        <p role="alert">Only owners can change settings. Ask an owner of this inbox if something needs to change.</p>
      </main>
    );
  }
  const [sites, team] = await Promise.all([listSites(), listTeam()]);
  return (
    <main id="main" className={styles.page}>
      <h1>Settings</h1>
      <section aria-labelledby="sites-title">
        <h2 id="sites-title">Sites</h2>
        <NewSiteForm />
        {sites.map((site) => (
          <SiteEditor key={site.id} site={site} serviceOrigin={serviceOrigin()} />
        ))}
      </section>
      <section aria-labelledby="team-title">
        <h2 id="team-title">Team</h2>
        <InviteForm />
        {team.map((entry) => (
          <MemberEditor key={entry.id} member={entry} self={entry.id === member.id} />
        ))}
      </section>
    </main>
  );
}

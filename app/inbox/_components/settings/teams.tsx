"use client";

import styles from "../../inbox.module.css";
import { CreateForm } from "../shared/create-form";
import { EditForm } from "../shared/edit-form";
import { DisclosureCard } from "../ui/disclosure-card";

// Teams in Settings (owners; decisions.md, round 4, "Teams"; docs/teams.md): create one with its
// members and routing, change or delete it. A conversation of a team is seen by its members, the
// owners, its assignee and whoever is @mentioned in it; deleting a team takes its conversations out
// of every team (everyone sees them again).

export interface TeamView {
  id: string;
  name: string;
  member_ids: string[];
  assignment: "manual" | "round_robin";
  max_open: number;
}

export interface TeamCandidate {
  id: string;
  name: string;
  role: "owner" | "agent" | null;
}

const teamBody = (form: FormData) => ({
  name: String(form.get("name") ?? ""),
  member_ids: form.getAll("member_ids").map(String),
  assignment: String(form.get("assignment") ?? "manual"),
  max_open: Number(form.get("max_open")),
});

function TeamFields({ prefix, team, candidates }: { prefix: string; team?: TeamView; candidates: TeamCandidate[] }) {
  const members = new Set(team?.member_ids ?? []);
  return (
    <>
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-name`}>Name</label>
          <input className={styles.input} id={`${prefix}-name`} name="name" required maxLength={60} defaultValue={team?.name} />
        </div>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-assignment`}>New conversations</label>
          <select className={styles.select} id={`${prefix}-assignment`} name="assignment" defaultValue={team?.assignment ?? "manual"}>
            <option value="manual">Manual: the team assigns them</option>
            <option value="round_robin">Round robin among the team&apos;s online members</option>
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-max-open`}>Open conversations per member (round robin)</label>
          <input className={styles.input} id={`${prefix}-max-open`} name="max_open" type="number" min={1} max={1000} required defaultValue={team?.max_open ?? 10} />
        </div>
      </div>
      <fieldset className={styles.field}>
        <legend className={styles.label}>Members</legend>
        {candidates.length === 0 ? <p className={styles.hint}>Invite people in the Members section first.</p> : null}
        {candidates.map((candidate) => (
          <label key={candidate.id}>
            <input type="checkbox" name="member_ids" value={candidate.id} defaultChecked={members.has(candidate.id)} /> <span dir="auto">{candidate.name}</span>
            {candidate.role === "owner" ? <span className={styles.meta}> (owner: sees every team anyway)</span> : null}
          </label>
        ))}
      </fieldset>
    </>
  );
}

function NewTeamForm({ candidates }: { candidates: TeamCandidate[] }) {
  return (
    <CreateForm id="new-team" title="Add a team" path="/api/v1/inbox/teams" body={(form) => teamBody(new FormData(form))} done="Team created." submit="Create team">
      <TeamFields prefix="new-team" candidates={candidates} />
    </CreateForm>
  );
}

/** Each team's card opens on request: it lists every member who can sign in. */
function TeamCard({ team, candidates }: { team: TeamView; candidates: TeamCandidate[] }) {
  const prefix = `team-${team.id}`;
  const summary = (
    <p className={styles.meta}>
      {team.member_ids.length} {team.member_ids.length === 1 ? "member" : "members"} · {team.assignment === "round_robin" ? "round robin" : "manual"}
    </p>
  );
  return (
    <DisclosureCard id={prefix} title={team.name} summary={summary} button="Edit team" dataAttributes={{ "data-team": team.id }}>
      <EditForm
        path={`/api/v1/inbox/teams/${encodeURIComponent(team.id)}`}
        body={(form) => teamBody(new FormData(form))}
        done="Team saved."
        formId={`${prefix}-form`}
        labelledBy={`${prefix}-title`}
        submit="Save team"
        remove={{ label: "Delete team", done: "Team deleted.", confirm: `Delete the team “${team.name}”? Its conversations stay, in no team.` }}
      >
        <TeamFields prefix={prefix} team={team} candidates={candidates} key={team.member_ids.join("|")} />
      </EditForm>
    </DisclosureCard>
  );
}

export function TeamsSection({ teams, candidates }: { teams: TeamView[]; candidates: TeamCandidate[] }) {
  return (
    <section aria-labelledby="teams-settings-title">
      <h2 id="teams-settings-title">Teams</h2>
      <p className={styles.hint}>
        A team&apos;s conversations are seen by its members and the owners (and by whoever is assigned or @mentioned). A site sends new conversations to its
        default team, or lets the visitor pick a department, in the site&apos;s &ldquo;Teams and pre-chat form&rdquo;.
      </p>
      <NewTeamForm candidates={candidates} />
      {teams.map((team) => (
        <TeamCard key={team.id} team={team} candidates={candidates} />
      ))}
    </section>
  );
}

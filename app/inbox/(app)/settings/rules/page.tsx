import Link from "next/link";
import { listLabels } from "@/lib/labels/labels";
import { listSavedReplies } from "@/lib/saved-replies/saved-replies";
import { listSites } from "@/lib/sites/manage-sites";
import { listTeam } from "@/lib/staff/team";
import { listTeams } from "@/lib/teams/teams";
import { listRuleRuns, listRules } from "@/lib/rules/rules";
import { namesFor } from "@/lib/rules/names";
import { describeRule } from "@/lib/rules/sentences";
import styles from "../../../inbox.module.css";
import { LocalTime } from "../../../_components/ui/local-time";
import { OwnersOnly } from "../../../_components/shared/owners-only";
import { requireStaffPage } from "../../../_components/shared/staff-session";
import { RuleControls, RuleEditor, type RuleOptions } from "../../../_components/settings/rules";

// Rules for owners (docs/rules.md): each rule as a sentence, in the order they run, with its
// switch, its place, its editor and its last runs; a new rule below.

const RUNS_SHOWN = 5;

export default async function RulesPage() {
  const { member } = await requireStaffPage();
  if (member.role !== "owner") return <OwnersOnly title="Rules" what="manage rules" />;
  const [rules, sites, teams, team, labels, replies] = await Promise.all([listRules(), listSites(), listTeams(), listTeam(), listLabels(), listSavedReplies(member)]);
  const [names, runs] = await Promise.all([namesFor(rules), Promise.all(rules.map((rule) => listRuleRuns(rule.id)))]);
  const options: RuleOptions = {
    sites: sites.map(({ id, name }) => ({ id, name })),
    teams: teams.map(({ id, name }) => ({ id, name })),
    members: team.filter((entry) => entry.active && entry.role !== null).map(({ id, name }) => ({ id, name })),
    labels: labels.map(({ id, name }) => ({ id, name })),
    replies: replies.filter((reply) => reply.scope === "team").map(({ id, title }) => ({ id, name: title })),
  };
  const allNames = Object.fromEntries([...names, ...Object.values(options).flat().map((option) => [option.id, option.name] as const)]);
  return (
    <main id="main" className={styles.page}>
      <p>
        <Link href="/inbox/settings">Settings</Link>
      </p>
      <h1>Rules</h1>
      <p className={styles.hint}>
        Rules do the routine work after a conversation starts, a visitor writes, a conversation is closed, reopened or quiet, or an SLA is missed. They run in this order,
        each at most once per event, and what a rule does never sets off a rule.
      </p>
      {rules.length > 0 ? (
        <ol className={styles.cards} data-testid="rules">
          {rules.map((rule, index) => (
            <li key={rule.id} className={styles.card} data-rule={rule.id}>
              <h2>
                {rule.name}
                {rule.enabled ? "" : " (off)"}
              </h2>
              <p data-testid="rule-sentence">{describeRule(rule, names)}.</p>
              <RuleControls id={rule.id} name={rule.name} enabled={rule.enabled} index={index} last={index === rules.length - 1} />
              <details>
                <summary>Recent runs ({runs[index]!.length})</summary>
                {runs[index]!.length ? (
                  <ul>
                    {runs[index]!.slice(0, RUNS_SHOWN).map((run) => (
                      <li key={`${run.at}-${run.conversation_id}`}>
                        <LocalTime iso={run.at} full /> · <Link href={`/inbox/conversations/${encodeURIComponent(run.conversation_id)}`}>conversation</Link> ·{" "}
                        {run.error ? <span className={styles.error}>{run.error}</span> : `${run.actions.length} action${run.actions.length === 1 ? "" : "s"} done`}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className={styles.hint}>It has not acted yet.</p>
                )}
              </details>
              <details>
                <summary>Edit or test</summary>
                <RuleEditor rule={rule} options={options} names={allNames} />
              </details>
            </li>
          ))}
        </ol>
      ) : (
        <p className={styles.hint}>No rules yet.</p>
      )}
      <section className={styles.card} aria-labelledby="new-rule-title">
        <h2 id="new-rule-title">New rule</h2>
        <RuleEditor rule={{ name: "", enabled: true, event: "conversation.created", idle_minutes: null, conditions: [], actions: [{ type: "add_label", label_id: "" }] }} options={options} names={allNames} />
      </section>
    </main>
  );
}

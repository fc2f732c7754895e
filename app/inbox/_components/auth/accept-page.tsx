import styles from "../../inbox.module.css";
import { describeInvite } from "@/lib/staff/invites";
import { AcceptInviteForm } from "./auth-forms";

/** The setup and invite pages: the link's code in the query, checked before the form is shown. */
export async function AcceptPage({ code, kind }: { code: string | undefined; kind: "setup" | "invite" }) {
  const invite = code ? await describeInvite(code) : null;
  const usable = invite && invite.kind === kind;
  return (
    <div className={styles.root}>
      <main className={styles.authCard}>
        <h1>{kind === "setup" ? "Set up the Parley inbox" : "Join the Parley inbox"}</h1>
        {usable ? (
          <>
            <p className={styles.hint}>
              {kind === "setup" ? "You will be the first owner." : `You are invited as ${invite.role === "owner" ? "an owner" : "an agent"}.`}
            </p>
            <AcceptInviteForm code={code!} email={invite.email} name={invite.name} />
          </>
        ) : (
          <p role="alert">
            This link is invalid, expired or already used. {kind === "setup" ? "Restart the server for a new setup link, or " : ""}ask an owner for a new
            invite. <a href="/inbox/sign-in">Sign in</a>
          </p>
        )}
      </main>
    </div>
  );
}

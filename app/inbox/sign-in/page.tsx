import type { Metadata } from "next";
import { redirect } from "next/navigation";
import styles from "../inbox.module.css";
import { SignInForm } from "../_components/auth/auth-forms";
import { currentStaff } from "../_components/shared/staff-session";
import { passwordSignInAllowed, ssoConfigured, type SsoRefusal } from "@/lib/staff/sso";

export const metadata: Metadata = { title: "Sign in · Parley inbox" };
export const dynamic = "force-dynamic";

const SSO_REFUSALS: Record<SsoRefusal, string> = {
  attempt_invalid: "That sign-in link expired or was already used. Please try again.",
  provider_failed: "The identity provider did not confirm the sign-in. Please try again.",
  email_unverified: "Your identity provider has not verified your email address, so it cannot sign you in here.",
  no_member: "No team member here can sign in with that account. Ask an owner to invite you, then accept the invite.",
  account_mismatch: "This email belongs to a member linked to another account at the identity provider.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ sso?: string }> }) {
  if (await currentStaff()) redirect("/inbox");
  const { sso } = await searchParams;
  const refusal = sso && Object.hasOwn(SSO_REFUSALS, sso) ? SSO_REFUSALS[sso as SsoRefusal] : null;
  return (
    <div className={styles.root}>
      <main className={styles.authCard}>
        <h1>Sign in to the inbox</h1>
        {refusal && (
          <p className={styles.error} role="alert">
            {refusal}
          </p>
        )}
        {ssoConfigured() && (
          <p>
            <a className={styles.button} href="/api/v1/inbox/sso">
              Sign in with single sign-on
            </a>
          </p>
        )}
        {passwordSignInAllowed() && <SignInForm />}
      </main>
    </div>
  );
}

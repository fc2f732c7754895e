import type { Metadata } from "next";
import { redirect } from "next/navigation";
import styles from "../inbox.module.css";
import { SignInForm } from "../_components/auth-forms";
import { currentStaff } from "../_components/staff-session";

export const metadata: Metadata = { title: "Sign in · Parley inbox" };
export const dynamic = "force-dynamic";

export default async function SignInPage() {
  if (await currentStaff()) redirect("/inbox");
  return (
    <div className={styles.root}>
      <main className={styles.authCard}>
        <h1>Sign in to the inbox</h1>
        <SignInForm />
      </main>
    </div>
  );
}

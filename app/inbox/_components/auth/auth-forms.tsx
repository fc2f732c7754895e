"use client";

import { useState, type FormEvent } from "react";
import styles from "../../inbox.module.css";
import { describeFailure, inboxApi } from "../shared/api";

function useSubmit(path: string, read: (form: FormData) => Record<string, string | undefined>) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const outcome = await inboxApi("POST", path, read(new FormData(event.currentTarget)));
    if (outcome.ok) {
      window.location.assign("/inbox");
      return;
    }
    setBusy(false);
    setError(describeFailure(outcome));
  };
  return { error, busy, onSubmit };
}

const value = (form: FormData, name: string) => {
  const entry = form.get(name);
  return typeof entry === "string" && entry !== "" ? entry : undefined;
};

export function SignInForm() {
  const { error, busy, onSubmit } = useSubmit("/api/v1/inbox/session", (form) => ({ email: value(form, "email"), password: value(form, "password") }));
  return (
    <form onSubmit={onSubmit} noValidate={false}>
      <div className={styles.field}>
        <label htmlFor="email">Email</label>
        <input className={styles.input} id="email" name="email" type="email" autoComplete="username" required autoFocus />
      </div>
      <div className={styles.field}>
        <label htmlFor="password">Password</label>
        <input className={styles.input} id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      <p className={styles.error} role="alert">{error}</p>
      <button className={styles.button} type="submit" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}

export function AcceptInviteForm({ code, email, name }: { code: string; email: string | null; name: string | null }) {
  const { error, busy, onSubmit } = useSubmit("/api/v1/inbox/invites/accept", (form) => ({
    code,
    name: value(form, "name"),
    email: email ? undefined : value(form, "email"),
    password: value(form, "password"),
  }));
  return (
    <form onSubmit={onSubmit}>
      <div className={styles.field}>
        <label htmlFor="name">Your name</label>
        <input className={styles.input} id="name" name="name" defaultValue={name ?? ""} autoComplete="name" required maxLength={80} />
      </div>
      <div className={styles.field}>
        <label htmlFor="email">Email</label>
        {email ? (
          <input className={styles.input} id="email" name="email" type="email" value={email} readOnly autoComplete="username" />
        ) : (
          <input className={styles.input} id="email" name="email" type="email" autoComplete="username" required />
        )}
      </div>
      <div className={styles.field}>
        <label htmlFor="password">Choose a password</label>
        <input className={styles.input} id="password" name="password" type="password" autoComplete="new-password" minLength={10} required aria-describedby="password-hint" />
        <p className={styles.hint} id="password-hint">At least 10 characters.</p>
      </div>
      <p className={styles.error} role="alert">{error}</p>
      <button className={styles.button} type="submit" disabled={busy}>
        {busy ? "Saving…" : "Create account and sign in"}
      </button>
    </form>
  );
}

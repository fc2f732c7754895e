import { headers } from "next/headers";
import { Fragment } from "react";
import { canonicalOrigin } from "@/lib/core/origins/origin";
import styles from "./demo.module.css";

// The widget hides itself, with one console line, on a page whose origin its site does not allow:
// right for a customer's shop, a puzzle on the demo opened at another address (a host name, the
// "Network" address `next dev` prints before a restart has added it, a proxy). The demo says it on
// the page, with what to do. Rendered on the server: `next dev` does not hydrate pages opened at an
// address outside its allowedDevOrigins, so a client component would never show.

/**
 * The origin this page was requested at: its Host, with the scheme a proxy reports
 * (X-Forwarded-Proto, which Next also sets), or null when that is no origin.
 */
export async function requestedOrigin(): Promise<string | null> {
  const request = await headers();
  const scheme = request.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http";
  return canonicalOrigin(`${scheme}://${request.get("host") ?? ""}`);
}

/**
 * Whether the widget refuses this page. Compared by host and port: a proxy that does not report
 * the scheme must not bring a false alarm (the widget itself compares whole origins).
 */
export function widgetRefuses(origin: string, allowed: string[] | null): boolean {
  if (allowed === null) return true;
  const { host } = new URL(origin);
  return !allowed.some((allowedOrigin) => allowedOrigin === origin || (canonicalOrigin(allowedOrigin) && new URL(allowedOrigin).host === host));
}

/** Nothing where the widget works; else why there is no chat button and how to get one (`allowed` null: no demo site). */
export function OriginHint({ origin, allowed }: { origin: string; allowed: string[] | null }) {
  if (!widgetRefuses(origin, allowed)) return null;
  const token = (
    <>
      (<code>ADMIN_TOKEN</code>: the operator token, printed once at the first start)
    </>
  );
  return (
    <div className={styles.originHint} role="note">
      <strong>No chat button at this address.</strong>{" "}
      {allowed === null ? (
        <>
          This service has no <code>demo</code> site: Parley creates it at start only with the embedded database (no{" "}
          <code>DATABASE_URL</code>). Create it with the operator API {token}:
        </>
      ) : (
        <>
          The demo site allows the widget on{" "}
          {allowed.length === 0
            ? "no origin"
            : allowed.map((allowedOrigin, i) => (
                <Fragment key={allowedOrigin}>
                  {i > 0 && ", "}
                  <code>{allowedOrigin}</code>
                </Fragment>
              ))}
          ; this page is at <code>{origin}</code>.{" "}
          {allowed[0] && (
            <>
              Open <a href={`${allowed[0]}/demo`}>{allowed[0]}/demo</a> instead, or allow this address with the operator API {token}:
            </>
          )}
          {!allowed[0] && <>Allow this address with the operator API {token}:</>}
        </>
      )}
      <pre>{allowed === null ? createCommand(origin) : allowCommand(origin, allowed)}</pre>
    </div>
  );
}

const bearer = `-H "Authorization: Bearer $ADMIN_TOKEN" -H "Content-Type: application/json"`;

function allowCommand(origin: string, allowed: string[]): string {
  return `curl -X PATCH ${origin}/api/v1/admin/sites/demo \\\n  ${bearer} \\\n  -d '${JSON.stringify({ origins: [...allowed, origin] })}'`;
}

function createCommand(origin: string): string {
  return `curl -X POST ${origin}/api/v1/admin/sites \\\n  ${bearer} \\\n  -d '${JSON.stringify({ id: "demo", name: "Demo shop", origins: [origin] })}'`;
}

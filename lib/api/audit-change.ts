import type { Reply } from "../http/envelope";
import { recordAuditAfter, type AuditActor, type AuditEntry } from "../audit/record";
import { clientAddress } from "../rate-limits/enforce-rate-limit";

// The audit log's one place per audience (docs/security.md, "Audit log"): an operator or inbox
// route that changes state names its action in its route spec, and the family's wrapper appends
// the row once the handler has succeeded. Refused requests (a 4xx thrown before or by the
// handler) write nothing. The row is written right after the change commits: should that write
// fail, the change stands and its success is answered (it happened), and `audit_write_failed` is
// logged at error level (recordAuditAfter). Services that must hold the change and its row in one transaction (the
// privacy requests) call recordAudit with their transaction instead.

export interface AuditSpec<Context> {
  /** A dotted name (`webhook.created`), or one chosen from the request (a role change or another edit). */
  action: string | ((context: Context) => string);
  /** Default: `<the action's kind>:<the route's first path id>`, else `<kind>:<the result's id>`. */
  target?: (context: Context, result: any) => string | null;
  /** Default: the names of the body's fields that were sent (never their values). */
  details?: (context: Context, result: any) => Record<string, unknown>;
  /** Who acted on a route without a session (accepting an invite): default `anonymous`. */
  actor?: (context: Context, result: any) => AuditActor;
  /** Only when this holds (a ticket reply is audited when it also sets a status): default always. */
  when?: (context: Context) => boolean;
}

interface ChangeContext {
  request: Request;
  params: Record<string, string>;
  body: unknown;
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The body's sent fields, as the wire names them. */
export function sentFields(body: unknown): string[] {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return [];
  return Object.entries(body)
    .filter(([, value]) => value !== undefined)
    .map(([name]) => snakeCase(name))
    .sort();
}

function defaultTarget(action: string, context: ChangeContext, result: unknown): string | null {
  const kind = action.split(".")[0]!;
  const pathId = Object.values(context.params)[0];
  const resultId = result && typeof result === "object" && "id" in result ? String(result.id) : undefined;
  const id = pathId ?? resultId;
  return id === undefined ? null : `${kind}:${id}`;
}

export async function auditChange<Context extends ChangeContext>(
  spec: AuditSpec<Context>,
  actor: AuditActor,
  context: Context,
  outcome: Reply | Response,
): Promise<void> {
  if (spec.when && !spec.when(context)) return;
  const result = outcome instanceof Response ? null : outcome.result;
  const action = typeof spec.action === "function" ? spec.action(context) : spec.action;
  const fields = sentFields(context.body);
  await recordAuditAfter({
    actor: spec.actor?.(context, result) ?? actor,
    action,
    target: spec.target ? spec.target(context, result) : defaultTarget(action, context, result),
    ip: clientAddress(context.request),
    details: spec.details ? spec.details(context, result) : fields.length > 0 ? { fields } : {},
  });
}

/** One row for what a route records itself (a redirect's outcome), from this request's client address. */
export const auditRequest = (request: Request, entry: Omit<AuditEntry, "ip">): Promise<void> =>
  recordAuditAfter({ ...entry, ip: clientAddress(request) });

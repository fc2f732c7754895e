import { serviceOrigin } from "../core/env";
import { authenticateStaff, sessionTokenFromCookies, type StaffRole, type StaffSession } from "../staff/sessions";
import { AppError } from "../core/errors";

// The inbox family's checks (lib/api/route.ts inboxRoute): the session cookie, the role, and for
// state changes the Origin — the inbox's defence against cross-site requests, with SameSite=Lax.

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export async function requireStaff(request: Request, role: StaffRole): Promise<StaffSession> {
  const staff = await authenticateStaff(sessionTokenFromCookies(request.headers.get("cookie")));
  if (!staff) throw new AppError("unauthorized", "Please sign in to the inbox.");
  if (role === "owner" && staff.member.role !== "owner") throw new AppError("forbidden", "Only an owner can do this.");
  return staff;
}

export function assertSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (request.headers.get("origin") !== serviceOrigin()) {
    throw new AppError("origin_not_allowed", "Inbox changes must come from the inbox's own pages.");
  }
}

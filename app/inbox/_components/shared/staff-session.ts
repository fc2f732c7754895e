import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { authenticateStaff, SESSION_COOKIE, type StaffSession } from "@/lib/staff/sessions";

/** The session behind this request's cookie, looked up once per render (layout and page share it). */
// Pages cannot set cookies: they never extend the session (the API and the live channel do).
export const currentStaff = cache(
  async (): Promise<StaffSession | null> => authenticateStaff((await cookies()).get(SESSION_COOKIE)?.value, { extend: false }),
);

/** The signed-in member for a page, or a redirect to the sign-in page. */
export async function requireStaffPage(): Promise<StaffSession> {
  const staff = await currentStaff();
  if (!staff) redirect("/inbox/sign-in");
  return staff;
}

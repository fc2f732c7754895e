import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { authenticateStaff, SESSION_COOKIE, type StaffSession } from "@/lib/staff/sessions";

/** The signed-in member for a page, or a redirect to the sign-in page. */
export async function requireStaffPage(): Promise<StaffSession> {
  const staff = await authenticateStaff((await cookies()).get(SESSION_COOKIE)?.value);
  if (!staff) redirect("/inbox/sign-in");
  return staff;
}

export async function currentStaff(): Promise<StaffSession | null> {
  return authenticateStaff((await cookies()).get(SESSION_COOKIE)?.value);
}

import type { Metadata } from "next";
import { AcceptPage } from "../_components/auth/accept-page";

export const metadata: Metadata = { title: "Join · Parley inbox", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

export default async function InvitePage({ searchParams }: { searchParams: Promise<{ code?: string | string[] }> }) {
  const { code } = await searchParams;
  return <AcceptPage code={typeof code === "string" ? code : undefined} kind="invite" />;
}

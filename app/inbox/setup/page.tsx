import type { Metadata } from "next";
import { AcceptPage } from "../_components/auth/accept-page";

export const metadata: Metadata = { title: "Set up · Parley inbox", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

export default async function SetupPage({ searchParams }: { searchParams: Promise<{ code?: string | string[] }> }) {
  const { code } = await searchParams;
  return <AcceptPage code={typeof code === "string" ? code : undefined} kind="setup" />;
}

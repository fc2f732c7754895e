"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import styles from "../inbox.module.css";

export function NavLinks({ owner }: { owner: boolean }) {
  const pathname = usePathname();
  const links = [
    { href: "/inbox", label: "Conversations", active: pathname === "/inbox" || pathname.startsWith("/inbox/conversations") },
    { href: "/inbox/tickets", label: "Tickets", active: pathname.startsWith("/inbox/tickets") },
    { href: "/inbox/articles", label: "Articles", active: pathname.startsWith("/inbox/articles") },
    ...(owner
      ? [
          { href: "/inbox/reports", label: "Reports", active: pathname.startsWith("/inbox/reports") },
          { href: "/inbox/outbox", label: "Outbox", active: pathname.startsWith("/inbox/outbox") },
          { href: "/inbox/settings", label: "Settings", active: pathname.startsWith("/inbox/settings") },
        ]
      : // Agents have one thing of their own in Settings: their saved replies.
        [{ href: "/inbox/settings#saved-replies-title", label: "Saved replies", active: pathname.startsWith("/inbox/settings") }]),
  ];
  return (
    <nav className={styles.nav} aria-label="Inbox">
      {links.map((link) => (
        <Link key={link.href} href={link.href} aria-current={link.active ? "page" : undefined}>
          {link.label}
        </Link>
      ))}
    </nav>
  );
}

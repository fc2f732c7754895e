import { createHash } from "node:crypto";
import { networkInterfaces, type NetworkInterfaceInfo } from "node:os";
import { db } from "../db/client";
import { env, serviceOrigin } from "../core/env";
import { canonicalOrigin } from "../core/origins/origin";
import { findSite } from "../sites/find-site";
import { DEMO_AVATAR_PNG_BASE64 } from "./demo-avatar";

export const DEMO_SITE_ID = "demo";
export const DEMO_MEMBER_ID = "demo-agent";

/**
 * The demo site's origins: the service's own, as localhost and as 127.0.0.1; with `lan` (`next dev`
 * only) also this machine's network addresses, the "Network" one `next dev` prints among them.
 */
export function demoOrigins({ lan = false }: { lan?: boolean } = {}): string[] {
  const port = env().PORT;
  return [...new Set([serviceOrigin(), `http://localhost:${port}`, `http://127.0.0.1:${port}`, ...(lan ? lanOrigins(port) : [])])];
}

/**
 * http origins at `port` of this machine's own non-loopback interface addresses. IPv6 link-local
 * addresses are left out: they need a zone (fe80::1%eth0), which no origin can carry.
 */
export function lanOrigins(port: number, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string[] {
  const origins: string[] = [];
  for (const address of Object.values(interfaces).flat()) {
    if (!address || address.internal) continue;
    if (address.family === "IPv6" && /^fe[89ab]/i.test(address.address)) continue;
    const origin = canonicalOrigin(address.family === "IPv6" ? `http://[${address.address}]:${port}` : `http://${address.address}:${port}`);
    if (origin) origins.push(origin);
  }
  return [...new Set(origins)];
}

/** The demo site's allowed origins as they are now, or null when there is no demo site. */
export async function currentDemoOrigins(): Promise<string[] | null> {
  return (await findSite(DEMO_SITE_ID))?.origins ?? null;
}

/**
 * Embedded mode's sample data: the `demo` site (allowing the service's own origins) and a demo
 * staff member with a picture. Creates what is missing and adds the current origins; never
 * overwrites what an operator changed. `lan`: see demoOrigins (never in production).
 */
export async function seedDemo({ lan = false }: { lan?: boolean } = {}): Promise<void> {
  const prisma = await db();
  const origins = demoOrigins({ lan });
  await prisma.$transaction(async (tx) => {
    const site = await tx.site.findUnique({ where: { id: DEMO_SITE_ID }, select: { origins: true } });
    if (site) {
      const missing = origins.filter((origin) => !site.origins.includes(origin));
      if (missing.length > 0) {
        await tx.site.update({ where: { id: DEMO_SITE_ID }, data: { origins: [...site.origins, ...missing] } });
      }
    } else {
      await tx.inbox.create({
        data: {
          id: "demo-inbox",
          name: "Demo inbox",
          sites: {
            create: {
              id: DEMO_SITE_ID,
              name: "Demo shop",
              origins,
              // The widget's site config: the shop's own words and colour.
              title: "Lumen & Co.",
              greeting: "Hi! Questions about the Aurora lamp? Ask away.",
              brandColor: "#b4531a",
              // Answers first: the help center and the bot, from the articles below.
              answers: "bot",
              helpCenterEnabled: true,
              helpCenterTitle: "Lumen & Co. Help",
            },
          },
        },
      });
    }
    const bytes = Buffer.from(DEMO_AVATAR_PNG_BASE64, "base64");
    await tx.member.upsert({
      where: { id: DEMO_MEMBER_ID },
      create: {
        id: DEMO_MEMBER_ID,
        name: "Mira from Lumen & Co.",
        bot: true,
        avatarBytes: new Uint8Array(bytes),
        avatarContentType: "image/png",
        avatarTag: createHash("sha256").update(bytes).digest("hex"),
        shownInWidget: true,
      },
      update: {},
    });
    // The demo's articles, once: a demo site made before articles existed gets them (and the bot and
    // help center that use them) the first time it is seeded after; an operator's later changes stay.
    if ((await tx.article.count({ where: { siteId: DEMO_SITE_ID } })) === 0) {
      const now = new Date();
      await tx.article.createMany({
        data: DEMO_ARTICLES.map((article) => ({ ...article, id: `art_demo_${article.slug}`, siteId: DEMO_SITE_ID, locale: "en", status: "published", publishedAt: now })),
      });
      if (site) await tx.site.update({ where: { id: DEMO_SITE_ID }, data: { answers: "bot", helpCenterEnabled: true, helpCenterTitle: "Lumen & Co. Help" } });
    }
  });
}

/** What the demo's bot answers from (lib/answers): price, shipping and returns. */
export const DEMO_ARTICLES = [
  {
    slug: "shipping",
    title: "How long does shipping take?",
    collection: "Orders",
    body: "Orders leave our warehouse within one business day, and shipping usually takes 3–5 business days. You get a tracking link by email as soon as your lamp ships.\n\n## How much does shipping cost?\n\nShipping is free on orders over $50; below that it's a flat $5.95.",
  },
  {
    slug: "price",
    title: "What does the Aurora lamp cost?",
    collection: "The lamp",
    body: "The Aurora lamp costs $89, and there's free shipping on orders over $50.\n\nThe price includes the USB-C cable and a two-year warranty.",
  },
  {
    slug: "returns",
    title: "Returns and refunds",
    collection: "Orders",
    body: "You can return your lamp within 30 days and get a full refund — no questions asked. Write to us from the chat and we send a prepaid return label.\n\nThe refund reaches your account within 5 business days of the return arriving.",
  },
];

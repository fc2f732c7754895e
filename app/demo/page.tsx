import type { Metadata } from "next";
import { currentDemoOrigins } from "@/lib/seed/seed-demo";
import styles from "./demo.module.css";
import { OriginHint, requestedOrigin } from "./origin-hint";

// Read at each request: the hint compares the page's address with the demo site's allowlist as it is now.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Aurora Lamp — Lumen & Co. (Parley demo)",
  description: "A sample customer site that embeds the Parley chat widget.",
};

const FEATURES = [
  ["Warm to daylight", "Tune the colour from 2,700 K to 6,500 K with one dial."],
  ["Twelve hours on a charge", "USB-C, with a battery that lasts an evening — or three."],
  ["Made to be repaired", "Every part is screwed, not glued, and sold separately."],
];

/** The demo site's allowed origins (null: no demo site), or undefined when the database cannot say: then no hint. */
async function allowedOrigins(): Promise<string[] | null | undefined> {
  try {
    return await currentDemoOrigins();
  } catch {
    return undefined;
  }
}

export default async function DemoShop() {
  const [allowed, origin] = await Promise.all([allowedOrigins(), requestedOrigin()]);
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <span className={styles.brand}>Lumen &amp; Co.</span>
        <nav aria-label="Shop">
          <a href="#features">Features</a> <a href="#faq">Shipping</a>
        </nav>
      </header>

      <main className={styles.main}>
        {allowed !== undefined && origin && <OriginHint origin={origin} allowed={allowed} />}
        <section className={styles.hero} aria-labelledby="product-title">
          <div className={styles.lamp} aria-hidden="true">
            <div className={styles.shade} />
            <div className={styles.stem} />
            <div className={styles.base} />
          </div>
          <div>
            <p className={styles.kicker}>New · Table lamp</p>
            <h1 id="product-title">Aurora Lamp</h1>
            <p className={styles.lead}>A cordless lamp with a light you can tune from candle-warm to crisp daylight.</p>
            <p className={styles.price}>$89</p>
            <button className={styles.buy} type="button">
              Add to cart
            </button>
            <p className={styles.hint}>Questions? Use the chat button in the corner — Mira, our assistant, answers in seconds.</p>
          </div>
        </section>

        <section id="features" className={styles.features} aria-label="Features">
          {FEATURES.map(([title, text]) => (
            <article key={title}>
              <h2>{title}</h2>
              <p>{text}</p>
            </article>
          ))}
        </section>

        <section id="faq" className={styles.faq}>
          <h2>Shipping &amp; returns</h2>
          <p>Free shipping over $50. Orders leave within one business day. Returns within 30 days.</p>
        </section>
      </main>

      <footer className={styles.footer}>
        This is a demo customer site for <a href="/">Parley</a>. The chat widget below is embedded with one tag:
        <code>{'<script src="/widget.js" data-site="demo" async></script>'}</code>
      </footer>

      <script src="/widget.js" data-site="demo" async />
    </div>
  );
}

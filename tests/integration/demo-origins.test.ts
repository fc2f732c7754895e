import type { NetworkInterfaceInfo } from "node:os";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test, vi } from "vitest";
import { OriginHint, widgetRefuses } from "../../app/demo/origin-hint";
import { env } from "../../lib/core/env";
import { currentDemoOrigins, demoOrigins, lanOrigins, seedDemo } from "../../lib/seed/seed-demo";

// Issue 23: the demo opened at the "Network" address `next dev` prints showed no chat button (the
// demo site did not allow that origin) and said so only in the console. Under `next dev` the demo
// site now also allows this machine's network addresses; wherever the page's origin is still not
// allowed, the page says so, with what to do.

const address = (address: string, family: "IPv4" | "IPv6", internal = false) =>
  ({ address, family, internal, netmask: "", mac: "", cidr: null, ...(family === "IPv6" ? { scopeid: 0 } : {}) }) as NetworkInterfaceInfo;

// This machine's interfaces, as the tests see them: nothing here sends a request to any of them.
const INTERFACES = {
  lo: [address("127.0.0.1", "IPv4", true), address("::1", "IPv6", true)],
  eth0: [address("192.168.1.20", "IPv4"), address("fe80::a00:27ff:fe4e:66a1", "IPv6"), address("2001:DB8::5", "IPv6")],
  wlan0: [address("10.0.0.7", "IPv4")],
};
vi.mock("node:os", async (original) => ({ ...(await original<typeof import("node:os")>()), networkInterfaces: () => INTERFACES }));

describe("the demo site's origins", () => {
  test("next dev serves its scripts to pages opened at this machine's network addresses (allowedDevOrigins)", async () => {
    const { default: nextConfig, ownNetworkHosts } = await import("../../next.config.mjs");
    expect(ownNetworkHosts(INTERFACES)).toEqual(["192.168.1.20", "[2001:db8::5]", "10.0.0.7"]);
    expect(nextConfig.allowedDevOrigins).toEqual(ownNetworkHosts());
  });

  test("this machine's network addresses: non-loopback, IPv6 without link-local, at the port", () => {
    expect(lanOrigins(3000, INTERFACES)).toEqual(["http://192.168.1.20:3000", "http://[2001:db8::5]:3000", "http://10.0.0.7:3000"]);
    expect(lanOrigins(3000, {})).toEqual([]);
  });

  test("seeded without them by default (npm start, next start, npm run db:migrate); with lan (next dev) they are added", async () => {
    const port = env().PORT;
    await seedDemo();
    expect(await currentDemoOrigins()).toEqual(demoOrigins());
    expect(demoOrigins()).toEqual([`http://localhost:${port}`, `http://127.0.0.1:${port}`]);

    await seedDemo({ lan: true });
    expect(await currentDemoOrigins()).toEqual([...demoOrigins(), `http://192.168.1.20:${port}`, `http://[2001:db8::5]:${port}`, `http://10.0.0.7:${port}`]);
  });

  test("the server's start seeds them under next dev only (embedded mode, where it seeds), never in production", async () => {
    for (const [NODE_ENV, lan] of [["production", false], ["development", true]] as const) {
      vi.resetModules(); // a fresh configuration for each way of starting
      vi.stubEnv("NODE_ENV", NODE_ENV);
      vi.stubEnv("NOTIFICATION_WORKER", "off");
      const service = await import("../../lib/prepare-service");
      const seed = await import("../../lib/seed/seed-demo");
      const { db, isEmbeddedDatabase } = { ...(await import("../../lib/db/client")), ...(await import("../../lib/core/env")) };
      await (await db()).site.updateMany({ where: { id: "demo" }, data: { origins: seed.demoOrigins() } });
      vi.spyOn(process.stdout, "write").mockImplementation(() => true); // the setup link and the operator token
      try {
        await service.prepareServerStart();
        const origins = (await seed.currentDemoOrigins()) ?? [];
        expect(origins.includes(`http://192.168.1.20:${env().PORT}`), NODE_ENV).toBe(lan && isEmbeddedDatabase());
      } finally {
        vi.mocked(process.stdout.write).mockRestore();
        await service.closeServerResources();
        vi.unstubAllEnvs();
      }
    }
  });
});

describe("the demo page's hint", () => {
  const hint = (origin: string, allowed: string[] | null) => renderToStaticMarkup(createElement(OriginHint, { origin, allowed }));
  const allowed = ["http://localhost:3000", "http://127.0.0.1:3000"];

  test("says nothing where the widget is allowed", () => {
    expect(hint("http://localhost:3000", allowed)).toBe("");
    // Behind a proxy that does not report https, the page looks like http: no false alarm.
    expect(widgetRefuses("http://chat.example.com", ["https://chat.example.com"])).toBe(false);
    expect(widgetRefuses("http://192.168.1.20:3000", allowed)).toBe(true);
    expect(widgetRefuses("http://localhost:3001", allowed)).toBe(true);
  });

  test("elsewhere says why there is no chat button, where it works, and how to allow this address", () => {
    const html = hint("http://mybox.local:3000", allowed);
    expect(html).toContain("No chat button at this address.");
    expect(html).toContain("this page is at <code>http://mybox.local:3000</code>");
    expect(html).toContain("<code>http://localhost:3000</code>, <code>http://127.0.0.1:3000</code>");
    expect(html).toContain('<a href="http://localhost:3000/demo">');
    expect(html).toContain("curl -X PATCH http://mybox.local:3000/api/v1/admin/sites/demo");
    expect(html).toContain(`-d &#x27;{&quot;origins&quot;:[&quot;http://localhost:3000&quot;,&quot;http://127.0.0.1:3000&quot;,&quot;http://mybox.local:3000&quot;]}&#x27;`);
  });

  test("without a demo site (PostgreSQL), says how to create one for this address", () => {
    const html = hint("https://chat.example.com", null);
    expect(html).toContain("no <code>demo</code> site");
    expect(html).toContain("curl -X POST https://chat.example.com/api/v1/admin/sites");
    expect(html).toContain("&quot;origins&quot;:[&quot;https://chat.example.com&quot;]");
  });
});

import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgliteSession, runMigrations } from "../lib/db/migrations";
import { WEBHOOK_EVENTS } from "../lib/contracts/webhooks";
import { SmtpCapture } from "../tests/support/smtp-capture";
import { WebhookReceiver } from "../tests/support/webhook-receiver";
import { send } from "./load";
import type { BenchOptions, DatabaseKind } from "./options";
import { startProcess, stopProcess, waitForHttp } from "./processes";
import { BENCH_MEMBER, onPostgres, seedBench, type Widget } from "./seed";

// What the bench measures: the production server (`npm start`) on a scratch PostgreSQL database,
// the same with webhooks and email configured (a local receiver and SMTP server), or in embedded
// mode on a fresh PGlite directory; seeded, with the bare baseline beside it on PostgreSQL.

const root = path.resolve(import.meta.dirname, "..");

export interface Deployment {
  label: string;
  database: DatabaseKind;
  notifications: boolean;
  port: number;
  service: ChildProcess;
  /** The bare baseline on the same database (PostgreSQL only). */
  baselinePort: number | null;
  baselinePid: number | null;
  widgets: Widget[];
  /** PostgreSQL only: the scratch database. */
  url: string | null;
  adminToken: string;
  /** Webhook requests and emails received so far (with notifications). */
  delivered(): { webhooks: number; emails: number } | null;
  /** More instances of the service on the same database (PostgreSQL), on the next ports. */
  addInstances(count: number, extraEnv?: Record<string, string>): Promise<{ ports: number[]; pids: number[]; stop(): Promise<void> }>;
  stop(): Promise<void>;
}

// Connections per instance, the service's and the baseline's alike. An instance holding 12,500
// open widgets turns each pooled connection around only once per event-loop turn, and 10 of them
// could not keep up (docs/performance.md, step 21).
export const BENCH_POOL_SIZE = 25;

export async function deploy(options: BenchOptions, kind: { database: DatabaseKind; notifications: boolean; seed: number; port: number }): Promise<Deployment> {
  const adminToken = `bench-admin-${randomBytes(12).toString("hex")}`;
  const log = (line: string) => options.verbose && process.stderr.write(line);
  const base = {
    ADMIN_TOKEN: adminToken,
    RATE_LIMITS: "off",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "error",
    NODE_ENV: "production",
    DATABASE_POOL_SIZE: String(BENCH_POOL_SIZE),
  };
  const cleanups: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    if (kind.database === "embedded") {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "parley-bench-"));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      // Seeded before the service opens the directory: PGlite is one process's database.
      const pglite = await PGlite.create(path.join(dataDir, "pglite"));
      await runMigrations(pgliteSession(pglite));
      const widgets = await seedBench(pglite, kind.seed);
      await pglite.close();
      const service = startProcess(process.execPath, serverCommand(options, kind.port), { ...base, DATA_DIR: dataDir, PORT: String(kind.port) }, log);
      cleanups.push(() => stopProcess(service));
      await waitForHttp(kind.port);
      return {
        label: "embedded (PGlite)",
        ...kind,
        service,
        baselinePort: null,
        baselinePid: null,
        widgets,
        url: null,
        adminToken,
        delivered: () => null,
        addInstances: () => Promise.reject(new Error("embedded mode is one process")),
        stop,
      };
    }
    const name = `parley_bench_${Date.now()}_${kind.port}`;
    await onPostgres(options.postgresServer, (client) => client.query(`CREATE DATABASE "${name}"`));
    cleanups.push(() => onPostgres(options.postgresServer, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}));
    const url = Object.assign(new URL(options.postgresServer), { pathname: `/${name}` }).toString();
    const env: Record<string, string> = { ...base, DATABASE_URL: url };
    let receiver: WebhookReceiver | null = null;
    let smtp: SmtpCapture | null = null;
    if (kind.notifications) {
      receiver = await new WebhookReceiver().start();
      smtp = await new SmtpCapture().start();
      cleanups.push(() => receiver!.stop(), () => smtp!.stop());
      Object.assign(env, { SMTP_URL: smtp.url, MAIL_FROM: "Parley bench <bench@bench.example>", WEBHOOK_ALLOW_PRIVATE_TARGETS: "on" });
    }
    const service = startProcess(process.execPath, serverCommand(options, kind.port), { ...env, PORT: String(kind.port) }, log);
    cleanups.push(() => stopProcess(service));
    const baselinePort = kind.port + 1;
    const baseline = startProcess(process.execPath, [...options.nodeArgs, "--import", "tsx", path.join(root, "bench/baseline/server.ts")], { DATABASE_URL: url, PORT: String(baselinePort), DATABASE_POOL_SIZE: String(BENCH_POOL_SIZE) }, log);
    cleanups.push(() => stopProcess(baseline));
    await waitForHttp(kind.port); // the service migrates at start; seed only after it answers
    await waitForHttp(baselinePort);
    const widgets = await seedBench(url, kind.seed);
    if (kind.notifications) {
      // Every event to the receiver, and the staff member alerted by email when a visitor writes.
      await onPostgres(url, (client) => client.query(`UPDATE members SET email = 'agent@bench.example' WHERE id = $1`, [BENCH_MEMBER]));
      const hook = await send(
        kind.port,
        {
          method: "POST",
          path: "/api/v1/admin/webhooks",
          headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
          body: JSON.stringify({ url: receiver!.url, events: WEBHOOK_EVENTS }),
        },
        new http.Agent(),
      );
      if (hook.status !== 201) throw new Error(`registering the bench webhook: ${hook.status} ${hook.body}`);
    }
    return {
      label: kind.notifications ? "PostgreSQL, webhooks + email" : "PostgreSQL",
      ...kind,
      service,
      baselinePort,
      baselinePid: baseline.pid ?? null,
      widgets,
      url,
      adminToken,
      delivered: () => (receiver && smtp ? { webhooks: receiver.received.length, emails: smtp.mails.length } : null),
      addInstances: async (count, extraEnv = {}) => {
        const ports = Array.from({ length: count }, (_, i) => kind.port + 2 + i);
        const extra = ports.map((port) => startProcess(process.execPath, serverCommand(options, port), { ...env, ...extraEnv, PORT: String(port) }, log));
        await Promise.all(ports.map((port) => waitForHttp(port)));
        return { ports, pids: extra.map((child) => child.pid!), stop: () => Promise.all(extra.map(stopProcess)).then(() => {}) };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `npm start` (scripts/start.mjs), or with BENCH_SERVER=next-start Next's own server, to compare. */
function serverCommand(options: BenchOptions, port: number): string[] {
  if (options.server === "next-start") return [...options.nodeArgs, path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port)];
  return [...options.nodeArgs, path.join(root, "scripts/start.mjs")];
}

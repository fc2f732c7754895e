import { randomBytes, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import type { SqlExecutor } from "../lib/db/client";
import { hashPassword } from "../lib/staff/passwords";
import { sha256Hex } from "../lib/staff/secrets";
import { send } from "./load";
import { startProcess, stopProcess, waitForHttp } from "./processes";

// The search over HTTP (issue 43, item 2): the production server (`npm start`) on the database the
// search bench seeded, asked as a signed-in member with a session cookie, through the envelope and
// the inbox's route (rate limits off, as in every bench), so the transport's share shows beside the
// in-process figures.

const root = path.resolve(import.meta.dirname, "..");

/** A session for `memberId` written straight into the database (a password set, so it may sign in); its cookie. */
export async function sessionCookie(sql: SqlExecutor, memberId: string): Promise<string> {
  await sql.executeSql(`UPDATE members SET password_hash = $2 WHERE id = $1 AND password_hash IS NULL`, [memberId, await hashPassword("bench password 123")]);
  const token = `ps_${randomBytes(32).toString("base64url")}`;
  await sql.executeSql(`INSERT INTO staff_sessions (id, token_hash, member_id, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')`, [
    randomUUID(),
    sha256Hex(token),
    memberId,
  ]);
  return `parley_session=${token}`;
}

/** `npm start` on `databaseUrl` at `port`, once it answers; stop() ends it. */
export async function startProductionServer(databaseUrl: string, port: number): Promise<{ stop(): Promise<void> }> {
  if (!existsSync(path.join(root, ".next/BUILD_ID"))) throw new Error("--http measures the production server: run `npm run build` first");
  const server = startProcess(process.execPath, [path.join(root, "scripts/start.mjs")], {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    ADMIN_TOKEN: `bench-admin-${randomBytes(12).toString("hex")}`,
    RATE_LIMITS: "off",
    LOG_LEVEL: "error",
  });
  try {
    await waitForHttp(port, 120_000);
  } catch (error) {
    await stopProcess(server);
    throw error;
  }
  return { stop: () => stopProcess(server) };
}

/** GET /api/v1/inbox/search with these parameters as the cookie's member, one at a time on a kept-alive connection; anything but a 200 throws. */
export function searchOverHttp(port: number, cookie: string): (params: Record<string, string>) => Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return async (params) => {
    const path = `/api/v1/inbox/search?${new URLSearchParams(params)}`;
    const answer = await send(port, { method: "GET", path, headers: { Cookie: cookie } }, agent);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body.slice(0, 200)}`);
  };
}

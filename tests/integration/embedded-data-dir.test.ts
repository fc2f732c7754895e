import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { backupEmbedded, restoreEmbedded } from "../../lib/backup/embedded-backup";
import { closeDatabase, db } from "../../lib/db/client";
import { startNotificationWorker } from "../../lib/notifications/worker";
import { readKeyFile } from "../../lib/secrets/key-file";
import { keyring, keyringFrom } from "../../lib/secrets/keyring";
import { openSecret } from "../../lib/secrets/seal";
import { resealSecrets } from "../../lib/secrets/reseal";
import { rotateSecrets } from "../../lib/secrets/rotate";
import { serviceSigningSecret } from "../../lib/secrets/signing-secret";
import { api } from "../support/api";
import { everyRow } from "../support/every-row";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN, startConversation } from "../support/fixtures";
import { file, fileTicket, filesUnder, PNG_BYTES, putUpload, ticket } from "../support/tickets";
import { testDatabaseUrl } from "../support/postgres";
import { eventually, WebhookReceiver } from "../support/webhook-receiver";

// Issue 29 on one embedded instance on disk (creating one costs seconds, so both share it):
// - item 4, secrets sealed at rest: without SECRET_KEY the key file is created under DATA_DIR
//   (0600); no secret's bytes appear anywhere under DATA_DIR; rotating the key keeps identity
//   hashes verifying and webhooks signing;
// - item 6, backups: `npm run backup` of the populated instance, restored into a fresh DATA_DIR,
//   holds every row and file, and its key file opens the sealed secrets.
// (On PostgreSQL: postgres-dump.test.ts.)

const embedded = !testDatabaseUrl();
if (!embedded) console.log("embedded-data-dir: skipped (embedded PGlite only)");
const dataDir = mkdtempSync(path.join(tmpdir(), "parley-secrets-"));
if (embedded) {
  process.env.DATA_DIR = dataDir;
  process.env.UPLOADS_DIR = path.join(dataDir, "uploads"); // the default layout
  delete process.env.SECRET_KEY;
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "on";
}
// Creating a database on disk (initdb, then every migration) takes seconds: set up, not tested.
beforeAll(async () => {
  if (embedded) await db();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const hmac = (secret: string, userId: string) => createHmac("sha256", secret).update(userId).digest("hex");
const start = (siteId: string, body: Record<string, unknown>) => api.post(`/api/v1/chat/widget/${siteId}/conversations`, { origin: ORIGIN, body });

/** The files under DATA_DIR holding these bytes. */
const filesHolding = (bytes: Buffer) => filesUnder(dataDir).filter((file) => readFileSync(path.join(dataDir, file)).includes(bytes));

async function identitySecretFor(siteId: string): Promise<string> {
  return (await api.post(`/api/v1/admin/sites/${siteId}/identity-secret`, { admin: true })).json.result.identity_secret;
}

async function storedSecrets() {
  const prisma = await db();
  const sites = await prisma.site.findMany({ where: { identitySecret: { not: null } }, select: { identitySecret: true } });
  const webhooks = await prisma.webhook.findMany({ select: { secret: true } });
  const settings = await prisma.setting.findMany({ where: { key: "upload_signing_secret" } });
  return [...sites.map((site) => site.identitySecret!), ...webhooks.map((hook) => hook.secret), ...settings.map((row) => row.value)];
}

describe.runIf(embedded)("secrets sealed at rest (embedded, key file)", () => {
  test("no secret's bytes are anywhere under DATA_DIR; the key file is 0600; the site's name is (the grep can find)", async () => {
    const site = await createSite();
    const identitySecret = await identitySecretFor(site.id);
    const webhook = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url: "http://127.0.0.1:9/hook", events: ["conversation.started"] } });
    const webhookSecret = webhook.json.result.secret as string;
    const uploadSecret = await serviceSigningSecret();
    expect((await start(site.id, { user_id: "u1", user_hash: hmac(identitySecret, "u1") })).status).toBe(201);
    await closeDatabase(); // PGlite writes everything to DATA_DIR

    expect(statSync(path.join(dataDir, "secret.key")).mode & 0o777).toBe(0o600);
    expect(filesHolding(Buffer.from(site.id)).length).toBeGreaterThan(0);
    for (const bytes of [identitySecret, identitySecret.slice(4), webhookSecret, webhookSecret.slice(6), uploadSecret].map((text) => Buffer.from(text))) {
      expect(filesHolding(bytes)).toEqual([]);
    }
    expect(filesHolding(Buffer.from(webhookSecret.slice(6), "base64"))).toEqual([]);
    expect((await storedSecrets()).every((stored) => stored.startsWith(`sealed:v1:${keyring().current.id}:`))).toBe(true);
  });

  test("a sealed secret copied to another site, or altered, fails closed: 403 identity_invalid, not a 500", async () => {
    const [first, second] = [await createSite(), await createSite()];
    const secret = await identitySecretFor(first.id);
    await identitySecretFor(second.id);
    const prisma = await db();
    const { identitySecret: sealed } = await prisma.site.findUniqueOrThrow({ where: { id: first.id } });
    await prisma.site.update({ where: { id: second.id }, data: { identitySecret: sealed } });
    expectError(await start(second.id, { user_id: "u1", user_hash: hmac(secret, "u1") }), 403, "identity_invalid");

    const altered = `${sealed!.slice(0, -3)}${sealed!.at(-3) === "A" ? "B" : "A"}${sealed!.slice(-2)}`;
    await prisma.site.update({ where: { id: first.id }, data: { identitySecret: altered } });
    expectError(await start(first.id, { user_id: "u1", user_hash: hmac(secret, "u1") }), 403, "identity_invalid");
    await prisma.site.updateMany({ where: { id: { in: [first.id, second.id] } }, data: { identitySecret: null } });
  });

  test("a secret stored in the clear by an older version still verifies, and the start's step seals it once", async () => {
    const site = await createSite();
    const legacy = "ids_stored-before-sealing-existed-0123456789";
    await (await db()).site.update({ where: { id: site.id }, data: { identitySecret: legacy } });
    expect((await start(site.id, { user_id: "u2", user_hash: hmac(legacy, "u2") })).status).toBe(201);
    expect((await resealSecrets({ rotate: false })).sealed).toBe(1);
    expect(await resealSecrets({ rotate: false })).toEqual({ sealed: 0, resealed: 0, unreadable: [] });
    const { identitySecret } = await (await db()).site.findUniqueOrThrow({ where: { id: site.id } });
    expect(identitySecret).toMatch(/^sealed:v1:/);
    expect((await start(site.id, { user_id: "u2", user_hash: hmac(legacy, "u2") })).status).toBe(201);
  });

  test("npm run secrets:rotate re-seals everything under a new key; identity hashes verify and webhooks sign after it", async () => {
    const prisma = await db();
    await prisma.webhook.deleteMany({});
    const receiver = await new WebhookReceiver().start();
    const [site, copied] = [await createSite(), await createSite()];
    const identitySecret = await identitySecretFor(site.id);
    const { identitySecret: sealed } = await prisma.site.findUniqueOrThrow({ where: { id: site.id } });
    await prisma.site.update({ where: { id: copied.id }, data: { identitySecret: sealed } });
    const created = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url: receiver.url, events: ["conversation.started"] } });
    receiver.useSecret(created.json.result.secret);
    const oldKeyFile = readFileSync(path.join(dataDir, "secret.key"), "utf8");
    const oldId = keyring().current.id;

    const rotation = await rotateSecrets();
    expect(rotation.keyId).not.toBe(oldId);
    expect(rotation.resealed).toBeGreaterThanOrEqual(3); // this site's, the webhook's, the upload secret
    expect(rotation.unreadable).toEqual([{ table: "sites", column: "identity_secret", id: copied.id }]); // left as it was
    await prisma.site.update({ where: { id: copied.id }, data: { identitySecret: null } });
    const keyFile = readFileSync(path.join(dataDir, "secret.key"), "utf8");
    expect(keyFile.trim().split("\n")).toHaveLength(1);
    expect(keyFile).not.toContain(oldKeyFile.trim().split("\n")[0]);
    expect((await storedSecrets()).every((stored) => stored.startsWith(`sealed:v1:${rotation.keyId}:`))).toBe(true);

    await closeDatabase(); // a restart: only the files remain
    expect((await start(site.id, { user_id: "u3", user_hash: hmac(identitySecret, "u3") })).status).toBe(201);
    const worker = await startNotificationWorker({ timings: { dispatchPollMs: 50 } });
    try {
      await eventually(() => expect(receiver.received.length).toBeGreaterThan(0)); // this test's start, and earlier tests' waiting
      expect(receiver.received.every((request) => request.verified)).toBe(true);
    } finally {
      await worker.stop();
      await receiver.stop();
    }
  });
});

/** Every row of every table, read straight from a PGlite data directory. */
async function everyRowIn(databaseDir: string): Promise<Record<string, string>> {
  const pglite = await PGlite.create(databaseDir);
  try {
    return await everyRow(async <Row>(sql: string) => (await pglite.query<Row>(sql)).rows);
  } finally {
    await pglite.close();
  }
}

describe.runIf(embedded)("npm run backup and npm run restore (embedded)", () => {
  test("a populated instance, restored into a fresh DATA_DIR, has every row and file; its key file opens the secrets", async () => {
    const site = await createSite();
    const identitySecret = await identitySecretFor(site.id);
    await startConversation(site.id, { body: "Where is my lamp?", client_id: "backup-1" });
    const { uploads } = await fileTicket(site.id, ticket({ files: [file()] }));
    expect((await putUpload(uploads[0]!.upload_url, PNG_BYTES)).status).toBe(200);
    await closeDatabase(); // the service is stopped for a backup

    const archive = path.join(dataDir, "..", `${path.basename(dataDir)}-backup.tar.gz`);
    const restoredDir = mkdtempSync(path.join(tmpdir(), "parley-restored-"));
    try {
      const paths = { dataDir, uploadsDir: path.join(dataDir, "uploads") };
      expect(await backupEmbedded(paths, archive)).toMatchObject({ uploads: true, key_file: true });
      expect(statSync(archive).mode & 0o777).toBe(0o600);
      const restored = { dataDir: restoredDir, uploadsDir: path.join(restoredDir, "uploads") };
      await restoreEmbedded(archive, restored);
      await expect(restoreEmbedded(archive, restored)).rejects.toThrow(/already holds a database/);

      const original = await everyRowIn(path.join(dataDir, "pglite"));
      expect(JSON.parse(original.messages!).some((row: { body: string }) => row.body === "Where is my lamp?")).toBe(true);
      const restoredRows = await everyRowIn(path.join(restoredDir, "pglite"));
      expect(restoredRows).toEqual(original);
      const files = filesUnder(paths.uploadsDir).filter((name) => !name.startsWith(".incoming"));
      expect(files.length).toBeGreaterThan(0);
      expect(filesUnder(restored.uploadsDir)).toEqual(files);
      for (const name of files) expect(readFileSync(path.join(restored.uploadsDir, name))).toEqual(readFileSync(path.join(paths.uploadsDir, name)));

      expect(statSync(path.join(restoredDir, "secret.key")).mode & 0o777).toBe(0o600);
      const ring = keyringFrom(readKeyFile(path.join(restoredDir, "secret.key")) as [string, ...string[]]);
      const sites = JSON.parse(restoredRows.sites!) as { id: string; identity_secret: string | null }[];
      const sealed = sites.find((row) => row.id === site.id)!.identity_secret!;
      expect(openSecret(sealed, { table: "sites", column: "identity_secret", id: site.id }, ring)).toBe(identitySecret);
    } finally {
      rmSync(archive, { force: true });
      rmSync(restoredDir, { recursive: true, force: true });
    }
  });
});

import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { db } from "../../lib/db/client";
import { storedFilePath } from "../../lib/uploads/local-storage";

// One person's data in every place Parley keeps it (privacy and retention tests): a conversation
// with messages, a rating and two files (one on disk, one in S3), a ticket with a reply and a
// file, page views, an email to them and a webhook delivery about the conversation.

export interface S3Target {
  client: S3Client;
  bucket: string;
}

export interface Person {
  email: string;
  siteId: string;
  browserVisitorId: string;
  userId: string;
  conversationId: string;
  ticketId: string;
  localKey: string;
  s3Key: string;
  ticketKey: string;
  /** Bytes of the three files, by storage key. */
  files: Map<string, Buffer>;
}

/** An S3 emulator (s3rver) on loopback, with the service configured to use it; `stop` in afterAll. */
export async function startS3Emulator(bucket: string): Promise<S3Target & { stop(): Promise<void> }> {
  const directory = mkdtempSync(path.join(tmpdir(), "parley-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true"; // the pinned SDK runs on Node 20
  Object.assign(process.env, {
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "S3RVER", // s3rver's built-in account
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_FORCE_PATH_STYLE: "true",
  });
  const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
  return {
    bucket,
    client,
    async stop() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

const id = (prefix: string) => `${prefix}_${randomUUID()}`;

export async function seedPerson(
  s3: S3Target,
  options: { siteId: string; inboxId: string; memberId: string; webhookId: string; name: string; closedAt?: Date },
): Promise<Person> {
  const prisma = await db();
  const person = options.name.toLowerCase();
  const email = `${person}@example.com`;
  const browserVisitorId = `browser-${person}-${randomUUID().slice(0, 6)}`;
  const userId = `user-${person}-${randomUUID().slice(0, 6)}`;
  const conversationId = randomUUID();
  const at = options.closedAt ?? new Date();
  await prisma.conversation.create({
    data: {
      id: conversationId,
      siteId: options.siteId,
      inboxId: options.inboxId,
      origin: "https://shop.example",
      visitorId: id("v"),
      visitorName: options.name,
      visitorEmail: email.toUpperCase(), // as typed: matched case-insensitively
      userId,
      identityVerified: true,
      browserVisitorId,
      status: options.closedAt ? "closed" : "open",
      closedAt: options.closedAt ?? null,
      createdAt: at,
    },
  });
  const visitorMessage = id("msg");
  await prisma.message.createMany({
    data: [
      { id: visitorMessage, conversationId, sequence: 1, clientId: id("c"), authorType: "visitor", authorId: "v", kind: "message", body: `Hi, I am ${options.name}`, hasAttachments: true },
      { id: id("msg"), conversationId, sequence: 2, clientId: id("c"), authorType: "staff", authorId: options.memberId, memberId: options.memberId, kind: "message", body: `Hello ${options.name}` },
    ],
  });
  await prisma.conversationRating.create({ data: { id: id("rat"), conversationId, closedAt: at, score: 5, comment: `${options.name} liked it` } });

  const files = new Map<string, Buffer>();
  const localKey = `${randomBytes(1).toString("hex")}/${randomBytes(16).toString("hex")}`;
  const s3Key = `attachments/${randomBytes(16).toString("hex")}`;
  const ticketKey = `attachments/${randomBytes(16).toString("hex")}`;
  for (const key of [localKey, s3Key, ticketKey]) files.set(key, Buffer.from(`${options.name}'s file ${key}`));
  await mkdir(path.dirname(storedFilePath(localKey)), { recursive: true });
  await writeFile(storedFilePath(localKey), files.get(localKey)!);
  for (const key of [s3Key, ticketKey]) await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: files.get(key)! }));
  const fileRow = (key: string, storage: string, position: number) => ({
    id: id("att"),
    name: `${options.name} photo ${position}.txt`,
    contentType: "text/plain",
    bytes: files.get(key)!.length,
    storage,
    storageKey: key,
    uploadedAt: new Date(),
    position,
  });
  await prisma.messageAttachment.createMany({
    data: [
      { ...fileRow(localKey, "local", 0), conversationId, messageId: visitorMessage, uploaderType: "visitor" },
      { ...fileRow(s3Key, "s3", 1), conversationId, messageId: visitorMessage, uploaderType: "visitor" },
    ],
  });

  const ticketId = randomUUID();
  const inbox = await prisma.inbox.update({ where: { id: options.inboxId }, data: { lastTicketNumber: { increment: 1 } } });
  await prisma.ticket.create({
    data: { id: ticketId, siteId: options.siteId, inboxId: options.inboxId, number: inbox.lastTicketNumber, origin: "https://shop.example", name: options.name, email, subject: `${options.name}'s order`, body: "Where is it?", createdAt: at },
  });
  await prisma.ticketAttachment.create({ data: { ...fileRow(ticketKey, "s3", 0), ticketId } });
  await prisma.ticketReply.create({ data: { id: id("rep"), ticketId, memberId: options.memberId, body: `On its way, ${options.name}`, createdAt: at } });

  await prisma.pageView.createMany({
    data: [1, 2].map((n) => ({ id: id("pv"), siteId: options.siteId, origin: "https://shop.example", visitorId: browserVisitorId, pageUrl: `https://shop.example/${person}/${n}`, createdAt: at })),
  });
  await prisma.email.create({
    data: { id: id("eml"), kind: "ticket_acknowledgement", recipient: email, recipientKey: email, subject: `[#1] ${options.name}'s order`, textBody: "t", htmlBody: "h", status: "sent", siteId: options.siteId, ticketId, createdAt: at },
  });
  await prisma.webhookDelivery.create({
    data: { id: id("whd"), webhookId: options.webhookId, eventId: id("evt"), type: "conversation.started", payload: JSON.stringify({ type: "conversation.started", data: { conversation_id: conversationId, visitor: { email } } }), status: "succeeded", createdAt: at },
  });
  return { email, siteId: options.siteId, browserVisitorId, userId, conversationId, ticketId, localKey, s3Key, ticketKey, files };
}

export async function s3ObjectExists(s3: S3Target, key: string): Promise<boolean> {
  try {
    await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

/** Every row anywhere that still names the person (their email, ids, or conversation or ticket). */
export async function tracesOf(person: Person): Promise<Record<string, number>> {
  const prisma = await db();
  const count = async (sql: string, ...values: unknown[]) => Number((await prisma.$queryRawUnsafe<{ n: bigint }[]>(sql, ...values))[0]!.n);
  return {
    conversations: await count(`SELECT count(*) AS n FROM conversations WHERE id = $1 OR lower(visitor_email) = $2 OR user_id = $3`, person.conversationId, person.email, person.userId),
    messages: await count(`SELECT count(*) AS n FROM messages WHERE conversation_id = $1`, person.conversationId),
    message_attachments: await count(`SELECT count(*) AS n FROM message_attachments WHERE conversation_id = $1`, person.conversationId),
    ratings: await count(`SELECT count(*) AS n FROM conversation_ratings WHERE conversation_id = $1`, person.conversationId),
    tickets: await count(`SELECT count(*) AS n FROM tickets WHERE id = $1 OR lower(email) = $2`, person.ticketId, person.email),
    ticket_replies: await count(`SELECT count(*) AS n FROM ticket_replies WHERE ticket_id = $1`, person.ticketId),
    ticket_attachments: await count(`SELECT count(*) AS n FROM ticket_attachments WHERE ticket_id = $1`, person.ticketId),
    page_views: await count(`SELECT count(*) AS n FROM page_views WHERE visitor_id = $1`, person.browserVisitorId),
    emails: await count(`SELECT count(*) AS n FROM emails WHERE recipient_key = $1 OR ticket_id = $2`, person.email, person.ticketId),
    webhook_deliveries: await count(`SELECT count(*) AS n FROM webhook_deliveries WHERE strpos(payload, $1) > 0 OR strpos(payload, $2) > 0`, person.conversationId, person.email),
  };
}

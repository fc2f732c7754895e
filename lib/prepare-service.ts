import { ensureGeneratedAdminToken } from "./admin/admin-token";
import { db } from "./db";
import { ConfigError, env, isEmbeddedDatabase } from "./env";
import { log } from "./log";
import { seedDemo } from "./seed/seed-demo";
import { setupLinkIfNoOwner } from "./staff/invites";

/**
 * Run once when the server (or `npm run db:migrate`) starts: validate the configuration, apply
 * pending migrations, and in embedded mode seed the demo and create the operator token.
 */
export async function prepareService(): Promise<void> {
  env(); // a bad configuration fails here, naming the variable
  await db();
  if (isEmbeddedDatabase()) await prepareEmbedded();
  // While nobody can sign in to the inbox as an owner, every start offers a fresh setup link.
  const setupLink = await setupLinkIfNoOwner();
  if (setupLink) {
    process.stdout.write(`\nNo inbox owner yet. Create the first one (link valid 24 h, one use):\n  ${setupLink}\n\n`);
    log.info("inbox_setup_link_printed");
  }
}

async function prepareEmbedded(): Promise<void> {
  await seedDemo();
  const generated = await ensureGeneratedAdminToken();
  if (generated) {
    // Printed this once only; only its hash is kept. Set ADMIN_TOKEN to choose your own.
    process.stdout.write(
      `\nParley generated an operator token (shown once, keep it):\n  ADMIN_TOKEN=${generated}\n\n`,
    );
    log.info("admin_token_generated");
  }
}

/** The server's start: a bad configuration stops it; an unreachable database does not. */
export async function prepareServerStart(): Promise<void> {
  try {
    await prepareService();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    // The database may come up later: requests answer 503 meanwhile and retry the connection.
    log.error("startup_database_unavailable", { error });
  }
}

// npm run staff -- invite --email E --name N --role owner|agent
// Prints a one-time invite link to the inbox (7 days). With the embedded database, stop the
// server first (PGlite is one process's), or invite from the inbox's settings instead.
import { parseArgs } from "node:util";
import { closeDatabase } from "../lib/db/client";
import { parseWith } from "../lib/http/input";
import { AppError } from "../lib/core/errors";
import { inviteMember } from "../lib/staff/invites";
import { teamInviteBody } from "../lib/contracts/staff";

const USAGE = "usage: npm run staff -- invite --email you@example.com --name 'Your Name' --role owner|agent";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { email: { type: "string" }, name: { type: "string" }, role: { type: "string" } },
});

if (positionals[0] !== "invite") {
  console.error(USAGE);
  process.exit(2);
}

try {
  const input = parseWith(teamInviteBody, { email: values.email, name: values.name, role: values.role }, "arguments");
  const invite = await inviteMember(input);
  console.log(`Invite for ${input.email} (${input.role}), valid until ${invite.expires_at}, one use:\n  ${invite.invite_url}`);
} catch (error) {
  if (error instanceof AppError) {
    console.error(`${error.message}\n${USAGE}`);
    process.exitCode = 2;
  } else {
    throw error;
  }
} finally {
  await closeDatabase();
}

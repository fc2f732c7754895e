import { CUSTOMER_URL, SERVICE_URL } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { asStaff, axeScan, signedInStaff } from "./support/inbox";

// Teams, departments and the pre-chat form set up in Settings, as an owner coming from Crisp
// would, without the API (docs/teams.md, docs/attributes.md): the team is made with its member,
// the site offers it as a department under its own label, asks the visitor's name (required) and
// a consent line; the widget's config then carries exactly that, and the form shows it again.

test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

test("an owner makes a team in Settings and offers it in a site's pre-chat form", async ({ browser, site }) => {
  const [owner, agent] = [await signedInStaff(browser, "owner", "Tess Owner"), await signedInStaff(browser, "agent", "Ken Agent")];
  const page = owner.page;
  const teamName = `Billing ${Date.now().toString(36)}`;

  await page.goto(`${SERVICE_URL}/inbox/settings`);
  const newTeam = page.getByRole("form", { name: "Add a team" });
  await newTeam.getByLabel("Name").fill(teamName);
  await newTeam.getByLabel("New conversations").selectOption("round_robin");
  await newTeam.getByRole("checkbox", { name: "Ken Agent" }).check();
  await newTeam.getByRole("button", { name: "Create team" }).click();
  await expect(newTeam.getByRole("status")).toHaveText("Team created.");
  const team = (await asStaff<{ id: string; name: string; member_ids: string[]; assignment: string }[]>(owner, "GET", "/teams")).find((entry) => entry.name === teamName);
  expect(team).toMatchObject({ member_ids: [agent.id], assignment: "round_robin" });

  // The run has many sites: each site's card waits behind its button.
  await page.getByRole("region", { name: `Teams and pre-chat form (${site.id})` }).getByRole("button", { name: "Edit teams and pre-chat form" }).click();
  const intake = page.getByRole("form", { name: `Teams and pre-chat form (${site.id})` });
  await intake.getByLabel("New conversations and tickets go to").selectOption(team!.id);
  await intake.getByRole("checkbox", { name: `Offer ${teamName}` }).check();
  await intake.getByLabel(`Label for ${teamName}`).fill("Invoices and refunds");
  await intake.getByRole("checkbox", { name: "Ask Name" }).check();
  await intake.getByRole("checkbox", { name: "Name is required" }).check();
  await intake.getByLabel("Consent line (empty: none)").fill("I agree that this chat is kept to answer me.");
  await intake.getByRole("button", { name: "Save teams and form" }).click();
  await expect(intake.getByRole("status")).toHaveText("Saved.");

  const config = await (await fetch(`${SERVICE_URL}/api/v1/chat/widget/${site.id}/config`, { headers: { Origin: CUSTOMER_URL } })).json();
  expect(config.result.departments).toEqual([{ team_id: team!.id, label: "Invoices and refunds" }]);
  expect(config.result.prechat).toMatchObject({
    fields: [{ key: "name", required: true }],
    consent: { text: "I agree that this chat is kept to answer me.", required: false },
  });

  await page.reload();
  await page.getByRole("region", { name: `Teams and pre-chat form (${site.id})` }).getByRole("button", { name: "Edit teams and pre-chat form" }).click();
  const saved = page.getByRole("form", { name: `Teams and pre-chat form (${site.id})` });
  await expect(saved.getByLabel("New conversations and tickets go to")).toHaveValue(team!.id);
  await expect(saved.getByRole("checkbox", { name: `Offer ${teamName}` })).toBeChecked();
  await expect(saved.getByRole("checkbox", { name: "Ask Email" })).not.toBeChecked();
  await axeScan(page, "Settings with a team and a pre-chat form", `[id="intake-${site.id}-form"]`);
  await axeScan(page, "Settings' teams section", `section[aria-labelledby="teams-settings-title"]`);
});

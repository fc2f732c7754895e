-- Single sign-on (lib/staff/sso): the provider's account a member signed in with, as
-- `<issuer> <sub>`. Set on the first sign-in through the provider (matched by verified email), then
-- the only account that may sign in as this member by SSO.
ALTER TABLE "members" ADD COLUMN "sso_subject" TEXT;
CREATE UNIQUE INDEX "members_sso_subject_key" ON "members" ("sso_subject");

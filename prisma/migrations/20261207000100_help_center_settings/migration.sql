-- Site settings of round 4 (decisions.md, "Help center (self-service)" and "Answers and the human
-- handoff"; docs/answers.md): the public help center (off by default; its title, null: the
-- widget's title or the site's name) and how the site answers first (`off`, `suggest`, `bot`).
ALTER TABLE "sites" ADD COLUMN "help_center_enabled" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "sites" ADD COLUMN "help_center_title" TEXT;
ALTER TABLE "sites" ADD COLUMN "answers" TEXT NOT NULL DEFAULT 'off';
ALTER TABLE "sites" ADD CONSTRAINT "sites_answers_check" CHECK ("answers" IN ('off', 'suggest', 'bot'));

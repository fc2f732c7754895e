-- Transcripts (issue 28): up to which public message the visitor was last emailed a transcript
-- (null: never), so asking again with nothing new said sends nothing.
ALTER TABLE "visitor_follow_ups" ADD COLUMN "transcript_sequence" INTEGER;

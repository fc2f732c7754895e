import { accepted } from "@/lib/http/envelope";
import { defineRoute, visitorRoute } from "@/lib/api/route";
import { transcriptBody } from "@/lib/contracts/transcripts";
import { emailTranscript } from "@/lib/email/transcripts";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("visitor", {
  POST: visitorRoute({ body: transcriptBody }, async ({ visitor }) =>
    accepted(await emailTranscript(visitor.conversation.id), "The transcript will be emailed."),
  ),
});

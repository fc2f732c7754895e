import { inboundCounts } from "../../../contracts/suppressions";
import { routes } from "../../operation";

export const inboxInboundCounts = routes({
  "v1/inbox/inbound-counts": {
    GET: {
      summary: "Inbound emails of the last 30 days by outcome and reason (owners)",
      description:
        "What became of the mail that reached the reply domain: replies accepted, refusals (invalid_token, sender_mismatch, dmarc_fail, …), automatic mail ignored, bounces and complaints taken (`accepted` with reason `hard_bounce` or `complaint`).",
      extension: true,
      answers: { 200: inboundCounts },
    },
  },
});

import { rateConversationBody, rating } from "../../../contracts/ratings";
import { routes } from "../../operation";

export const visitorRating = routes({
  "v1/chat/visitor/rating": {
    POST: {
      summary: "Rate the conversation after a close (round 3)",
      description:
        "Once per close: again after the next close. 409 `rating_closed` while the conversation is open or when this close was already rated. " +
        "Emails after a close carry one-click links to /api/v1/chat/rate (HTML pages for people, not in this document: GET confirms, POST records under these rules; docs/api.md).",
      extension: true,
      body: rateConversationBody,
      answers: { 201: rating },
      errors: ["rating_closed"],
    },
  },
});

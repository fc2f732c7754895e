// English for the rating and the transcript offered after a close: the rating chunk's own strings (strings.ts, "parts").
export const RATING_EN = {
  rateAsk: "How was this conversation?",
  rate1: "Very bad",
  rate2: "Bad",
  rate3: "Okay",
  rate4: "Good",
  rate5: "Very good",
  rateComment: "Anything to add? (optional)",
  rateSend: "Send rating",
  rateThanks: "Thank you for your rating!",
  transcriptOffer: "Email me this conversation",
  transcriptSent: "Sent to your email",
  transcriptNoEmail: "We have no email address for this conversation.",
};

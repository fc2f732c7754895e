// English for the answers chunk (strings.ts "parts"): bot mode's "Talk to a person" and a bot
// answer's sources; with the help center on, the articles suggested as the visitor types and the
// article read inside the panel.
export const ANSWERS_EN = {
  talkToPerson: "Talk to a person",
  personWillAnswer: "A person will answer here.",
  sources: "Source",
  suggestedArticles: "Suggested articles",
  articleBack: "Back",
  articleHelpful: "Was this helpful?",
  articleYes: "Yes",
  articleNo: "No",
  articleThanks: "Thanks for telling us.",
  stillNeedHelp: "Still need help?",
  chatWithUs: "Chat with us",
};

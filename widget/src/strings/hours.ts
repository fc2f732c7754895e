// English for "we're back …" outside service hours: the hours chunk's own strings (strings.ts, "parts").
export const HOURS_EN = {
  backToday: "We're back today at {time}.",
  backTomorrow: "We're back tomorrow at {time}.",
  backOn: "We're back {day} at {time}.",
};

// English for the department picker and the pre-chat form: the prechat chunk's own strings (strings.ts, "parts").
export const PRECHAT_EN = {
  preDepartment: "Who would you like to talk to?",
  preName: "Name",
  preEmail: "Email",
  preYes: "Yes",
  preNo: "No",
  preStart: "Start the chat",
};

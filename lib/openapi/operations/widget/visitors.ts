import { pageViewBody } from "../../../contracts/page-views";
import { routes } from "../../operation";

export const widgetVisitors = routes({
  "v1/chat/widget/[siteID]/visitors": {
    POST: {
      summary: "Record a page view",
      body: pageViewBody,
      answers: { 201: null },
    },
  },
});

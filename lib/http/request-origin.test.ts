import { describe, expect, test } from "vitest";
import { serviceOrigin } from "../core/env";
import { requestOrigin } from "./request-origin";

const request = (headers: Record<string, string>) => new Request("http://localhost:3000/api/v1/chat/visitor/messages", { headers });

describe("requestOrigin", () => {
  test("is the Origin header when there is one", () => {
    expect(requestOrigin(request({ Origin: "https://shop.example", "Sec-Fetch-Site": "same-origin" }))).toBe("https://shop.example");
  });

  test("is the service's public origin for a browser's same-origin GET, which carries no Origin", () => {
    expect(requestOrigin(request({ "Sec-Fetch-Site": "same-origin" }))).toBe(serviceOrigin());
    // Whatever internal address the request arrived on (a proxy, the front of npm start).
    const internal = new Request("http://localhost/api/v1/chat/visitor/presence", { headers: { "Sec-Fetch-Site": "same-origin" } });
    expect(requestOrigin(internal)).toBe(serviceOrigin());
  });

  test.each<Record<string, string>>([{}, { "Sec-Fetch-Site": "cross-site" }, { "Sec-Fetch-Site": "same-site" }, { "Sec-Fetch-Site": "none" }])(
    "is null without an Origin otherwise (%o)",
    (headers) => {
      expect(requestOrigin(request(headers))).toBeNull();
    },
  );
});

import { describe, expect, test } from "vitest";
import { fillPlaceholders } from "./placeholders";

const values = { visitorName: "Vera Visitor", agentName: "Andy Agent", siteName: "Acme Shop" };

describe("a saved reply's placeholders, filled in the composer", () => {
  test("the visitor's, the agent's and the site's names are filled in, as often as they appear", () => {
    expect(fillPlaceholders("Hi {{visitor.name}}, I'm {{agent.name}} from {{site.name}}. {{visitor.name}}?", values)).toBe(
      "Hi Vera Visitor, I'm Andy Agent from Acme Shop. Vera Visitor?",
    );
  });

  test("a visitor without a name takes the fallback, else nothing; a name that is there ignores the fallback", () => {
    expect(fillPlaceholders("Hi {{visitor.name|there}}!", { ...values, visitorName: null })).toBe("Hi there!");
    expect(fillPlaceholders("Hi {{visitor.name|there}}!", { ...values, visitorName: "   " })).toBe("Hi there!");
    expect(fillPlaceholders("Hi {{visitor.name}}!", { ...values, visitorName: null })).toBe("Hi !");
    expect(fillPlaceholders("Hi {{visitor.name|there}}!", values)).toBe("Hi Vera Visitor!");
    expect(fillPlaceholders("Hi {{ visitor.name | dear customer }}!", { ...values, visitorName: null })).toBe("Hi dear customer!");
    expect(fillPlaceholders("Hi {{visitor.name|}}!", { ...values, visitorName: null })).toBe("Hi !");
  });

  test("anything else in braces stays as typed", () => {
    const body = "{{visitor.email}} {{ticket.number}} {visitor.name} {{visitor.name {{x}}";
    expect(fillPlaceholders(body, values)).toBe(body);
  });

  test("a filled value is never read as a placeholder again", () => {
    expect(fillPlaceholders("{{visitor.name}} / {{agent.name}}", { ...values, visitorName: "{{agent.name}}" })).toBe("{{agent.name}} / Andy Agent");
  });
});

import { describe, expect, test } from "vitest";
import { LABEL_PALETTE, nextLabelColor } from "../../app/inbox/_components/settings/label-palette";
import { plural } from "../../app/inbox/_components/shared/plural";
import { actorInWords, detailsInWords } from "../../app/inbox/_components/settings/audit-wording";

describe("new labels get distinct colours", () => {
  test("the first colour no label has yet, whatever its case", () => {
    expect(nextLabelColor([])).toBe(LABEL_PALETTE[0]);
    expect(nextLabelColor([LABEL_PALETTE[0].toUpperCase()])).toBe(LABEL_PALETTE[1]);
    expect(nextLabelColor([LABEL_PALETTE[1], "#123456"])).toBe(LABEL_PALETTE[0]);
  });
  test("ten labels in a row get ten different colours, then the palette comes round again", () => {
    const used: string[] = [];
    for (let i = 0; i < LABEL_PALETTE.length; i++) used.push(nextLabelColor(used));
    expect(new Set(used).size).toBe(LABEL_PALETTE.length);
    expect(nextLabelColor(used)).toBe(LABEL_PALETTE[0]);
  });
});

test("counts take the singular for one and the plural otherwise", () => {
  expect(plural(1, "conversation")).toBe("1 conversation");
  expect(plural(0, "conversation")).toBe("0 conversations");
  expect(plural(2, "reply", "replies")).toBe("2 replies");
});

describe("the audit log in words", () => {
  test("a member is shown by name, the operator and anonymous in words, an unknown member by id", () => {
    const names = new Map([["olivia-owner-839c5bc7", "Olivia Owner"]]);
    expect(actorInWords("member:olivia-owner-839c5bc7", names)).toBe("Olivia Owner");
    expect(actorInWords("operator", names)).toBe("Operator (API token)");
    expect(actorInWords("anonymous", names)).toBe("Someone not signed in");
    expect(actorInWords("member:gone", names)).toBe("Member gone");
  });
  test("details read as a summary, not JSON", () => {
    expect(detailsInWords({ fields: ["name", "role"], role: "owner" })).toBe("Fields: name, role · Role: owner");
    expect(detailsInWords({ emailed: false, counts: { conversations: 1 } })).toBe("Emailed: no · Counts: conversations 1");
    expect(detailsInWords({})).toBe("");
  });
});

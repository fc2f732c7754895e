// @vitest-environment happy-dom
import { expect, test } from "vitest";
import { renderText } from "../../widget/src/panel/markdown";

const render = (text: string) => renderText(text, document.createElement("div"));

test("links, bold, italic and code become elements; everything else stays text", () => {
  const el = render("See **this** and _that_ at https://example.com/a, or `npm i`.");
  expect(el.querySelector("strong")?.textContent).toBe("this");
  expect(el.querySelector("em")?.textContent).toBe("that");
  expect(el.querySelector("code")?.textContent).toBe("npm i");
  const link = el.querySelector("a")!;
  expect(link.getAttribute("href")).toBe("https://example.com/a");
  expect(link.rel).toBe("noopener noreferrer nofollow");
  expect(el.textContent).toBe("See this and that at https://example.com/a, or npm i.");
});

test("markup in a message is text, never elements", () => {
  const el = render('<img src=x onerror="alert(1)"> **<b>x</b>**');
  expect(el.querySelector("img")).toBeNull();
  expect(el.querySelector("b")).toBeNull();
  expect(el.textContent).toBe('<img src=x onerror="alert(1)"> <b>x</b>');
});

test("snake_case and arithmetic keep their underscores and stars", () => {
  const el = render("user_id_here and 2*3*4");
  expect(el.querySelector("em")).toBeNull();
  expect(el.textContent).toBe("user_id_here and 2*3*4");
});

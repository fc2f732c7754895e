import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { renderMarkdown } from "./render-markdown";

// The one article renderer (docs/answers.md): what an article may hold renders; scripts, event
// handlers, raw HTML and javascript:/data: URLs render inert (issue 40, "Bad input"; threats.md,
// Rocket.Chat CVE-2026-47733: one URL check for links and images).

const TAGS = new Set(["p", "h2", "h3", "ul", "ol", "li", "a", "em", "strong", "code", "pre", "img", "br", "blockquote", "hr"]);
const ATTRIBUTES = new Set(["href", "rel", "src", "alt", "title", "loading", "referrerpolicy", "start"]);

/**
 * Whatever the input, every tag of the output (a text's `<` is always `&#x3C;`, so each `<` starts
 * one) is an allowed element with allowed attributes, and every URL is absolute http(s)/mailto
 * (links) or https (images).
 */
const expectInert = (html: string) => {
  for (const [, name, attributes] of html.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*)>/g)) {
    expect(TAGS.has(name!.toLowerCase()), `<${name}> in ${html}`).toBe(true);
    for (const [, attribute, value] of attributes!.matchAll(/\s([^\s=]+)="([^"]*)"/g)) {
      expect(ATTRIBUTES.has(attribute!), `${attribute} in ${html}`).toBe(true);
      if (attribute === "href") expect(value).toMatch(/^(https?:\/\/|mailto:)/);
      if (attribute === "src") expect(value).toMatch(/^https:\/\//);
    }
    expect(attributes!.replace(/\s([^\s=]+)="[^"]*"/g, "").trim(), `bare attributes in ${html}`).toBe("");
  }
  expect(html.split("<").length - 1).toBe([...html.matchAll(/<\/?[a-zA-Z0-9]+[^>]*>/g)].length);
};

describe("renderMarkdown", () => {
  test("paragraphs, ## and ### headings, lists, links, emphasis, code and https images", () => {
    const html = renderMarkdown(
      "Intro *soft* and **strong**.\n\n## Shipping\n\n### Abroad\n\n- one\n- two\n\n1. first\n\n[Track](https://track.example/x?a=1&b=2) or [mail](mailto:help@shop.example)\n\n`code` and\n\n```\nblock\n```\n\n![Box](https://cdn.example/box.png)",
    );
    expect(html).toContain("<p>Intro <em>soft</em> and <strong>strong</strong>.</p>");
    expect(html).toContain("<h2>Shipping</h2>");
    expect(html).toContain("<h3>Abroad</h3>");
    expect(html).toContain("<ul>\n<li>one</li>");
    expect(html).toContain("<ol>\n<li>first</li>");
    expect(html).toContain('<a href="https://track.example/x?a=1&#x26;b=2" rel="nofollow noopener noreferrer">Track</a>');
    expect(html).toContain('<a href="mailto:help@shop.example" rel="nofollow noopener noreferrer">mail</a>');
    expect(html).toContain("<code>code</code>");
    expect(html).toContain("<pre><code>block\n</code></pre>");
    expect(html).toContain('<img src="https://cdn.example/box.png" alt="Box" loading="lazy" referrerpolicy="no-referrer">');
  });

  test("# becomes ##, #### and below ###: an article has two heading levels under its title", () => {
    expect(renderMarkdown("# Top\n\n#### Deep")).toBe("<h2>Top</h2>\n<h3>Deep</h3>");
  });

  test("raw HTML is shown as its text, never as HTML: scripts, event handlers, iframes, styles", () => {
    const inputs = [
      "<script>alert(1)</script>",
      '<img src="https://x.example/a.png" onerror="alert(1)">',
      "Hello <b onmouseover=alert(1)>bold</b> world",
      '<iframe src="https://evil.example"></iframe>',
      '<a href="javascript:alert(1)">x</a>',
      "<svg><script>alert(1)</script></svg>",
      '<div style="background:url(javascript:alert(1))">x</div>',
      "<!-- comment --><style>body{}</style>",
    ];
    for (const input of inputs) {
      const html = renderMarkdown(input);
      expect(html).not.toMatch(/<(script|img|b|iframe|a|svg|div|style)[\s>]/i);
      expect(html).toContain("&#x3C;"); // the tag is there, as text
    }
  });

  test("links keep only absolute http(s) and mailto URLs; the rest keep their text and lose the link", () => {
    const refused = ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "jav&#x61;script:alert(1)", "data:text/html;base64,PHNjcmlwdD4=", "vbscript:msgbox", "file:///etc/passwd", "//evil.example/x", "/relative", "tel:123", " javascript:alert(1)"];
    for (const url of refused) {
      const html = renderMarkdown(`[click](${url})`);
      expect(html, url).toBe("<p>click</p>");
    }
    expect(renderMarkdown("[click](<javascript:alert(1)>)")).toBe("<p>click</p>");
    expect(renderMarkdown("[ref]\n\n[ref]: javascript:alert(1)")).toBe("<p>ref</p>");
    expect(renderMarkdown("<javascript:alert(1)>")).not.toContain("<a");
  });

  test("images keep only absolute https URLs: http, data: and javascript: images leave their alt text", () => {
    for (const url of ["http://cdn.example/a.png", "data:image/png;base64,iVBORw0KGgo=", "javascript:alert(1)", "//cdn.example/a.png", "/a.png"]) {
      expect(renderMarkdown(`![alt text](${url})`), url).toBe("<p>alt text</p>");
    }
    expect(renderMarkdown(`![x](https://a.example/a.png "t\\" onerror=\\"alert(1)")`)).toContain('title="t&#x22; onerror=&#x22;alert(1)"');
  });

  test("any input renders inert (property)", () => {
    const pieces = fc.constantFrom("<script>", "</script>", "<img src=x onerror=alert(1)>", "[a](", "](javascript:alert(1))", "![i](data:x)", "<", ">", "`", "*", "\n\n", "# ", "- ", "javascript:", "&#x61;", "\"", "'", " onload=", "<svg/onload=alert(1)>", "<style>", "text", "![x](https://a.example/i.png)", "[l](https://a.example/)", "<https://a.example>");
    fc.assert(fc.property(fc.array(pieces, { maxLength: 30 }), (parts) => expectInert(renderMarkdown(parts.join("")))));
  });
});

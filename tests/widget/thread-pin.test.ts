// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { pinToEnd } from "../../widget/src/panel/thread-pin";

// happy-dom lays nothing out: the list's sizes are set by hand, and the ResizeObserver is one the
// test calls, in the order a browser runs a frame (scroll events first, then resize observers).

let resized: (() => void)[] = [];
beforeEach(() => {
  resized = [];
  vi.stubGlobal(
    "ResizeObserver",
    class {
      constructor(private readonly callback: () => void) {}
      observe() {
        resized.push(this.callback);
      }
    },
  );
});
afterEach(() => vi.unstubAllGlobals());

/** A thread whose sizes the test sets: content height, visible height, scroll position. */
function thread(content: number, visible: number) {
  const list = document.createElement("div");
  const size = { content, visible };
  Object.defineProperty(list, "scrollHeight", { get: () => size.content });
  Object.defineProperty(list, "clientHeight", { get: () => size.visible });
  let top = 0;
  Object.defineProperty(list, "scrollTop", { get: () => top, set: (value: number) => (top = Math.max(0, Math.min(value, size.content - size.visible))) });
  return { list, size, scroll: (to: number) => ((list.scrollTop = to), list.dispatchEvent(new Event("scroll"))) };
}
const frame = () => resized.forEach((callback) => callback());
const distanceFromEnd = (list: HTMLElement) => list.scrollHeight - list.scrollTop - list.clientHeight;

test("at the end, the thread stays at its end when the close card shrinks it", () => {
  const { list, size, scroll } = thread(1000, 400);
  pinToEnd(list);
  frame();
  expect(distanceFromEnd(list)).toBe(0);
  size.visible = 250; // the card appeared under the thread
  scroll(list.scrollTop); // the browser's scroll event comes first, measured against the new layout
  frame();
  expect(distanceFromEnd(list)).toBe(0);
});

test("a visitor who scrolled up to read is left where they are", () => {
  const { list, size, scroll } = thread(1000, 400);
  pinToEnd(list);
  frame();
  scroll(100);
  size.visible = 250;
  frame();
  expect(list.scrollTop).toBe(100);
});

test("scrolling back to the end pins the thread again", () => {
  const { list, size, scroll } = thread(1000, 400);
  pinToEnd(list);
  frame();
  scroll(100);
  scroll(600);
  size.visible = 300;
  frame();
  expect(distanceFromEnd(list)).toBe(0);
});

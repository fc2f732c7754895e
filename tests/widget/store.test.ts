// @vitest-environment happy-dom
import { beforeEach, expect, test } from "vitest";
import { createStore } from "../../widget/src/loader/store";

beforeEach(() => localStorage.clear());

test("before consent nothing reaches the browser's storage; on consent what was kept is written", () => {
  const store = createStore(false);
  store.set("parley:s:vid", "v1");
  expect(store.get("parley:s:vid")).toBe("v1");
  expect(localStorage.getItem("parley:s:vid")).toBeNull();
  store.grant();
  expect(store.granted()).toBe(true);
  expect(localStorage.getItem("parley:s:vid")).toBe("v1");
});

test("with consent given, storage is read and written directly", () => {
  localStorage.setItem("parley:s", '{"c":"c1"}');
  const store = createStore(true);
  expect(store.get("parley:s")).toBe('{"c":"c1"}');
  store.set("parley:s", "{}");
  expect(localStorage.getItem("parley:s")).toBe("{}");
});

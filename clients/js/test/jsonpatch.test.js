import assert from "node:assert/strict";
import { test } from "node:test";
import { applyPatch } from "../src/jsonpatch.js";

test("add, replace and remove, and appends at /-", () => {
  const doc = { a: [1], b: { c: 1 } };
  const after = applyPatch(doc, [
    { op: "add", path: "/a/-", value: 2 },
    { op: "replace", path: "/b/c", value: 3 },
    { op: "add", path: "/d~1e", value: true },
    { op: "remove", path: "/a/0" },
  ]);
  assert.deepEqual(after, { a: [2], b: { c: 3 }, "d/e": true });
  assert.deepEqual(doc, { a: [1], b: { c: 1 } }, "the document patched is not changed");
});

test("a patch that does not apply throws, and the root can be replaced", () => {
  assert.throws(() => applyPatch({ a: [] }, [{ op: "replace", path: "/a/3", value: 1 }]));
  assert.throws(() => applyPatch({}, [{ op: "add", path: "/x/y", value: 1 }]));
  assert.deepEqual(applyPatch({ a: 1 }, [{ op: "replace", path: "", value: { b: 2 } }]), { b: 2 });
});

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import * as client from "../src/index.js";

test("index.d.ts declares every export of the package", () => {
  const types = readFileSync(new URL("../index.d.ts", import.meta.url), "utf8");
  const declared = new Set([...types.matchAll(/^export (?:declare )?(?:function|const|class) (\w+)/gm)].map((m) => m[1]));
  assert.deepEqual(Object.keys(client).filter((name) => !declared.has(name)), []);
});

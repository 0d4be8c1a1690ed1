// The JavaScript client's functions, called by the Python tests (tests/clients/node.py): a JSON
// line in ({call, args}), a JSON line out ({value} or {error}).
import { createInterface } from "node:readline";
import * as client from "../../clients/js/src/index.js";

const calls = {
  // Apply each frame in turn to `tiles` (table -> tile); the tiles after each.
  applyFrames(tiles, frames) {
    const held = new Map(Object.entries(tiles));
    return frames.map((frame) => {
      client.applyFrame(held, frame);
      return Object.fromEntries(held);
    });
  },
  // What the client's frame check says of each frame (null: a frame).
  frameProblems: (frames) => frames.map((frame) => client.frameProblem(frame)),
  tileCells: (road) => client.tileCells(road),
  documentCells: (doc, road) => client.documentCells(doc, road),
  cancelledMarks: (beads, voidRounds) => client.cancelledMarks(beads, voidRounds),
  roadSvg: (road, drawn, options) => client.roadSvg(road, drawn, options),
};

for await (const line of createInterface({ input: process.stdin })) {
  const { call, args } = JSON.parse(line);
  let answer;
  try {
    answer = { value: calls[call](...args) };
  } catch (error) {
    answer = { error: String(error?.stack ?? error) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}

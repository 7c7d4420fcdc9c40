import { describe, expect, it } from "vitest";
import { DueQueue } from "../../src/simulator/due-queue.js";

function drain<K>(queue: DueQueue<K>, nowMs: number): K[] {
  const taken: K[] = [];
  for (let key = queue.takeDue(nowMs); key !== undefined; key = queue.takeDue(nowMs)) taken.push(key);
  return taken;
}

describe("DueQueue", () => {
  it("hands out keys due by now in due order, ties in scheduling order, and keeps later ones", () => {
    const queue = new DueQueue<string>();
    queue.schedule("c", 30);
    queue.schedule("a", 10);
    queue.schedule("b", 10);
    queue.schedule("late", 100);
    expect(drain(queue, 30)).toEqual(["a", "b", "c"]);
    expect(queue.size).toBe(1);
    expect(queue.dueAt("late")).toBe(100);
    expect(drain(queue, 99)).toEqual([]);
    expect(drain(queue, 100)).toEqual(["late"]);
  });

  it("replaces an earlier schedule of the same key and forgets cancelled or never-due keys", () => {
    const queue = new DueQueue<string>();
    queue.schedule("x", 5);
    queue.schedule("x", 50);
    queue.schedule("y", 5);
    queue.cancel("y");
    queue.schedule("z", Number.POSITIVE_INFINITY);
    expect(drain(queue, 10)).toEqual([]);
    expect(queue.keys()).toEqual(["x"]);
    expect(drain(queue, 50)).toEqual(["x"]);
  });

  it("stays correct across many reschedules (stale entries are compacted away)", () => {
    const queue = new DueQueue<number>();
    for (let round = 0; round < 50; round += 1) {
      for (let key = 0; key < 100; key += 1) queue.schedule(key, 1_000 - key + round);
    }
    const order = drain(queue, 2_000);
    expect(order).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));
    expect(queue.size).toBe(0);
  });
});

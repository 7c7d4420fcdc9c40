import { describe, expect, it } from "vitest";
import { compareKeys, keyOf, versionOf } from "../../src/simulator/resources/list-order.js";
import { OrderedIndex } from "../../src/simulator/resources/ordered-index.js";
import { ResourceStore } from "../../src/simulator/resources/store.js";

interface Item {
  readonly key: number;
  readonly n: number;
}
const byKey = (a: Item, b: Item) => a.key - b.key;

describe("OrderedIndex", () => {
  it("keeps values in comparator order (ties in the order they came) through adds and removes", () => {
    const index = new OrderedIndex<Item>(byKey);
    const model: Item[] = [];
    let state = 7;
    const next = (bound: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % bound;
    };
    for (let step = 0; step < 3_000; step += 1) {
      if (model.length > 0 && next(3) === 0) {
        const victim = model[next(model.length)] as Item;
        expect(index.remove(victim)).toBe(true);
        model.splice(model.indexOf(victim), 1);
      } else {
        const item = { key: next(200), n: step };
        index.add(item);
        const at = model.findIndex((m) => m.key > item.key);
        model.splice(at === -1 ? model.length : at, 0, item);
      }
    }
    expect([...index.after(undefined)]).toEqual(model);
    expect([...index.backwards()]).toEqual([...model].reverse());
    expect(index.size).toBe(model.length);
    expect([...index.after({ key: 100, n: -1 })]).toEqual(model.filter((m) => m.key > 100));
    expect(index.remove({ key: 5, n: -1 })).toBe(false);
  });
});

describe("ResourceStore.ordered: the index of a list order follows every write", () => {
  it("pages in the order a full sort gives, through inserts, changes of the order member and removals", () => {
    const store = new ResourceStore();
    const order = { member: "rank", id: "id" };
    const sorted = () =>
      store
        .records("thing", ["k"])
        .map((r) => r.current)
        .sort((a, b) => compareKeys(keyOf(a, order), keyOf(b, order)));
    const insert = (id: string, rank: number) => store.insert("thing", ["k"], id, { id, rank }, "");
    for (let i = 0; i < 40; i += 1) insert(`t${i}`, (i * 7) % 13);
    // the index is built on the first list, then kept by the writes after it
    expect([...store.ordered("thing", ["k"], order).after(null)]).toEqual(sorted());
    for (let i = 0; i < 40; i += 3) store.update("thing", ["k"], `t${i}`, { id: `t${i}`, rank: 20 - i }, true);
    for (let i = 1; i < 40; i += 5) store.remove("thing", ["k"], `t${i}`);
    insert("late", 5);
    const source = store.ordered("thing", ["k"], order);
    expect([...source.after(null)]).toEqual(sorted());
    expect([...source.backwards()]).toEqual(sorted().reverse());
    const middle = sorted()[10] as Record<string, unknown>;
    expect([...source.after(keyOf(middle, order))]).toEqual(sorted().slice(11));
    expect([...store.ordered("thing", ["other"], order).after(null)]).toEqual([]);
  });

  it("a record's versions are copied when read, as many as there were", () => {
    const store = new ResourceStore();
    store.insert("thing", [], "a", { id: "a", v: 1 }, "");
    const before = store.find("thing", [], "a");
    store.update("thing", [], "a", { id: "a", v: 2 }, true);
    expect(before?.versions).toEqual([{ id: "a", v: 1 }]);
    expect(store.find("thing", [], "a")?.versions).toEqual([
      { id: "a", v: 1 },
      { id: "a", v: 2 },
    ]);
    expect(versionOf(store.versionsOf("thing", [], "a") ?? [], "v", 2)).toEqual({ id: "a", v: 2 });
    expect(versionOf(store.versionsOf("thing", [], "a") ?? [], "v", 3)).toBeUndefined();
  });
});

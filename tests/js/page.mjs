// What the Node tests of the page's scripts share: the pure modules loaded, and tables written
// in the position notation (docs/RULES.md, "Position notation").
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

// static/games/*.js are the browser's files, and nothing there marks them as ES modules for
// Node (a package.json would be collected and served with them).  Node 20.19 and later guess it
// from their syntax; Debian 12's Node 18 does not.  So a copy named .mjs is imported, which
// every Node reads as a module; the pure modules import nothing, so a copy alone is whole.
export async function load(name) {
  const dir = await mkdtemp(join(tmpdir(), "addiction-js-"));
  const copy = join(dir, name.replace(/\.js$/, ".mjs"));
  await copyFile(new URL("../../static/games/" + name, import.meta.url), copy);
  try {
    return await import(pathToFileURL(copy).href);
  } finally {
    await rm(dir, { recursive: true });
  }
}

// The table of a position's text ("2S 3S ... / ..."): slot names to cards, "" for a gap (--).
export function table(text) {
  const found = {};
  text.trim().split(/\s*\/\s*/).forEach((row, r) => {
    row.split(/\s+/).forEach((token, c) => { found[r + "-" + c] = token === "--" ? "" : token; });
  });
  return found;
}

// The won table (docs/RULES.md): rows of 2 to K of one suit then a gap, or on a table of 14
// columns (Blue Moon, Red Moon) the ace first.
export function won(cols) {
  const ranks = cols === 14 ? "A23456789TJQK" : "23456789TJQK";
  return table(Array.from("SHDC", (suit) => Array.from(ranks, (rank) => rank + suit).concat(["--"]).join(" ")).join(" / "));
}

// ``start`` with the contents of each pair of slots exchanged, in order.
export function swapped(start, ...pairs) {
  const next = { ...start };
  for (const [a, b] of pairs) [next[a], next[b]] = [next[b], next[a]];
  return next;
}

// The same table with its slots listed backwards: the rule must not depend on their order.
export function backwards(start) {
  return Object.fromEntries(Object.entries(start).reverse());
}

// Reads records back with tsshogi for scripts/interop.py: one process for every file.
//
// Usage: node interop-tsshogi.mjs TSSHOGI_MODULE_PATH MANIFEST.json
// MANIFEST.json: [{"id": "...", "format": "kif|ki2|csa|jkf", "path": "...", "strip"?: true}, ...]
// With "strip", KI2 lines that hold only an inline ending (`△投了`) are removed first: a
// diagnostic of what tsshogi says once the ending is written only as the closing `まで` line.
// Prints a JSON array: [{"id", "ok", "error"?, "sfen"?, "moves"?, "ending"?}, ...], where
// `moves` is the main line in USI and `ending` the special move that closes it (tsshogi's
// SpecialMoveType value, or {"any": name} for a word tsshogi does not know).
import fs from "node:fs";
import { pathToFileURL } from "node:url";

const [modulePath, manifestPath] = process.argv.slice(2);
const ts = await import(pathToFileURL(modulePath).href);

const importers = {
  kif: ts.importKIF,
  ki2: ts.importKI2,
  csa: ts.importCSA,
  jkf: ts.importJKFString,
};

function readBack(entry) {
  let text = fs.readFileSync(entry.path, "utf-8");
  if (text.charCodeAt(0) === 0xfeff) {
    text = text.slice(1);
  }
  if (entry.strip) {
    // A line that holds one token whose text after the side mark is no square and no 同.
    const inlineEnding =
      /^[▲△▼▽☗☖][^１２３４５６７８９1-9同\s▲△▼▽☗☖][^\s▲△▼▽☗☖]*\s*$/;
    text = text
      .split(/\r?\n/)
      .filter((line) => !inlineEnding.test(line))
      .join("\n");
  }
  let record;
  try {
    record = importers[entry.format](text);
  } catch (e) {
    return { id: entry.id, ok: false, error: `exception: ${e && e.message ? e.message : e}` };
  }
  if (record instanceof Error) {
    return { id: entry.id, ok: false, error: record.message };
  }
  const moves = [];
  let ending = null;
  // The main line: `next` is always the first (main) child; alternatives hang off `branch`.
  for (let node = record.first.next; node; node = node.next) {
    if (node.move instanceof ts.Move) {
      moves.push(node.move.usi);
    } else {
      ending = node.move.type === "any" ? { any: node.move.name } : node.move.type;
      break;
    }
  }
  return { id: entry.id, ok: true, sfen: record.initialPosition.sfen, moves, ending };
}

const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf-8"));
const results = manifest.map(readBack);
process.stdout.write(JSON.stringify(results));

// A small TOML reader/writer for the mock backend only (the app itself uses
// the Rust parser). It covers what scenario files use: tables, arrays of
// tables, strings (basic, literal, multi-line), numbers with `_`, booleans,
// arrays and inline tables. Errors carry line and column.

type Val = unknown;
type Table = Record<string, Val>;

export class TomlError extends Error {
  constructor(message: string, readonly line: number, readonly column: number, readonly path: string) {
    super(`${message} at line ${line}, column ${column}`);
  }
}

export function parseToml(src: string): Table {
  const root: Table = {};
  let cur: Table = root;
  let curPath = "";
  let i = 0;
  const n = src.length;
  const pos = () => {
    const before = src.slice(0, i);
    const line = before.split("\n").length;
    return { line, column: i - before.lastIndexOf("\n") };
  };
  const fail = (msg: string, path = curPath): never => {
    const p = pos();
    throw new TomlError(msg, p.line, p.column, path);
  };
  const ws = () => { while (i < n && (src[i] === " " || src[i] === "\t")) i++; };
  const wsnl = () => {
    for (;;) {
      while (i < n && /[ \t\r\n]/.test(src[i])) i++;
      if (src[i] === "#") { while (i < n && src[i] !== "\n") i++; continue; }
      break;
    }
  };
  const eol = () => {
    ws();
    if (src[i] === "#") while (i < n && src[i] !== "\n") i++;
    if (src[i] === "\r") i++;
    if (i < n && src[i] !== "\n") fail("expected end of line");
    i++;
  };
  const key = (): string[] => {
    const parts: string[] = [];
    for (;;) {
      ws();
      if (src[i] === '"' || src[i] === "'") parts.push(str());
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(src.slice(i));
        if (!m) fail("expected a key");
        parts.push(m![0]);
        i += m![0].length;
      }
      ws();
      if (src[i] === ".") { i++; continue; }
      return parts;
    }
  };
  const str = (): string => {
    if (src.startsWith('"""', i)) {
      i += 3;
      if (src[i] === "\n") i++;
      let out = "";
      while (!src.startsWith('"""', i)) {
        if (i >= n) fail("unterminated string");
        if (src[i] === "\\") {
          if (/^\\[ \t]*\r?\n/.test(src.slice(i))) { i++; while (/[ \t\r\n]/.test(src[i])) i++; continue; }
          out += esc();
        } else out += src[i++];
      }
      i += 3;
      return out;
    }
    if (src[i] === "'") {
      const end = src.indexOf("'", i + 1);
      if (end < 0) fail("unterminated string");
      const s = src.slice(i + 1, end);
      i = end + 1;
      return s;
    }
    i++;
    let out = "";
    while (src[i] !== '"') {
      if (i >= n || src[i] === "\n") fail("unterminated string");
      out += src[i] === "\\" ? esc() : src[i++];
    }
    i++;
    return out;
  };
  const esc = (): string => {
    const c = src[i + 1];
    i += 2;
    const map: Record<string, string> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\", b: "\b", f: "\f" };
    if (c in map) return map[c];
    if (c === "u" || c === "U") {
      const len = c === "u" ? 4 : 8;
      const cp = parseInt(src.slice(i, i + len), 16);
      i += len;
      return String.fromCodePoint(cp);
    }
    return fail("bad escape");
  };
  const value = (): Val => {
    ws();
    const c = src[i];
    if (c === '"' || c === "'") return str();
    if (c === "[") {
      i++;
      const arr: Val[] = [];
      for (;;) {
        wsnl();
        if (src[i] === "]") { i++; return arr; }
        arr.push(value());
        wsnl();
        if (src[i] === ",") { i++; continue; }
        if (src[i] === "]") { i++; return arr; }
        fail("expected , or ]");
      }
    }
    if (c === "{") {
      i++;
      const t: Table = {};
      ws();
      if (src[i] === "}") { i++; return t; }
      for (;;) {
        const k = key();
        if (src[i] !== "=") fail("expected =");
        i++;
        setPath(t, k, value());
        ws();
        if (src[i] === ",") { i++; continue; }
        if (src[i] === "}") { i++; return t; }
        fail("expected , or }");
      }
    }
    if (src.startsWith("true", i)) { i += 4; return true; }
    if (src.startsWith("false", i)) { i += 5; return false; }
    const m = /^[+-]?(inf|nan|[0-9_]+(\.[0-9_]+)?([eE][+-]?[0-9_]+)?)/.exec(src.slice(i));
    if (!m) return fail("expected a value");
    const text = m[0].replace(/_/g, "");
    i += m[0].length;
    return text.endsWith("inf") ? (text.startsWith("-") ? -Infinity : Infinity) : text.endsWith("nan") ? NaN : Number(text);
  };
  const setPath = (t: Table, k: string[], v: Val) => {
    let o = t;
    for (const p of k.slice(0, -1)) {
      if (o[p] === undefined) o[p] = {};
      o = o[p] as Table;
    }
    const last = k[k.length - 1];
    if (last in o) fail(`duplicate key ${k.join(".")}`);
    o[last] = v;
  };
  const walk = (k: string[]): Table => {
    let o: Table = root;
    for (const p of k) {
      let next = o[p];
      if (next === undefined) next = o[p] = {};
      if (Array.isArray(next)) next = next[next.length - 1];
      o = next as Table;
    }
    return o;
  };
  while (true) {
    wsnl();
    if (i >= n) break;
    if (src[i] === "[") {
      const arr = src[i + 1] === "[";
      i += arr ? 2 : 1;
      const k = key();
      if (!src.startsWith(arr ? "]]" : "]", i)) fail("expected ]");
      i += arr ? 2 : 1;
      curPath = k.join(".");
      if (arr) {
        const parent = walk(k.slice(0, -1));
        const last = k[k.length - 1];
        if (parent[last] === undefined) parent[last] = [];
        const list = parent[last] as Table[];
        const t: Table = {};
        list.push(t);
        cur = t;
      } else cur = walk(k);
      eol();
      continue;
    }
    const k = key();
    if (src[i] !== "=") fail("expected =", k.join("."));
    i++;
    setPath(cur, k, value());
    eol();
  }
  return root;
}

const bare = (k: string) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));
const isTable = (v: Val): v is Table => v !== null && typeof v === "object" && !Array.isArray(v);
const isTableArray = (v: Val): v is Table[] => Array.isArray(v) && v.length > 0 && v.every(isTable);

function inline(v: Val): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : v > 0 ? "inf" : v < 0 ? "-inf" : "nan";
  if (typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(inline).join(", ")}]`;
  if (isTable(v)) return `{ ${Object.entries(v).map(([k, x]) => `${bare(k)} = ${inline(x)}`).join(", ")} }`;
  return '""';
}

export function stringifyToml(doc: Table): string {
  const out: string[] = [];
  const emit = (t: Table, path: string[]) => {
    const simple = Object.entries(t).filter(([, v]) => v !== null && v !== undefined && !isTable(v) && !isTableArray(v));
    for (const [k, v] of simple) out.push(`${bare(k)} = ${inline(v)}`);
    for (const [k, v] of Object.entries(t)) {
      if (isTable(v)) {
        out.push("", `[${[...path, k].map(bare).join(".")}]`);
        emit(v, [...path, k]);
      } else if (isTableArray(v)) {
        for (const item of v) {
          out.push("", `[[${[...path, k].map(bare).join(".")}]]`);
          emit(item, [...path, k]);
        }
      }
    }
  };
  emit(doc, []);
  return out.join("\n").trim() + "\n";
}

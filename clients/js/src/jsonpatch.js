// JSON Patch (RFC 6902) for the lobby page: applies the road patches of the live feed to the
// roads document the page holds. Dependency-free ES module, no build step.
//
// A patch comes from the network: a pointer naming __proto__, constructor or prototype is
// refused (it could reach Object.prototype and change every object of the page), and a path
// walks a document's own members only, never what an object inherits.

// The tokens no pointer may hold: applyPatch throws, and the caller reads the document afresh.
export const REFUSED_TOKENS = Object.freeze(["__proto__", "constructor", "prototype"]);
const REFUSED = new Set(REFUSED_TOKENS);

// RFC 6901: "/a/b~1c" -> ["a", "b/c"]; "" is the whole document.
function tokens(pointer) {
  if (pointer === "") return [];
  if (typeof pointer !== "string" || !pointer.startsWith("/")) throw new Error(`bad JSON Pointer: ${pointer}`);
  const parts = pointer.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
  const refused = parts.find((part) => REFUSED.has(part));
  if (refused !== undefined) throw new Error(`refused JSON Pointer token: ${refused}`);
  return parts;
}

// `node`'s own member `key` (undefined when it has none: nothing inherited is reached).
const own = (node, key) => (Object.hasOwn(node, key) ? node[key] : undefined);

function parentOf(doc, path) {
  const parts = tokens(path);
  const last = parts.pop();
  let node = doc;
  for (const part of parts) {
    node = Array.isArray(node) ? node[index(node, part, false)] : own(node, part);
    if (node === undefined || node === null || typeof node !== "object") {
      throw new Error(`no such path: ${path}`);
    }
  }
  return [node, last];
}

function index(list, token, appending) {
  if (appending && token === "-") return list.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`bad array index: ${token}`);
  const at = Number(token);
  if (at > list.length || (!appending && at === list.length)) {
    throw new Error(`array index out of range: ${token}`);
  }
  return at;
}

function get(doc, path) {
  if (path === "") return doc;
  const [parent, key] = parentOf(doc, path);
  const value = Array.isArray(parent) ? parent[index(parent, key, false)] : own(parent, key);
  if (value === undefined) throw new Error(`no such path: ${path}`);
  return value;
}

function add(doc, path, value) {
  if (path === "") return value;
  const [parent, key] = parentOf(doc, path);
  if (Array.isArray(parent)) parent.splice(index(parent, key, true), 0, value);
  else parent[key] = value;
  return doc;
}

function remove(doc, path) {
  const [parent, key] = parentOf(doc, path);
  if (Array.isArray(parent)) parent.splice(index(parent, key, false), 1);
  else if (Object.hasOwn(parent, key)) delete parent[key];
  else throw new Error(`no such path: ${path}`);
  return doc;
}

function replace(doc, path, value) {
  if (path === "") return value;
  get(doc, path); // must exist
  const [parent, key] = parentOf(doc, path);
  if (Array.isArray(parent)) parent[index(parent, key, false)] = value;
  else parent[key] = value;
  return doc;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The document after every operation of `patch`, or an Error for a patch that does not apply or
// names a refused token (the page then fetches the document afresh). `doc` itself is left as it
// was.
export function applyPatch(doc, patch) {
  let result = structuredClone(doc);
  for (const op of patch) {
    const value = op.value === undefined ? undefined : structuredClone(op.value);
    switch (op.op) {
      case "add": result = add(result, op.path, value); break;
      case "remove": result = remove(result, op.path); break;
      case "replace": result = replace(result, op.path, value); break;
      case "move": {
        const moved = get(result, op.from);
        result = add(remove(result, op.from), op.path, moved);
        break;
      }
      case "copy": result = add(result, op.path, structuredClone(get(result, op.from))); break;
      case "test":
        if (!same(get(result, op.path), op.value)) throw new Error(`test failed at ${op.path}`);
        break;
      default: throw new Error(`unknown operation: ${op.op}`);
    }
  }
  return result;
}

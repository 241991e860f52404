import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// The shape of the source tree's imports: no module reaches itself through others (a circle
// makes load order decide what a module sees, and makes a part impossible to read or move
// alone), and the core (speech/, accounts/) never imports the layers above it (http/, metrics/):
// their ports are declared in the core and implemented above. Type-only imports count as any
// other: they are what ties a file to another's declarations, and a circle of types is the
// same knot when the files are read, moved or split. A worker thread's entry point, named by
// `new URL('./x.ts', import.meta.url)`, is not an import: it loads in a module graph of its own.

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

// Statements only, so that an example in a doc comment (each line starts with `*`) is not read.
const STATIC_IMPORT = /^\s*import\s+(?:type\s+)?[\w*{$][^;]*?\bfrom\s*['"]([^'"]+)['"]/gm;
const SIDE_EFFECT_IMPORT = /^\s*import\s*['"]([^'"]+)['"]/gm;
const RE_EXPORT = /^\s*export\s+(?:type\s+)?[*{][^;]*?\bfrom\s*['"]([^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The modules `source` imports by a relative path, statically, type-only or dynamically. */
function relativeImports(source: string): string[] {
  const found = [STATIC_IMPORT, SIDE_EFFECT_IMPORT, RE_EXPORT, DYNAMIC_IMPORT].flatMap((pattern) =>
    [...source.matchAll(pattern)].map((m) => m[1] ?? ''),
  );
  return [...new Set(found.filter((specifier) => specifier.startsWith('.')))];
}

/** Every `.ts` file under `folder`, as absolute paths. */
function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** src/'s import graph: each file (relative to src/) -> the files of src/ it imports. */
function sourceGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of typeScriptFiles(SRC)) {
    const imports = relativeImports(readFileSync(file, 'utf8')).map((specifier) =>
      relative(SRC, resolve(dirname(file), specifier)),
    );
    graph.set(relative(SRC, file), imports);
  }
  return graph;
}

/**
 * The circles of `graph`: each strongly connected set of two files or more (or a file that imports
 * itself), as one path around it, first file repeated at the end.
 */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm: every file in a circle is in the same component, found in one pass.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1 || graph.get(file)?.includes(file)) components.push(component);
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return components.map((component) => pathAround(graph, new Set(component)));
}

/** A path from the first file (by name) of `component` back to itself, through the component. */
function pathAround(graph: ReadonlyMap<string, readonly string[]>, component: ReadonlySet<string>): string[] {
  const [start = ''] = [...component].sort();
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    for (const next of graph.get(at) ?? []) {
      if (!component.has(next)) continue;
      if (next === start) {
        const path: string[] = [];
        for (
          let step: string | undefined = at;
          step !== start && step !== undefined;
          step = cameFrom.get(step)
        )
          path.unshift(step);
        return [start, ...path, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, at);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

const CORE = ['speech/', 'accounts/', 'calls/'];
const ABOVE_THE_CORE = ['http/', 'metrics/'];

describe('the import graph of src/', () => {
  const graph = sourceGraph();

  it('reads every kind of import the source uses', () => {
    const source = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      'import {',
      '  c,',
      '  type C,',
      "} from './c.ts';",
      "import './d.ts';",
      "export { e } from './e.ts';",
      "export type * from './f.ts';",
      "const g = await import('./g.ts');",
      "import { z } from 'zod';",
      " * import { h } from './in-a-comment.ts';",
      "const worker = new URL('./worker.ts', import.meta.url);",
    ].join('\n');
    assert.deepEqual(relativeImports(source).sort(), [
      '../b.ts',
      './a.ts',
      './c.ts',
      './d.ts',
      './e.ts',
      './f.ts',
      './g.ts',
    ]);
    // The tree is read: a main module and the pool, with their imports resolved to files.
    assert.ok(graph.get('main.ts')?.includes('http/app.ts'));
    assert.ok(graph.get('speech/synthesize.ts')?.length);
  });

  it('finds a circle, through a type-only import too', () => {
    const knot = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['self.ts', ['self.ts']],
    ]);
    assert.deepEqual(circles(knot), [
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
      ['self.ts', 'self.ts'],
    ]);
    assert.deepEqual(
      circles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
      [],
    );
  });

  it('has no circle', () => {
    const found = circles(graph).map((path) => path.join(' -> '));
    assert.deepEqual(found, [], `import circles in src/:\n${found.join('\n')}`);
  });

  it('never imports http/ or metrics/ from speech/, accounts/ or calls/', () => {
    const upward = [...graph].flatMap(([file, imports]) =>
      CORE.some((core) => file.startsWith(core))
        ? imports
            .filter((target) => ABOVE_THE_CORE.some((above) => target.startsWith(above)))
            .map((target) => `${file} -> ${target}`)
        : [],
    );
    assert.deepEqual(upward, []);
  });
});

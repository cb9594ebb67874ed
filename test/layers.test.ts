import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** What a file imports: static imports and re-exports, and `import('…')` loaded later. */
function imports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => (m[1] ?? m[2])!);
}

/** The project's files a file imports, as paths from the root without their ending. */
function localImports(file: string): string[] {
  return imports(file)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(root, join(root, file, '..', spec)).replace(/\.(js|ts)$/, ''));
}

const withoutEnding = (file: string): string => file.replace(/\.tsx?$/, '');

// ARCHITECTURE.md: who may import whom.
const RULES: Record<string, { mayImport: string[]; noNode?: boolean }> = {
  shared: { mayImport: ['shared'], noNode: true },
  bots: { mayImport: ['shared', 'bots'] },
  server: { mayImport: ['shared', 'server', 'bots/jobs/contract', 'bots/jobs/thread-pool'] },
  'client-demo': { mayImport: ['shared', 'client-demo'], noNode: true },
};

/** Each file's imports among these files. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files.map(withoutEnding));
  return new Map(files.map((file) => [withoutEnding(file), [...new Set(localImports(file).filter((to) => known.has(to)))]]));
}

/** Every circle in a graph, each as the nodes around it, the first one again at the end. */
function circles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const found: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const to of edges.get(file) ?? []) {
      if (state.get(to) === 'open') found.push([...path.slice(path.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of edges.keys()) if (!state.has(file)) visit(file);
  return found;
}

/** Imports from these files into the paths `into` accepts, as "file → import". */
function importsInto(files: readonly string[], into: (path: string) => boolean): string[] {
  return files.flatMap((file) => localImports(file).filter(into).map((to) => `${file} → ${to}`));
}

const GAME_FOLDERS = ['bots/othello', 'bots/gomoku', 'bots/minichess'];
const under = (folder: string) => (path: string) => path === folder || path.startsWith(folder + '/');

/**
 * ARCHITECTURE.md, "Inside server/": each row's folders and top-level files, and the rows it may
 * import besides its own. Every file of server/ must be in a row.
 */
const SERVER_LAYERS: Record<string, { holds: string[]; mayImport: string[] }> = {
  base: { holds: ['config', 'log', 'metrics', 'refuse', 'ratings', 'redis'], mayImport: [] },
  store: { holds: ['store'], mayImport: ['base'] },
  owners: { holds: ['quotas', 'accounts'], mayImport: ['store', 'base'] },
  games: { holds: ['games'], mayImport: ['owners', 'store', 'base'] },
  services: { holds: ['pairing', 'admin', 'tournaments'], mayImport: ['games', 'owners', 'store', 'base'] },
  socket: { holds: ['socket'], mayImport: ['services', 'games', 'owners', 'store', 'base'] },
  edges: { holds: ['http', 'runtime'], mayImport: ['socket', 'services', 'games', 'owners', 'store', 'base'] },
  start: { holds: ['app', 'main', 'worker', 'start'], mayImport: ['edges', 'socket', 'services', 'games', 'owners', 'store', 'base'] },
};

/** The row of a path in server/ (its first part below server/), or undefined. */
function serverLayer(path: string): string | undefined {
  const first = withoutEnding(path).split('/')[1];
  return Object.keys(SERVER_LAYERS).find((layer) => SERVER_LAYERS[layer]!.holds.includes(first!));
}

describe('layers', () => {
  for (const [layer, rule] of Object.entries(RULES)) {
    it(`${layer}/ imports only ${rule.mayImport.join(', ')}${rule.noNode ? ' and nothing of Node' : ''}`, () => {
      const offences: string[] = [];
      for (const file of sources(layer)) {
        for (const spec of imports(file)) {
          if (spec.startsWith('.')) {
            const path = relative(root, join(root, file, '..', spec)).replace(/\.js$/, '');
            if (!rule.mayImport.some((allowed) => path === allowed || path.startsWith(allowed + '/'))) offences.push(`${file} → ${spec}`);
          } else if (rule.noNode && (spec.startsWith('node:') || spec === 'fs' || spec === 'path')) {
            offences.push(`${file} → ${spec}`);
          }
        }
      }
      expect(offences).toEqual([]);
    });
  }

  it('has no import circle anywhere', () => {
    const files = ['shared', 'bots', 'server', 'client-demo', 'examples'].flatMap(sources);
    expect(circles(importGraph(files)).map((c) => c.join(' → '))).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([['a', ['b']], ['b', ['c', 'd']], ['c', ['a']], ['d', []], ['e', ['a']]]);
    expect(circles(graph)).toEqual([['a', 'b', 'c', 'a']]);
    expect(circles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('bots/engine/ imports no game folder: the engine knows no game', () => {
    expect(importsInto(sources('bots/engine'), (path) => GAME_FOLDERS.some((g) => under(g)(path)))).toEqual([]);
  });

  it('nothing in bots/ outside bots/cli/ imports bots/cli/: the command line stands on the rest', () => {
    const outside = sources('bots').filter((file) => !under('bots/cli')(file));
    expect(importsInto(outside, under('bots/cli'))).toEqual([]);
  });

  it("server/'s inner layers import only the rows below them, as ARCHITECTURE.md lists them", () => {
    const offences: string[] = [];
    for (const file of sources('server')) {
      const layer = serverLayer(file);
      if (!layer) {
        offences.push(`${file}: in no row of the table`);
        continue;
      }
      for (const to of localImports(file).filter(under('server'))) {
        const target = serverLayer(to);
        if (target !== layer && !SERVER_LAYERS[layer]!.mayImport.includes(target ?? '')) offences.push(`${file} (${layer}) → ${to} (${target})`);
      }
    }
    expect(offences).toEqual([]);
  });

  it('finds the source files it checks', () => {
    expect(sources('shared').length).toBeGreaterThan(5);
  });
});

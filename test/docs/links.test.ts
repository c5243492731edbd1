/**
 * Every relative link of the docs points at something that exists: README.md,
 * docs/*.md, reference-server/README.md and examples/**\/README.md. A link
 * `[text](path)` (or an image `![alt](path)`) must name an existing file or directory,
 * and a `#anchor` into a markdown file (or within the same file) must match a heading
 * of the target under GitHub's slug rules. Links in fenced code blocks and inline code
 * are not links; http(s), mailto and other URL schemes are not checked here.
 * Also: the README's tour is exactly examples/tour.ts (which `npm run demo` runs).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The markdown files whose links are checked, relative to the repository root. */
function documentedFiles(): string[] {
  const files = ['README.md', 'reference-server/README.md'];
  for (const name of readdirSync(join(ROOT, 'docs'))) {
    if (name.endsWith('.md')) files.push(`docs/${name}`);
  }
  const examples = readdirSync(join(ROOT, 'examples'), { recursive: true, encoding: 'utf8' });
  for (const path of examples) {
    const parts = path.split(/[\\/]/);
    if (parts.includes('node_modules') || parts.includes('dist')) continue;
    if (parts.at(-1) === 'README.md') files.push(`examples/${parts.join('/')}`);
  }
  return files.filter((file) => existsSync(join(ROOT, file))).sort();
}

/** The lines of a markdown file outside fenced code blocks (``` or ~~~), with their numbers. */
function proseLines(text: string): { line: number; text: string }[] {
  const lines: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split(/\r?\n/).forEach((content, index) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(content)?.[1];
    if (fence === undefined && marker !== undefined) {
      fence = marker;
      return;
    }
    if (fence !== undefined) {
      // A fence closes with at least as many of the same character, and nothing else.
      const closing = new RegExp(`^\\s{0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
      if (closing.test(content)) fence = undefined;
      return;
    }
    lines.push({ line: index + 1, text: content });
  });
  return lines;
}

/** Inline code spans are not links: `[a](b)` in backticks is text. */
function withoutInlineCode(line: string): string {
  return line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (span) => ' '.repeat(span.length));
}

/** The targets of inline links and images, and of reference definitions `[id]: target`. */
function linkTargets(line: string): string[] {
  const text = withoutInlineCode(line);
  const targets: string[] = [];
  // `[text](target)` / `![alt](target)`; the target may be `<…>` and may carry a title.
  for (const match of text.matchAll(
    /!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)/g,
  )) {
    const raw = match[1] ?? '';
    targets.push(raw.startsWith('<') ? raw.slice(1, -1) : raw);
  }
  const definition = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(text);
  if (definition?.[1]) {
    const raw = definition[1];
    targets.push(raw.startsWith('<') ? raw.slice(1, -1) : raw);
  }
  return targets;
}

/**
 * The anchor GitHub gives a heading: its text (markdown removed) lower-cased, with
 * everything but letters, digits, `_`, `-` and spaces dropped, spaces made `-`.
 */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/[`*]/g, '') // code and emphasis markers
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a markdown file's headings (ATX `#` and setext), duplicates numbered. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  const add = (heading: string) => {
    const slug = githubSlug(heading);
    const seen = counts.get(slug) ?? 0;
    counts.set(slug, seen + 1);
    anchors.add(seen === 0 ? slug : `${slug}-${seen}`);
  };
  const lines = proseLines(readFileSync(file, 'utf8'));
  lines.forEach(({ line, text }, index) => {
    const atx = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text);
    if (atx) {
      add(atx[1] ?? '');
      return;
    }
    // Setext: a paragraph line directly followed by a line of only `=` or `-`.
    const next = lines[index + 1];
    if (next?.line !== line + 1 || text.trim() === '') return;
    if (/^\s{0,3}(=+|-+)\s*$/.test(next.text) && !/^\s{0,3}([-*+>|]|\d+[.)])/.test(text)) {
      add(text.trim());
    }
  });
  return anchors;
}

interface BrokenLink {
  file: string;
  line: number;
  link: string;
  problem: string;
}

/**
 * The repository's web address, from the SDK's package.json (`repository.url`, as
 * `git+https://…/owner/name.git`): a link to `<it>/blob/main/<path>` (or `tree`) is
 * checked like a relative link to `<path>`.
 */
const REPOSITORY = (() => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    repository: { url: string };
  };
  return manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
})();

/**
 * The READMEs the npm registry shows as the packages' pages (adis-sdk's and
 * adis-server's). The registry renders them alone, away from the repository, so a
 * relative link there leads nowhere: their links must be absolute (into the repository
 * for its files) or point at a heading of the same page.
 */
const REGISTRY_READMES = ['README.md', 'reference-server/README.md'];

/** The problems of the links of one markdown file, given its text. */
function brokenLinks(file: string, text = readFileSync(join(ROOT, file), 'utf8')): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const absolute = join(ROOT, file);
  const inRepository = new RegExp(
    `^${REPOSITORY.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(?:blob|tree)/main/`,
  );
  for (const { line, text: prose } of proseLines(text)) {
    for (const found of linkTargets(prose)) {
      // A link into the repository is checked as the file it names.
      const intoRepository = inRepository.test(found);
      const link = intoRepository ? found.replace(inRepository, '/') : found;
      // http(s), mailto and any other scheme: not a file of this repository.
      if (link === '' || /^[a-z][a-z\d+.-]*:/i.test(link) || link.startsWith('//')) continue;
      if (!intoRepository && !link.startsWith('#') && REGISTRY_READMES.includes(file)) {
        broken.push({
          file,
          line,
          link,
          problem: `relative, so broken on the npm registry's page: link to ${REPOSITORY}/blob/main/…`,
        });
        continue;
      }
      const hashAt = link.indexOf('#');
      const pathPart = hashAt === -1 ? link : link.slice(0, hashAt);
      const anchor = hashAt === -1 ? undefined : decodeURIComponent(link.slice(hashAt + 1));
      const path = decodeURIComponent(pathPart.split('?')[0] ?? '');
      const target =
        path === ''
          ? absolute
          : path.startsWith('/')
            ? join(ROOT, path)
            : resolve(dirname(absolute), path);
      const fromRoot = relative(ROOT, target).split('\\').join('/');
      // docs/api/ is generated by `npm run docs:api` (TypeDoc) and gitignored: it does
      // not exist in a fresh checkout, and TypeDoc validates its own links.
      if (fromRoot === 'docs/api' || fromRoot.startsWith('docs/api/')) continue;
      if (!existsSync(target)) {
        broken.push({ file, line, link: found, problem: `no such file or directory: ${fromRoot}` });
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (statSync(target).isDirectory() || !target.endsWith('.md')) continue;
      if (!anchorsOf(target).has(anchor.toLowerCase())) {
        broken.push({
          file,
          line,
          link: found,
          problem: `no heading with anchor #${anchor} in ${fromRoot}`,
        });
      }
    }
  }
  return broken;
}

describe('the link checker', () => {
  it('makes GitHub slugs', () => {
    expect(githubSlug('Browser calls without a key')).toBe('browser-calls-without-a-key');
    expect(githubSlug('`std:control`')).toBe('stdcontrol');
    expect(githubSlug('Data file and backups')).toBe('data-file-and-backups');
    expect(githubSlug('Curies: why `std:people` works on an `osdi:` server')).toBe(
      'curies-why-stdpeople-works-on-an-osdi-server',
    );
    expect(githubSlug('Create, update & delete_all')).toBe('create-update--delete_all');
  });

  it('finds links outside code and skips those inside it', () => {
    const text = [
      'See [a](docs/a.md#x) and ![b](img.png "title") but not `[c](c.md)`.',
      '```md',
      '[d](d.md)',
      '```',
      '[e]: <e.md>',
    ].join('\n');
    const links = proseLines(text).flatMap(({ text: line }) => linkTargets(line));
    expect(links).toEqual(['docs/a.md#x', 'img.png', 'e.md']);
  });
});

describe("the registry READMEs' links", () => {
  it('are flagged when relative, and checked as files when into the repository', () => {
    const text = [
      '# Quick start',
      '[a guide](docs/paging.md) and [a heading of the page](#quick-start)',
      `[into the repository](${REPOSITORY}/blob/main/docs/paging.md#when-paging-stops)`,
      `[a missing file](${REPOSITORY}/blob/main/docs/nothing.md)`,
      `[a missing heading](${REPOSITORY}/blob/main/docs/paging.md#nothing)`,
      `[a folder](${REPOSITORY}/tree/main/examples/signup-widget)`,
    ].join('\n');
    const problems = brokenLinks('README.md', text).map(
      ({ line, problem }) => `${line}: ${problem}`,
    );
    expect(problems).toEqual([
      `2: relative, so broken on the npm registry's page: link to ${REPOSITORY}/blob/main/…`,
      '4: no such file or directory: docs/nothing.md',
      '5: no heading with anchor #nothing in docs/paging.md',
    ]);
    // A relative link is fine in a guide, which is read in the repository.
    const relativeLink = '[Paging](paging.md#when-paging-stops)';
    expect(brokenLinks('docs/browser.md', relativeLink)).toEqual([]);
    expect(brokenLinks('reference-server/README.md', relativeLink)).toHaveLength(1);
  });

  it('name the repository of both packages', () => {
    expect(REPOSITORY).toBe('https://github.com/adis-project/adis-sdk');
    const server = JSON.parse(
      readFileSync(join(ROOT, 'reference-server/package.json'), 'utf8'),
    ) as {
      repository: { url: string; directory: string };
    };
    expect(server.repository).toEqual({
      type: 'git',
      url: `git+${REPOSITORY}.git`,
      directory: 'reference-server',
    });
  });
});

describe('relative links in the docs', () => {
  const files = documentedFiles();

  it('checks the README, the guides and the server README', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('reference-server/README.md');
    expect(files.filter((file) => file.startsWith('docs/')).length).toBeGreaterThan(5);
  });

  it.each(files)('%s links only to files and headings that exist', (file) => {
    const broken = brokenLinks(file).map(
      ({ line, link, problem }) => `${file}:${line}: (${link}): ${problem}`,
    );
    expect(broken, `broken links in ${file}:\n${broken.join('\n')}`).toEqual([]);
  });
});

describe("the README's tour", () => {
  it('is examples/tour.ts, at most 20 lines', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## A short tour'));
    const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    const tour = readFileSync(join(ROOT, 'examples/tour.ts'), 'utf8');
    expect(code).toBe(tour);
    expect(tour.trimEnd().split('\n').length).toBeLessThanOrEqual(20);
  });
});

/**
 * The public API report: every export of each entry point's built declarations (the
 * SDK's `dist/*.d.ts` and the server's `reference-server/dist/*.d.ts`, as users' editors
 * read them), with its kind and its signature as TypeScript prints it, one file per entry
 * point in `api/`. The committed reports make a change of public surface show in review.
 *
 *   npm run check:api    # after `npm run build`: fails when the surface differs from api/
 *   npm run api:update   # after `npm run build`: rewrites api/ from the build
 *
 * Why not api-extractor: its report copies each declaration's text, and the kinds'
 * declarations are inferred zod types (`personKind` alone is ~480 lines of `.d.ts`), so
 * the report would run to hundreds of kilobytes nobody reads. Here long types are cut
 * by TypeScript's own printer (as in an editor's hover), so each export stays a few lines.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** An entry point of the package: its name, its built declarations and its report. */
interface EntryPointFiles {
  readonly name: string;
  readonly declarations: string;
  readonly report: string;
}

const ENTRY_POINTS: readonly EntryPointFiles[] = [
  { name: 'adis-sdk', declarations: 'dist/index.d.ts', report: 'api/adis-sdk.api.md' },
  {
    name: 'adis-sdk/helpers',
    declarations: 'dist/helpers.d.ts',
    report: 'api/adis-sdk-helpers.api.md',
  },
  {
    name: 'adis-sdk/schema',
    declarations: 'dist/schema.d.ts',
    report: 'api/adis-sdk-schema.api.md',
  },
  {
    name: 'adis-sdk/webhooks',
    declarations: 'dist/webhooks.d.ts',
    report: 'api/adis-sdk-webhooks.api.md',
  },
  {
    name: 'adis-sdk/check',
    declarations: 'dist/check.d.ts',
    report: 'api/adis-sdk-check.api.md',
  },
  {
    name: 'adis-sdk/sync',
    declarations: 'dist/sync.d.ts',
    report: 'api/adis-sdk-sync.api.md',
  },
  {
    name: 'adis-sdk/server-kit',
    declarations: 'dist/server-kit.d.ts',
    report: 'api/adis-sdk-server-kit.api.md',
  },
  {
    name: 'adis-server',
    declarations: 'reference-server/dist/index.d.ts',
    report: 'api/adis-server.api.md',
  },
  {
    name: 'adis-server/testing',
    declarations: 'reference-server/dist/testing.d.ts',
    report: 'api/adis-server-testing.api.md',
  },
];

const root = fileURLToPath(new URL('../', import.meta.url));
const inRoot = (path: string) => `${root}${path}`;

// Types longer than this are cut (`...`) as in an editor's hover: the report is for review.
const PRINT_FLAGS = ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/**
 * The report of one entry point: a heading, then one block per export in name order.
 *
 * @example
 * ```ts
 * const text = entryPointReport(checker, file, ENTRY_POINTS[0]);
 * ```
 */
function entryPointReport(
  checker: ts.TypeChecker,
  file: ts.SourceFile,
  entry: EntryPointFiles,
): string {
  const module = checker.getSymbolAtLocation(file);
  if (!module) throw new Error(`${entry.declarations} is not a module`);
  const exports = checker
    .getExportsOfModule(module)
    .slice()
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const blocks = exports.map((symbol) => exportReport(checker, symbol));
  return [
    `# API report: \`${entry.name}\``,
    '',
    `Made by \`npm run api:update\` from \`${entry.declarations}\`; checked by \`npm run check:api\``,
    '(part of `npm test`). Do not edit by hand. Long types are cut (`...`) as in a hover.',
    '',
    `${exports.length} exports.`,
    '',
    '```ts',
    withoutCheckoutPaths(blocks.join('\n')),
    '```',
    '',
  ].join('\n');
}

/**
 * The report with a package's own path in place of where the checkout keeps it: a type
 * TypeScript cannot name prints as `import("<absolute path>/node_modules/hono/…")`,
 * which would differ on every machine.
 *
 * @example
 * ```ts
 * withoutCheckoutPaths('import("/work/node_modules/hono/dist/types").BlankSchema');
 * // 'import("hono/dist/types").BlankSchema'
 * withoutCheckoutPaths(`import("${root}dist/kind-32LOnA3T").V`); // 'import("dist/kind-32LOnA3T").V'
 * ```
 */
function withoutCheckoutPaths(report: string): string {
  // A type the declaration bundle keeps in a shared chunk is named by the chunk's
  // absolute path: the checkout's own part of it goes too.
  // TypeScript cuts a long type at a length that counts those paths, so a type it cut
  // is cut again here, shorter, at the same place in every checkout.
  return report
    .replace(/import\("[^"]*\/node_modules\/([^"]+)"\)/g, 'import("$1")')
    .replaceAll(`import("${root}`, 'import("')
    .split('\n')
    .map((line) => (line.endsWith('...') && line.length > CUT ? `${line.slice(0, CUT)}...` : line))
    .join('\n');
}

/** Where a type TypeScript cut short is cut in the report: well inside its own cut. */
const CUT = 160;

/**
 * One export: its kind, name and signature, and for a class or an interface its own
 * members, one a line.
 *
 * @example
 * ```ts
 * exportReport(checker, symbol); // 'function connect(url: string, ...): Promise<Client>'
 * ```
 */
function exportReport(checker: ts.TypeChecker, exported: ts.Symbol): string {
  const symbol =
    exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const name = exported.name;
  const lines: string[] = [];
  for (const declaration of symbol.declarations ?? []) {
    if (isInternal(declaration)) {
      internalExports.push(name);
      continue;
    }
    if (ts.isFunctionDeclaration(declaration)) {
      const signature = checker.getSignatureFromDeclaration(declaration);
      if (signature) lines.push(`function ${name}${signatureText(checker, signature)}`);
    } else if (ts.isClassDeclaration(declaration)) {
      lines.push(`class ${name}${typeParameters(declaration)}${heritage(declaration)}`);
      lines.push(...classMembers(checker, declaration));
    } else if (ts.isInterfaceDeclaration(declaration)) {
      lines.push(`interface ${name}${typeParameters(declaration)}${heritage(declaration)}`);
      lines.push(...interfaceMembers(checker, declaration));
    } else if (ts.isTypeAliasDeclaration(declaration)) {
      const type = checker.getTypeFromTypeNode(declaration.type);
      const text = checker.typeToString(
        type,
        declaration,
        PRINT_FLAGS | ts.TypeFormatFlags.InTypeAlias,
      );
      lines.push(`type ${name}${typeParameters(declaration)} = ${text}`);
    } else if (ts.isVariableDeclaration(declaration)) {
      const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
      lines.push(`const ${name}: ${checker.typeToString(type, declaration, PRINT_FLAGS)}`);
    } else if (ts.isEnumDeclaration(declaration)) {
      lines.push(`enum ${name}`);
    } else if (ts.isModuleDeclaration(declaration)) {
      lines.push(`namespace ${name}`);
    }
  }
  // A value and a type of one name (`const RuleCode` and `type RuleCode`) print both;
  // identical lines (a function's overloads printed once each) are kept apart anyway.
  return lines.length > 0 ? lines.join('\n') : `unknown ${name}`;
}

function signatureText(checker: ts.TypeChecker, signature: ts.Signature): string {
  return checker.signatureToString(signature, undefined, PRINT_FLAGS);
}

function typeParameters(
  declaration: ts.ClassDeclaration | ts.InterfaceDeclaration | ts.TypeAliasDeclaration,
): string {
  const parameters = declaration.typeParameters;
  if (!parameters) return '';
  return `<${parameters.map((parameter) => oneLine(parameter.getText())).join(', ')}>`;
}

function heritage(declaration: ts.ClassDeclaration | ts.InterfaceDeclaration): string {
  const clauses = declaration.heritageClauses ?? [];
  return clauses.map((clause) => ` ${oneLine(clause.getText())}`).join('');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Whether a declaration's TSDoc says `@internal`: left out of the report and of TypeDoc. */
function isInternal(node: ts.Node): boolean {
  return ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'internal');
}

function isHidden(member: ts.ClassElement): boolean {
  if (isInternal(member)) return true;
  if (member.name && ts.isPrivateIdentifier(member.name)) return true;
  const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
  return modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.PrivateKeyword);
}

function classMembers(checker: ts.TypeChecker, declaration: ts.ClassDeclaration): string[] {
  const lines: string[] = [];
  for (const member of declaration.members) {
    if (isHidden(member)) continue;
    const modifiers = ts.canHaveModifiers(member)
      ? (ts.getModifiers(member) ?? []).map((modifier) => `${modifier.getText()} `).join('')
      : '';
    lines.push(`  ${modifiers}${memberText(checker, member)}`);
  }
  return lines;
}

function interfaceMembers(checker: ts.TypeChecker, declaration: ts.InterfaceDeclaration): string[] {
  return declaration.members
    .filter((member) => !isInternal(member))
    .map((member) => {
      const readonly =
        ts.isPropertySignature(member) &&
        member.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ReadonlyKeyword)
          ? 'readonly '
          : '';
      return `  ${readonly}${memberText(checker, member)}`;
    });
}

function memberText(checker: ts.TypeChecker, member: ts.ClassElement | ts.TypeElement): string {
  const name = member.name ? oneLine(member.name.getText()) : '';
  const optional = 'questionToken' in member && member.questionToken ? '?' : '';
  if (
    ts.isMethodDeclaration(member) ||
    ts.isMethodSignature(member) ||
    ts.isConstructorDeclaration(member) ||
    ts.isCallSignatureDeclaration(member) ||
    ts.isConstructSignatureDeclaration(member) ||
    ts.isIndexSignatureDeclaration(member)
  ) {
    const signature = checker.getSignatureFromDeclaration(member);
    const head = ts.isConstructorDeclaration(member)
      ? 'constructor'
      : ts.isConstructSignatureDeclaration(member)
        ? 'new '
        : ts.isIndexSignatureDeclaration(member)
          ? ''
          : `${name}${optional}`;
    if (ts.isIndexSignatureDeclaration(member)) return oneLine(member.getText());
    return signature ? `${head}${signatureText(checker, signature)}` : head;
  }
  if (ts.isGetAccessorDeclaration(member) || ts.isGetAccessor(member)) {
    const signature = checker.getSignatureFromDeclaration(member);
    const type = signature ? checker.getReturnTypeOfSignature(signature) : undefined;
    return `get ${name}(): ${type ? checker.typeToString(type, member, PRINT_FLAGS) : ''}`;
  }
  if (ts.isSetAccessorDeclaration(member) || ts.isSetAccessor(member)) {
    return `set ${name}(${member.parameters.map((parameter) => oneLine(parameter.getText())).join(', ')})`;
  }
  const symbol = member.name ? checker.getSymbolAtLocation(member.name) : undefined;
  if (!symbol) return oneLine(member.getText());
  const type = checker.getTypeOfSymbolAtLocation(symbol, member);
  return `${name}${optional}: ${checker.typeToString(type, member, PRINT_FLAGS)}`;
}

/**
 * Every entry point's report, from the current build.
 *
 * @example
 * ```ts
 * for (const [entry, text] of buildReports()) console.log(entry.report, text.length);
 * ```
 */
function buildReports(): Map<EntryPointFiles, string> {
  const files = ENTRY_POINTS.map((entry) => inRoot(entry.declarations));
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  const checker = program.getTypeChecker();
  const reports = new Map<EntryPointFiles, string>();
  for (const entry of ENTRY_POINTS) {
    const file = program.getSourceFile(inRoot(entry.declarations));
    if (!file) throw new Error(`${entry.declarations} is missing: run \`npm run build\` first.`);
    reports.set(entry, entryPointReport(checker, file, entry));
  }
  return reports;
}

function readReport(path: string): string | undefined {
  try {
    return readFileSync(inRoot(path), 'utf8');
  } catch {
    return undefined;
  }
}

/** The first line where two texts differ, both sides, for the failure message. */
function firstDifference(committed: string, built: string): string {
  const a = committed.split('\n');
  const b = built.split('\n');
  for (let line = 0; line < Math.max(a.length, b.length); line++) {
    if (a[line] !== b[line]) {
      return `  line ${line + 1}\n    committed: ${a[line] ?? '(end of file)'}\n    built:     ${b[line] ?? '(end of file)'}`;
    }
  }
  return '';
}

/** Exports marked `@internal` found in an entry point: an error, they must leave it. */
const internalExports: string[] = [];

const update = process.argv.includes('--update');
let stale = 0;
for (const [entry, text] of buildReports()) {
  if (update) {
    writeFileSync(inRoot(entry.report), text);
    console.log(`wrote ${entry.report}`);
    continue;
  }
  const committed = readReport(entry.report);
  if (committed === text) continue;
  stale++;
  console.error(
    committed === undefined
      ? `${entry.report} is missing.`
      : `The public API of ${entry.name} differs from ${entry.report}:\n${firstDifference(committed, text)}`,
  );
}
if (internalExports.length > 0) {
  console.error(
    `Marked @internal but exported from an entry point: ${internalExports.join(', ')}.\n` +
      'Take them out of src/index.ts, src/helpers/index.ts or src/schema/index.ts (or drop the mark).',
  );
  process.exit(1);
}
if (stale > 0) {
  console.error(
    '\nIf the change is meant, run `npm run build && npm run api:update` and commit api/ with it\n' +
      '(a public change is a semver change: say so in CHANGELOG.md). If not, mark the export\n' +
      '`@internal` and take it out of the entry point (docs/architecture.md, "Public API").',
  );
  process.exit(1);
}
if (!update) console.log(`API reports match the build (${ENTRY_POINTS.length} entry points).`);

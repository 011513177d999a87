// ts_xrefs prints, for TypeScript files of one project, the repository files each imports
// (ts.resolveModuleName with the project's tsconfig: paths, conditions, `.js` specifiers) and
// the files that reference one of its exported top-level declarations, an anonymous default
// export and the names of a local `export { a as b }` list included (the language service's
// findReferences), as JSON lines {path, imports, dependents}.
// Usage: node ts_xrefs.js TYPESCRIPT_MODULE ROOT TSCONFIG < paths (relative to ROOT).
const fs = require("fs");
const path = require("path");
const ts = require(process.argv[2]);
const root = path.resolve(process.argv[3]);
const configPath = path.resolve(root, process.argv[4]);

const config = ts.readConfigFile(configPath, ts.sys.readFile).config;
const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configPath));
const options = { ...parsed.options, noEmit: true };
const wanted = fs.readFileSync(0, "utf8").split(/\s+/).filter(Boolean);
const files = wanted.map((p) => path.join(root, p));
const versions = new Map(files.map((f) => [f, "0"]));
const host = {
  getScriptFileNames: () => files,
  getScriptVersion: (f) => versions.get(f) || "0",
  getScriptSnapshot: (f) => (fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, "utf8")) : undefined),
  getCurrentDirectory: () => path.dirname(configPath),
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());
const inRepo = (f) => {
  const rel = path.relative(root, f);
  return rel.startsWith("..") || rel.includes("node_modules") ? null : rel.split(path.sep).join("/");
};

const exported = (node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) || []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

for (const file of files) {
  const rel = inRepo(file);
  const text = fs.readFileSync(file, "utf8");
  const imports = new Set();
  for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
    const found = ts.resolveModuleName(ref.fileName, file, options, ts.sys).resolvedModule;
    const target = found && inRepo(found.resolvedFileName);
    if (target && target !== rel) imports.add(target);
  }
  const source = service.getProgram().getSourceFile(file);
  const dependents = new Set();
  const names = [];
  for (const statement of source ? source.statements : []) {
    // an anonymous default export (`export default function () {}`, `export default {...}`)
    // has no name to ask about: its `default` keyword is asked instead
    const keyword = statement.getChildren(source).find((c) => c.kind === ts.SyntaxKind.DefaultKeyword)
      || (ts.getModifiers(statement) || []).find((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    if (ts.isExportAssignment(statement) && !statement.isExportEquals && keyword) {
      names.push(keyword);
      continue;
    }
    // a local export list (`export { bigIntType as bigint }`, no `from`): each name it exports
    if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause
        && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) names.push(element.name);
      continue;
    }
    if (!exported(statement)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name);
    } else if (statement.name) {
      names.push(statement.name);
    } else if (keyword) {
      names.push(keyword);
    }
  }
  for (const name of names) {
    for (const symbol of service.findReferences(file, name.getStart(source)) || []) {
      for (const reference of symbol.references) {
        const where = inRepo(reference.fileName);
        if (where && where !== rel) dependents.add(where);
      }
    }
  }
  process.stdout.write(JSON.stringify({ path: rel, imports: [...imports].sort(), dependents: [...dependents].sort() }) + "\n");
}

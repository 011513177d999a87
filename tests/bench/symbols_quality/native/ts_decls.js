// ts_decls prints the declarations of TypeScript/JavaScript files as JSON lines, from the
// TypeScript compiler's own parser: functions (overloads apart), classes, interfaces, enums,
// type aliases, namespaces, their members, object types' members, top-level variables (a
// function bound to one as a function) and `obj.name = function` at top level; not what a
// named function, method or variable declares inside.
// Usage: node ts_decls.js TYPESCRIPT_MODULE ROOT < paths (one path a line, relative to ROOT).
const fs = require("fs");
const path = require("path");
const ts = require(process.argv[2]);
const root = process.argv[3];

function kindOf(name) {
  if (name.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (name.endsWith(".ts") || name.endsWith(".mts") || name.endsWith(".cts")) return ts.ScriptKind.TS;
  return ts.ScriptKind.JSX; // .js/.jsx/.mjs/.cjs: JavaScript with JSX allowed
}

const EXPORTED = "(exported)";
// a function cast to its type or wrapped (`(<T>(s: T) => s) as Create`, `satisfies F`, `(function
// () {})`) is a function value too, as processors/symbols/queries/typescript.scm reads it
const unwrapped = (n) => {
  while (n && (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression(n))) {
    n = n.expression;
  }
  return n;
};
const functionValue = (n) => {
  const v = unwrapped(n);
  return !!v && (ts.isArrowFunction(v) || ts.isFunctionExpression(v));
};

function declarations(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kindOf(file));
  const out = [];
  const emit = (nameNode, node, kind_class, kind) => {
    if (!nameNode) return;
    let name = nameNode.text !== undefined ? nameNode.text : nameNode.getText(source);
    if (ts.isPrivateIdentifier(nameNode)) name = nameNode.text;
    if (ts.isComputedPropertyName(nameNode)) return;
    const start = node.getStart(source); // after leading comments; decorators included
    const line = source.getLineAndCharacterOfPosition(start).line + 1;
    out.push({ path: file, name, line, class: kind_class, kind });
  };
  // Anonymous functions are transparent (a test callback's `function App() {}` is declared
  // as much as a top-level one); what a named function, method or variable declares inside
  // is local, and so is what an object type's member declares in its own type.
  const visit = (node, local) => ts.forEachChild(node, (child) => handle(child, local));
  const members = (list, local) => list.forEach((m) => handle(m, local));
  const handle = (n, local) => {
    // a module's exported top-level declaration is marked so (the report counts those missed)
    const exported = !local && (ts.isSourceFile(n.parent) || ts.isModuleBlock(n.parent)) &&
      ts.canHaveModifiers(n) && (ts.getCombinedModifierFlags(n) & ts.ModifierFlags.Export) !== 0;
    const own = (name, kind_class, kind) => {
      if (!local) emit(name, n, kind_class, exported ? `${kind} ${EXPORTED}` : kind);
    };
    if (ts.isFunctionDeclaration(n)) {
      own(n.name, "function", n.body ? "function" : "overload");
      return visit(n, true);
    }
    if (ts.isClassDeclaration(n)) {
      own(n.name, "type", "class");
      return members(n.members, local);
    }
    if (ts.isInterfaceDeclaration(n)) {
      own(n.name, "type", "interface");
      return members(n.members, local);
    }
    if (ts.isEnumDeclaration(n)) {
      own(n.name, "type", "enum");
      return n.members.forEach((m) => { if (!local) emit(m.name, m, "field", "enum member"); });
    }
    if (ts.isTypeAliasDeclaration(n)) {
      own(n.name, "type", "type alias");
      return visit(n, local);
    }
    if (ts.isModuleDeclaration(n)) {
      if (ts.isIdentifier(n.name)) own(n.name, "type", "namespace");
      return visit(n, local);
    }
    if (ts.isMethodDeclaration(n) || ts.isGetAccessor(n) || ts.isSetAccessor(n)) {
      own(n.name, "function", "method");
      return visit(n, true);
    }
    if (ts.isConstructorDeclaration(n)) {
      if (!local) out.push({ path: file, name: "constructor",
        line: source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1,
        class: "function", kind: "constructor" });
      return visit(n, true);
    }
    if (ts.isPropertyDeclaration(n) || ts.isPropertySignature(n)) {
      own(n.name, "field", "property");
      return visit(n, true);
    }
    if (ts.isMethodSignature(n)) {
      own(n.name, "function", "method signature");
      return visit(n, true);
    }
    if (ts.isVariableStatement(n) && (ts.isSourceFile(n.parent) || ts.isModuleBlock(n.parent))) {
      for (const d of n.declarationList.declarations) {
        if (!ts.isIdentifier(d.name)) { visit(d, local); continue; }
        if (d.initializer && ts.isClassExpression(d.initializer)) {
          own(d.name, "type", "class expression");
          members(d.initializer.members, local);
          continue;
        }
        own(d.name, functionValue(d.initializer) ? "function" : "field",
            functionValue(d.initializer) ? "function value" : "variable");
        visit(d, true);
      }
      return;
    }
    if (ts.isExpressionStatement(n) && ts.isSourceFile(n.parent)) {
      const e = n.expression;
      if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
          ts.isPropertyAccessExpression(e.left) && e.right &&
          (ts.isArrowFunction(e.right) || ts.isFunctionExpression(e.right))) {
        own(e.left.name, "function", "assigned function");
        return visit(n, true);
      }
    }
    return visit(n, local);
  };
  visit(source, false);
  return out;
}

const lines = fs.readFileSync(0, "utf8").split("\n").filter(Boolean);
for (const file of lines) {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  for (const tag of declarations(file, text)) process.stdout.write(JSON.stringify(tag) + "\n");
}

/**
 * Reading a definition file with the TypeScript compiler API: find the default export's object literal and read it
 * as a document value, with `{ $code }` markers for everything that is code rather than data.
 */
import ts from "typescript";
import type { DocObject, DocValue } from "@/shared/editor/doc";

export interface LocatedDefinition {
  sourceFile: ts.SourceFile;
  /** The default export's object literal. */
  object: ts.ObjectLiteralExpression;
  /** The helper it is wrapped in (`defineAgent`), if any. */
  helper?: string;
}

export type LocateResult = { ok: true; located: LocatedDefinition } | { ok: false; reason: string };

export function parseSource(text: string, fileName = "definition.ts"): ts.SourceFile {
  return ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** Strips parentheses, `as`, `satisfies` and non-null assertions. */
export function unwrap(node: ts.Expression): ts.Expression {
  let current = node;
  for (;;) {
    if (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current)) {
      current = current.expression;
    } else if (ts.isNonNullExpression(current) || ts.isTypeAssertionExpression(current)) {
      current = current.expression;
    } else return current;
  }
}

function findConst(sf: ts.SourceFile, name: string): ts.Expression | undefined {
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const decl of statement.declarationList.declarations) {
      if (ts.isIdentifier(decl.name) && decl.name.text === name && decl.initializer) return decl.initializer;
    }
  }
  return undefined;
}

function objectOf(expr: ts.Expression, sf: ts.SourceFile, depth = 0): LocateResult {
  const e = unwrap(expr);
  if (ts.isObjectLiteralExpression(e)) return { ok: true, located: { sourceFile: sf, object: e } };
  if (ts.isCallExpression(e) && e.arguments.length === 1) {
    const callee = unwrap(e.expression);
    const arg = e.arguments[0]!;
    const inner = objectOf(arg, sf, depth + 1);
    if (inner.ok && ts.isIdentifier(callee)) inner.located.helper = callee.text;
    return inner;
  }
  if (ts.isIdentifier(e) && depth < 3) {
    const init = findConst(sf, e.text);
    if (init) return objectOf(init, sf, depth + 1);
  }
  return {
    ok: false,
    reason: `the default export is \`${e.getText(sf).slice(0, 60)}\`, not an object literal the editor can rewrite`,
  };
}

/** Locates `export default define*({...})`, `export default {...}` or `const d = ...; export default d;`. */
export function locateDefinition(sf: ts.SourceFile): LocateResult {
  for (const statement of sf.statements) {
    if (ts.isExportAssignment(statement) && !statement.isExportEquals) return objectOf(statement.expression, sf);
  }
  return { ok: false, reason: "the file has no `export default` the editor can find" };
}

/** The key of a property as a string, or undefined for computed keys the editor cannot read. */
export function propertyKey(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  return undefined;
}

/** Reads an expression as a document value; code becomes a `{ $code }` marker with its source text. */
export function readValue(node: ts.Expression, sf: ts.SourceFile): DocValue {
  const e = unwrap(node);
  const code = (): DocValue => ({ $code: node.getText(sf) });
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
  if (ts.isNumericLiteral(e)) return Number(e.text);
  if (e.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (e.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (e.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(e.operand)) {
    return -Number(e.operand.text);
  }
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = readValue(e.left, sf);
    const right = readValue(e.right, sf);
    return typeof left === "string" && typeof right === "string" ? left + right : code();
  }
  if (ts.isArrayLiteralExpression(e)) {
    if (e.elements.some((el) => ts.isSpreadElement(el) || ts.isOmittedExpression(el))) return code();
    return e.elements.map((el) => readValue(el, sf));
  }
  if (ts.isObjectLiteralExpression(e)) return readObject(e, sf) ?? code();
  return code();
}

/** Reads an object literal; undefined when it has spreads or computed keys (its key set is then unknown). */
export function readObject(obj: ts.ObjectLiteralExpression, sf: ts.SourceFile): DocObject | undefined {
  const out: DocObject = {};
  for (const prop of obj.properties) {
    if (ts.isPropertyAssignment(prop)) {
      const key = propertyKey(prop.name);
      if (key === undefined) return undefined;
      out[key] = readValue(prop.initializer, sf);
    } else if (ts.isShorthandPropertyAssignment(prop)) {
      out[prop.name.text] = { $code: prop.name.text };
    } else if (ts.isMethodDeclaration(prop) || ts.isGetAccessorDeclaration(prop) || ts.isSetAccessorDeclaration(prop)) {
      const key = propertyKey(prop.name);
      if (key === undefined) return undefined;
      out[key] = { $code: prop.getText(sf) };
    } else return undefined;
  }
  return out;
}

export type ReadDefinition =
  | { ok: true; value: DocObject; helper?: string }
  | { ok: false; reason: string; value?: undefined };

/** The definition in `text` as a document value, or why the editor cannot write this file back. */
export function readDefinitionSource(text: string): ReadDefinition {
  const sf = parseSource(text);
  const diagnostics = (sf as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  if (diagnostics.length > 0) {
    return { ok: false, reason: `the file has a syntax error: ${ts.flattenDiagnosticMessageText(diagnostics[0]!.messageText, " ")}` };
  }
  const located = locateDefinition(sf);
  if (!located.ok) return located;
  const value = readObject(located.located.object, sf);
  if (!value) return { ok: false, reason: "the default export's object uses spreads or computed keys" };
  return { ok: true, value, ...(located.located.helper ? { helper: located.located.helper } : {}) };
}

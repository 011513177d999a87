// go_decls prints the declarations of Go files as JSON lines, from Go's own parser (go/ast):
// what file level and types declare (functions and methods, types, struct fields, interface
// methods, package-level constants and variables), not what function bodies declare.
// Usage: go run go_decls.go ROOT < paths (one path a line, relative to ROOT).
package main

import (
	"bufio"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
)

type tag struct {
	Path  string `json:"path"`
	Name  string `json:"name"`
	Line  int    `json:"line"`
	Class string `json:"class"`
	Kind  string `json:"kind"`
}

func main() {
	root := os.Args[1]
	out := json.NewEncoder(os.Stdout)
	lines := bufio.NewScanner(os.Stdin)
	for lines.Scan() {
		path := lines.Text()
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, filepath.Join(root, path), nil, parser.SkipObjectResolution)
		if err != nil && file == nil {
			continue
		}
		emit := func(name *ast.Ident, class, kind string) {
			if name != nil && name.Name != "_" {
				out.Encode(tag{path, name.Name, fset.Position(name.Pos()).Line, class, kind})
			}
		}
		var members func(t ast.Expr)
		members = func(t ast.Expr) { // fields of struct types, methods of interfaces, nested too
			ast.Inspect(t, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.StructType: // what a field's own type declares is that field's
					for _, f := range n.Fields.List {
						for _, name := range f.Names {
							emit(name, "field", "field")
						}
						if len(f.Names) == 0 { // embedded: the spec names it by its type
							emit(embeddedName(f.Type), "field", "field")
						}
					}
					return false
				case *ast.InterfaceType:
					for _, f := range n.Methods.List {
						if _, ok := f.Type.(*ast.FuncType); ok {
							for _, name := range f.Names {
								emit(name, "function", "interface method")
							}
						}
					}
					return false
				}
				return true
			})
		}
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				emit(d.Name, "function", "func")
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						emit(s.Name, "type", "type")
						members(s.Type)
					case *ast.ValueSpec:
						for _, name := range s.Names {
							emit(name, "field", d.Tok.String())
						}
					}
				}
			}
		}
	}
}

// embeddedName is the name of an embedded field: its type's name, without the package, the
// `*` or the type arguments (`*Config`, `gorm.Model`, `Base[T]`).
func embeddedName(t ast.Expr) *ast.Ident {
	switch t := t.(type) {
	case *ast.Ident:
		return t
	case *ast.StarExpr:
		return embeddedName(t.X)
	case *ast.SelectorExpr:
		return t.Sel
	case *ast.IndexExpr:
		return embeddedName(t.X)
	case *ast.IndexListExpr:
		return embeddedName(t.X)
	}
	return nil
}

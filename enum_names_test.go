package readpath_test

import (
	"go/ast"
	"go/doc"
	"slices"
	"testing"
)

// Every exported enum (an integer type with constants of its own) of every
// package but the commands has a String method and a ParseX function, as
// STYLE.md's convention 9 asks, so that what a trace, a log or a config
// file shows can be read back; and MarshalText and UnmarshalText, so that
// JSON (an exporter's, a log's) writes and reads its name, not a number.
func TestExportedEnumsHaveNamesAndParsers(t *testing.T) {
	for _, dir := range packageDirs(t) {
		for _, typ := range exportedTypes(t, dir) {
			if !isEnum(typ) {
				continue
			}
			for _, m := range []string{"String", "MarshalText", "UnmarshalText"} {
				if !slices.ContainsFunc(typ.Methods, func(f *doc.Func) bool { return f.Name == m }) {
					t.Errorf("%s.%s has no %s method", dir, typ.Name, m)
				}
			}
			if !slices.ContainsFunc(typ.Funcs, func(f *doc.Func) bool { return f.Name == "Parse"+typ.Name }) {
				t.Errorf("%s.%s has no Parse%[2]s", dir, typ.Name)
			}
		}
	}
}

// isEnum reports whether typ is an integer type with constants of its own.
func isEnum(typ *doc.Type) bool {
	spec := typ.Decl.Specs[0].(*ast.TypeSpec)
	id, ok := spec.Type.(*ast.Ident)
	if !ok || len(typ.Consts) == 0 {
		return false
	}
	switch id.Name {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return true
	}
	return false
}

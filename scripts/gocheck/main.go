// Command gocheck type-checks the Go packages a patch touches, before and
// after it, with Go's own type checker (go/types), and prints the errors the
// patch adds: how codethread checks that a PR0 of a Go repository still
// compiles where the module proxy (and so `go build`) is out of reach.
//
// Every import is resolved to an empty package: a use `pkg.X` is an error
// before and after alike (and cancels out), while the errors a stub can
// cause are found as the compiler finds them: an import left unused, a
// variable declared and not used, a missing return, a type mismatch.
//
//	gocheck BASE_DIR PATCHED_DIR PKG_DIR...
//
// Each PKG_DIR is relative to both trees. Errors are compared by package
// and message (positions move with the stubs); the command prints each
// added error and exits 1 when there is one, 0 otherwise, 2 on a usage or
// read error.
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type emptyImporter struct{ pkgs map[string]*types.Package }

func (e *emptyImporter) Import(path string) (*types.Package, error) {
	if p, ok := e.pkgs[path]; ok {
		return p, nil
	}
	name := path[strings.LastIndex(path, "/")+1:]
	if i := strings.LastIndex(name, "."); i > 0 && strings.HasPrefix(name[i+1:], "v") {
		name = name[:i]
	}
	name = strings.TrimPrefix(name, "go-")
	name = strings.ReplaceAll(name, "-", "_")
	p := types.NewPackage(path, name)
	p.MarkComplete()
	e.pkgs[path] = p
	return p, nil
}

// check returns the messages of the type errors of one package directory
// (its non-test files, grouped by package clause).
func check(dir string) ([]string, error) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []string
	names := make([]string, 0, len(pkgs))
	for n := range pkgs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var files []*ast.File
		fnames := make([]string, 0)
		for f := range pkgs[n].Files {
			fnames = append(fnames, f)
		}
		sort.Strings(fnames)
		for _, f := range fnames {
			files = append(files, pkgs[n].Files[f])
		}
		conf := types.Config{
			Importer: &emptyImporter{pkgs: map[string]*types.Package{}},
			Error: func(e error) {
				if te, ok := e.(types.Error); ok {
					out = append(out, n+": "+te.Msg)
				} else {
					out = append(out, n+": "+e.Error())
				}
			},
		}
		_, _ = conf.Check(dir, fset, files, nil)
	}
	return out, nil
}

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: gocheck BASE_DIR PATCHED_DIR PKG_DIR...")
		os.Exit(2)
	}
	base, patched := os.Args[1], os.Args[2]
	added := 0
	for _, pkg := range os.Args[3:] {
		before, err := check(filepath.Join(base, pkg))
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s (base): %v\n", pkg, err)
			os.Exit(2)
		}
		after, err := check(filepath.Join(patched, pkg))
		if err != nil {
			fmt.Printf("%s: %v\n", pkg, err)
			added++
			continue
		}
		seen := map[string]int{}
		for _, m := range before {
			seen[m]++
		}
		for _, m := range after {
			if seen[m] > 0 {
				seen[m]--
				continue
			}
			fmt.Printf("%s: %s\n", pkg, m)
			added++
		}
	}
	if added > 0 {
		os.Exit(1)
	}
}

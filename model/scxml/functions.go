package scxml

import (
	"encoding/csv"
	"errors"
	"io"
	"path"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/source"
)

// readFunctions reads the <setbot:function> declarations of black-box
// functions, and their tables.
func (b *builder) readFunctions() {
	for _, el := range b.funcEls {
		b.checkAttrs(el, "name", "params", "returns", "table", "command")
		a, ok := el.attr("name")
		name := strings.TrimSpace(a.Value)
		if !ok || !isIdentName(name) {
			b.errorf(el.Start, "<setbot:function> needs a name, an identifier: name=\"f\"")
			continue
		}
		if b.m.Function(name) != nil || b.funcs[name] != nil {
			b.errorf(a.Offsets0(), "function %s declared twice: rename one", name)
			continue
		}
		f := &model.Function{Name: name, Pos: b.pos(el.Start)}
		if p, ok := el.attr("params"); ok && strings.TrimSpace(p.Value) != "" {
			for _, s := range strings.Split(p.Value, ",") {
				t, ok := b.blackBoxType(p, s)
				if !ok {
					f = nil
					break
				}
				f.Params = append(f.Params, t)
			}
		}
		r, ok := el.attr("returns")
		if !ok {
			b.errorf(el.Start, "<setbot:function name=%q> needs returns=\"TYPE\": int, decimal, bool or string", name)
			continue
		}
		t, ok := b.blackBoxType(r, r.Value)
		if f == nil || !ok {
			continue
		}
		f.Result = t
		if c, ok := el.attr("command"); ok {
			f.Command = strings.TrimSpace(c.Value)
			if f.Command == "" || path.IsAbs(f.Command) || strings.HasPrefix(path.Clean(f.Command), "..") {
				b.errorf(c.Offsets0(), "command %q: name an executable inside the repository by a relative path, e.g. command=\"./bin/%s\"", c.Value, name)
				f.Command = ""
			}
		}
		if tb, ok := el.attr("table"); ok {
			f.Table = strings.TrimSpace(tb.Value)
			b.readTable(f, tb) // reported; the function stays declared
		}
		b.m.Functions = append(b.m.Functions, f)
		if b.externals == nil {
			b.externals = make(map[string]*lower.Signature)
		}
		b.externals[name] = &lower.Signature{Params: f.Params, Result: f.Result}
	}
}

func isIdentName(s string) bool {
	if s == "" || ast.IsKeyword(s) {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// blackBoxType reads one parameter or result type of a black-box function:
// a scalar type (ranges allowed).
func (b *builder) blackBoxType(a attribute, s string) (ast.Type, bool) {
	t, err := ast.ParseType(strings.TrimSpace(s))
	if err == nil && (t.IsComposite() || t.MayBeAbsent()) {
		err = errors.New("a black-box function takes and returns ints, decimals, bools and strings")
	}
	if err != nil {
		b.errorf(a.Offsets0(), "type %q of a black-box function: %v", strings.TrimSpace(s), err)
		return ast.Type{}, false
	}
	return t, true
}

// readTable reads f's table: a CSV file, one row per line, the arguments
// then the result; lines that start with # are comments.
func (b *builder) readTable(f *model.Function, a attribute) {
	file, text := b.src(a, "table")
	if file == nil {
		return
	}
	r := csv.NewReader(strings.NewReader(text))
	r.Comment = '#'
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	at := func(line, col int) source.Pos { return file.Pos(lineOffset(text, line, col)) }
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				b.errs.Add(b.fset.Position(at(pe.Line, pe.Column)), "malformed row in the table of %s: %v", f.Name, pe.Err)
			} else {
				b.errs.Add(b.fset.Position(file.Pos(0)), "reading the table of %s: %v", f.Name, err)
			}
			return
		}
		line, col := r.FieldPos(0)
		if len(rec) != len(f.Params)+1 {
			b.errs.Add(b.fset.Position(at(line, col)), "row of %d values in the table of %s: a row holds its %d arguments, then its result", len(rec), f.Name, len(f.Params))
			continue
		}
		row := &model.Row{Pos: at(line, col)}
		for i, field := range rec {
			t := f.Result
			if i < len(f.Params) {
				t = f.Params[i]
			}
			l, c := r.FieldPos(i)
			v, err := model.ParseValue(strings.TrimSpace(field), t)
			if err != nil {
				b.errs.Add(b.fset.Position(at(l, c)), "value %q in the table of %s: %v", field, f.Name, err)
				continue
			}
			if i < len(f.Params) {
				row.In = append(row.In, v)
			} else {
				row.Out = v
			}
		}
		if row.Out != nil && len(row.In) == len(f.Params) {
			for _, prev := range f.Rows {
				if sameInputs(prev.In, row.In) {
					b.errs.Add(b.fset.Position(row.Pos), "row repeats the inputs of the row at %s in the table of %s: a function has one result per input", b.fset.Position(prev.Pos), f.Name)
				}
			}
			f.Rows = append(f.Rows, row)
		}
	}
}

func sameInputs(a, b []ast.Expr) bool {
	for i := range a {
		if !ast.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// lineOffset is the byte offset of line and column (1-based; the column
// counts bytes, as encoding/csv's) in text.
func lineOffset(text string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	return min(off+max(col-1, 0), len(text))
}

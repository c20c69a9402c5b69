package lang_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/parser"

	"github.com/setbot/setbot/model/lang/langtest"
)

// decodeAttr decodes the XML entities &amp; &lt; &gt; in raw[start:end]
// the way an XML reader does, recording the file offset of each decoded
// byte.
func decodeAttr(raw string, start, end int) (string, []int) {
	var text []byte
	var offs []int
	for i := start; i < end; {
		c, n := raw[i], 1
		for _, ent := range []struct {
			s string
			c byte
		}{{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}} {
			if strings.HasPrefix(raw[i:], ent.s) {
				c, n = ent.c, len(ent.s)
			}
		}
		text = append(text, c)
		offs = append(offs, i)
		i += n
	}
	return string(text), offs
}

// attrSnippet returns the snippet of the cond attribute in raw.
func attrSnippet(fs *source.FileSet, raw string) parser.Snippet {
	f := fs.AddFile("t.scxml", []byte(raw))
	start := strings.Index(raw, `cond="`) + len(`cond="`)
	end := start + strings.IndexByte(raw[start:], '"')
	text, offs := decodeAttr(raw, start, end)
	return parser.Snippet{File: f, Text: text, Offsets: offs}
}

func TestSnippetOffsets(t *testing.T) {
	fs := source.NewFileSet()
	raw := "<scxml>\n  <transition cond=\"a &amp;&amp; b &lt; 3\"/>\n</scxml>\n"
	src := attrSnippet(fs, raw)
	if src.Text != "a && b < 3" {
		t.Fatalf("decoded %q", src.Text)
	}
	e, errs := parser.ParseExpr(src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	and := e.(*ast.Binary)
	lss := and.Y.(*ast.Binary)
	for _, tt := range []struct {
		name string
		pos  source.Pos
		want string
	}{
		{"a", and.X.Pos(), "t.scxml:2:21"},
		{"&&", and.OpPos, "t.scxml:2:23"},
		{"b", lss.X.Pos(), "t.scxml:2:34"},
		{"<", lss.OpPos, "t.scxml:2:36"},
		{"3", lss.Y.Pos(), "t.scxml:2:41"},
	} {
		if got := fs.Position(tt.pos).String(); got != tt.want {
			t.Errorf("position of %s = %s, want %s", tt.name, got, tt.want)
		}
	}

	// An error after an entity, and one at the end of the text: one past
	// the offset of the last character, inside its entity.
	_, errs = parser.ParseExpr(attrSnippet(fs, `<t cond="a &amp;&amp; b)"/>`))
	if got, want := langtest.ErrText(errs), "t.scxml:1:24: expected end of expression, found ')'"; got != want {
		t.Errorf("error = %s, want %s", got, want)
	}
	_, errs = parser.ParseExpr(attrSnippet(fs, `<t cond="a &amp;&amp;"/>`))
	if got, want := langtest.ErrText(errs), "t.scxml:1:18: expected expression, found end of input"; got != want {
		t.Errorf("error = %s, want %s", got, want)
	}
}

func TestSnippetStart(t *testing.T) {
	fs := source.NewFileSet()
	raw := "<script>\n  x = 1\n  y = (2\n</script>\n"
	f := fs.AddFile("t.scxml", []byte(raw))
	start := strings.Index(raw, "\n") + 1
	end := strings.Index(raw, "</script>")
	src := parser.Snippet{File: f, Text: raw[start:end], Start: start}
	_, errs := parser.ParseStmts(src)
	if got, want := langtest.ErrText(errs), "t.scxml:4:1: expected ')', found end of input"; got != want {
		t.Errorf("error = %s, want %s", got, want)
	}
	if got, want := src.Pos(len(src.Text)), f.Pos(end); got != want {
		t.Errorf("end Pos = %d, want %d", got, want)
	}
}

func TestSnippetWithoutFile(t *testing.T) {
	_, errs := parser.ParseExpr(parser.Snippet{Text: "a +", Start: 10})
	if len(errs) != 1 {
		t.Fatalf("errors = %v", errs)
	}
	if got, want := errs[0].Pos, (source.Position{Offset: 13}); got != want {
		t.Errorf("position = %+v, want %+v", got, want)
	}
}

// TestNodePositions checks the position of every node kind.
func TestNodePositions(t *testing.T) {
	src := "if (a) {\n  x = -b + _event.data.p * 2\n} else while (In('S') || c ? d : true) y++\n" +
		"for (int i = 0; i < 3; i += 1) { raise e(p: 1) }\nsend f() to \"o\"\nassume(z)\n"
	fs := source.NewFileSet()
	f := fs.AddFile("t.scxml", []byte(src))
	b, errs := parser.ParseStmts(parser.NewSnippet(f, src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	ast.Inspect(b, func(n ast.Node) bool {
		if n != nil && n != ast.Node(b) {
			p := fs.Position(n.Pos())
			got = append(got, fmt.Sprintf("%T@%d:%d", n, p.Line, p.Column))
		}
		return true
	})
	want := "*ast.If@1:1 *ast.Ident@1:5 *ast.Block@1:8 *ast.Assign@2:3 *ast.Ident@2:3 " +
		"*ast.Binary@2:7 *ast.Unary@2:7 *ast.Ident@2:8 *ast.Binary@2:12 *ast.EventParam@2:12 *ast.IntLit@2:28 " +
		"*ast.Block@3:8 *ast.While@3:8 *ast.Cond@3:15 *ast.Binary@3:15 *ast.InState@3:15 *ast.Ident@3:26 " +
		"*ast.Ident@3:30 *ast.BoolLit@3:34 *ast.Block@3:40 *ast.IncDec@3:40 *ast.Ident@3:40 " +
		"*ast.For@4:1 *ast.Decl@4:6 *ast.Ident@4:10 *ast.IntLit@4:14 *ast.Binary@4:17 *ast.Ident@4:17 " +
		"*ast.IntLit@4:21 *ast.Assign@4:24 *ast.Ident@4:24 *ast.IntLit@4:29 *ast.Block@4:32 *ast.Raise@4:34 " +
		"*ast.IntLit@4:45 *ast.Send@5:1 *ast.Assume@6:1 *ast.Ident@6:8"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("positions:\n%s\nwant:\n%s", g, want)
	}
	ifs := b.Stmts[0].(*ast.If)
	asg := ifs.Then.Stmts[0].(*ast.Assign)
	for _, tt := range []struct {
		name string
		pos  source.Pos
		want string
	}{
		{"=", asg.OpPos, "2:5"},
		{"+", asg.Value.(*ast.Binary).OpPos, "2:10"},
		{"?", ifs.Else.(*ast.Block).Stmts[0].(*ast.While).Cond.(*ast.Cond).Question, "3:28"},
		{"++", ifs.Else.(*ast.Block).Stmts[0].(*ast.While).Body.Stmts[0].(*ast.IncDec).OpPos, "3:41"},
		{"p:", b.Stmts[1].(*ast.For).Body.Stmts[0].(*ast.Raise).Args[0].NamePos, "4:42"},
	} {
		p := fs.Position(tt.pos)
		if got := fmt.Sprintf("%d:%d", p.Line, p.Column); got != tt.want {
			t.Errorf("position of %s = %s, want %s", tt.name, got, tt.want)
		}
	}
}

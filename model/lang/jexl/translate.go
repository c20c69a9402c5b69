package jexl

import (
	"strings"

	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/source"
)

// A mark is what the translator wrote at a position for a row of Table
// whose meaning depends on the kinds the checker finds (Vet).
type mark int

const (
	markEmpty        mark = iota + 1 // the ! of empty(x)
	markStringLength                 // the .length of x.length()
	markListLength                   // the .length of x.size()
	markSize                         // the .length of size(x)
)

// Dialect reads the JEXL of one model. It remembers what the translation
// of its snippets left for Vet.
type Dialect struct {
	marks map[source.Pos]mark
}

// New returns the dialect for one model.
func New() *Dialect { return &Dialect{marks: make(map[source.Pos]mark)} }

// refusedOps are JEXL's operators outside the action language, longest
// first, with the row of Table that names them.
var refusedOps = []struct{ op, row string }{
	{">>>", "& | ^ ~ << >> >>>"},
	{"=~", "=~ !~ =^ !^ =$ !$"}, {"!~", "=~ !~ =^ !^ =$ !$"}, {"=^", "=~ !~ =^ !^ =$ !$"},
	{"!^", "=~ !~ =^ !^ =$ !$"}, {"=$", "=~ !~ =^ !^ =$ !$"}, {"!$", "=~ !~ =^ !^ =$ !$"},
	{"?:", "?: ??"}, {"??", "?: ??"}, {"?.", "?. ?["}, {"?[", "?. ?["},
	{"->", "-> function new"}, {"..", ".."},
	{"<<", "& | ^ ~ << >> >>>"}, {">>", "& | ^ ~ << >> >>>"},
	{"&&", ""}, {"||", ""}, {"&=", "& | ^ ~ << >> >>>"}, {"|=", "& | ^ ~ << >> >>>"}, {"^=", "& | ^ ~ << >> >>>"},
	{"&", "& | ^ ~ << >> >>>"}, {"|", "& | ^ ~ << >> >>>"}, {"^", "& | ^ ~ << >> >>>"}, {"~", "& | ^ ~ << >> >>>"},
}

// note returns the Note of the row of Table for construct.
func note(construct string) string {
	for _, r := range Table {
		if r.JEXL == construct {
			return r.Note
		}
	}
	return ""
}

// A translator rewrites one snippet.
type translator struct {
	d    *Dialect
	src  parser.Snippet
	text string
	i    int
	out  strings.Builder
	offs []int
	errs source.ErrorList
	// parens holds, for each open parenthesis, what its ')' closes: ""
	// for a parenthesis of the text, the rest of an empty( or size(.
	parens []string
	// brackets holds the open [ and { (a map literal's keys follow {).
	brackets []byte
	prev     string // the previous token's text ("" at the start)
}

// Translate reads s, JEXL text, as action-language text whose every byte
// keeps the file position of the JEXL it comes from. A construct outside
// the dialect is refused with its position; the result is then not to be
// parsed.
func (d *Dialect) Translate(s parser.Snippet) (parser.Snippet, source.ErrorList) {
	t := &translator{d: d, src: s, text: s.Text}
	for t.i < len(t.text) {
		t.token()
	}
	return parser.Snippet{File: s.File, Text: t.out.String(), Offsets: t.offs}, t.errs
}

func (t *translator) position(i int) source.Position {
	off := t.src.Offset(i)
	if t.src.File == nil {
		return source.Position{Offset: off}
	}
	return t.src.File.Position(t.src.File.Pos(off))
}

func (t *translator) pos(i int) source.Pos {
	if t.src.File == nil {
		return source.NoPos
	}
	return t.src.File.Pos(t.src.Offset(i))
}

// refuse reports the JEXL construct at text[i], naming it and its row.
func (t *translator) refuse(i int, construct, row string) {
	t.errs.Refuse(t.position(i), "JEXL's %s is outside setbot's jexl dialect: %s", construct, note(row))
}

// copy writes text[i:j] unchanged.
func (t *translator) copy(i, j int) {
	for k := i; k < j; k++ {
		t.out.WriteByte(t.text[k])
		t.offs = append(t.offs, t.src.Offset(k))
	}
}

// emit writes s in place of the token at text[i:j].
func (t *translator) emit(s string, i, j int) {
	for k := 0; k < len(s); k++ {
		at := i + min(k, max(j-i-1, 0))
		t.out.WriteString(s[k : k+1])
		t.offs = append(t.offs, t.src.Offset(at))
	}
}

// next returns the index of the next character that is not a space.
func (t *translator) next(i int) int {
	for i < len(t.text) && isSpace(t.text[i]) {
		i++
	}
	return i
}

func (t *translator) at(i int) byte {
	if i < len(t.text) {
		return t.text[i]
	}
	return 0
}

// token translates the token at t.i and moves past it.
func (t *translator) token() {
	i, c := t.i, t.text[t.i]
	switch {
	case isSpace(c):
		t.copy(i, i+1)
		t.i++
		return
	case c == '/' && t.at(i+1) == '/', c == '#' && t.at(i+1) == '#':
		t.comment(i, "\n")
		return
	case c == '/' && t.at(i+1) == '*':
		t.comment(i, "*/")
		return
	case c == '#' || c == '@':
		t.refuse(i, string(c)+"...", "#pragma @annotation")
		t.i = len(t.text)
		return
	case c == '`':
		t.refuse(i, "template string", "`...${x}`")
		t.i = len(t.text)
		return
	case c == '\'' || c == '"':
		t.str(i, c)
	case isDigit(c) || c == '.' && isDigit(t.at(i+1)):
		t.number(i)
	case isLetter(c):
		t.word(i)
	default:
		t.operator(i)
	}
	t.prev = t.text[i:t.i]
}

// comment writes a comment as spaces (line breaks kept).
func (t *translator) comment(i int, end string) {
	j := strings.Index(t.text[i+2:], end)
	if j < 0 {
		j = len(t.text)
	} else {
		j += i + 2 + len(end)
	}
	for k := i; k < j; k++ {
		if t.text[k] == '\n' {
			t.copy(k, k+1)
		} else {
			t.emit(" ", k, k+1)
		}
	}
	t.i = j
}

// str copies a string literal, refusing the escapes JEXL's versions read
// differently.
func (t *translator) str(i int, q byte) {
	j := i + 1
	for j < len(t.text) && t.text[j] != q {
		if t.text[j] == '\\' {
			if e := t.at(j + 1); e != '\\' && e != '\'' && e != '"' {
				t.refuse(j, "escape \\"+string(e), "\\n \\t \\u0041 in strings")
			}
			j++
		}
		j++
	}
	j = min(j+1, len(t.text))
	t.copy(i, j)
	t.i = j
}

// number copies a number literal, dropping the suffixes of a long and a
// double and refusing the others.
func (t *translator) number(i int) {
	j := i
	if t.text[j] == '0' && (t.at(j+1) == 'x' || t.at(j+1) == 'X' || isDigit(t.at(j+1))) {
		t.refuse(i, "number "+t.text[i:t.scanWhile(i, isIdentChar)], "1f 1b 1h 0x1F 017")
		t.i = t.scanWhile(i, isIdentChar)
		return
	}
	j = t.scanWhile(j, isDigit)
	if t.at(j) == '.' && isDigit(t.at(j+1)) {
		j = t.scanWhile(j+1, isDigit)
	}
	if (t.at(j) == 'e' || t.at(j) == 'E') && (isDigit(t.at(j+1)) || (t.at(j+1) == '+' || t.at(j+1) == '-') && isDigit(t.at(j+2))) {
		j = t.scanWhile(j+2, isDigit)
	}
	t.copy(i, j)
	switch t.at(j) {
	case 'l', 'L', 'd', 'D':
		t.i = j + 1
	case 'f', 'F', 'b', 'B', 'h', 'H':
		t.refuse(i, "number "+t.text[i:j+1], "1f 1b 1h 0x1F 017")
		t.i = j + 1
	default:
		t.i = j
	}
}

func (t *translator) scanWhile(i int, ok func(byte) bool) int {
	for i < len(t.text) && ok(t.text[i]) {
		i++
	}
	return i
}

// word translates an identifier, a keyword or a word operator.
func (t *translator) word(i int) {
	j := t.scanWhile(i, isIdentChar)
	w := t.text[i:j]
	t.i = j
	if t.prev == "." {
		t.member(i, j, w)
		return
	}
	k := t.next(j)
	switch {
	case words[w] != "":
		t.emit(words[w], i, j)
	case (w == "empty" || w == "size") && t.at(k) == '(':
		t.function(i, k, w)
	case w == "new" || w == "function":
		t.refuse(i, w, "-> function new")
	case t.at(j) == ':' && isLetter(t.at(j+1)) && t.at(t.next(t.scanWhile(j+1, isIdentChar))) == '(':
		t.refuse(i, "namespace function "+w+":", "ns:f(x)")
	case t.at(k) == ':' && (t.prev == "{" || t.prev == ",") && len(t.brackets) > 0 && t.brackets[len(t.brackets)-1] == '{':
		t.refuse(i, "map key "+w, "{a: 1}")
	default:
		t.copy(i, j)
	}
}

// function writes empty(x) as (!(x)) and size(x) as ((x).length); k is
// the index of the '('.
func (t *translator) function(i, k int, w string) {
	if w == "empty" {
		t.emit("(!(", i, i+1)
		t.d.marks[t.pos(i)] = markEmpty
		t.parens = append(t.parens, "))")
	} else {
		t.emit("((", i, i+1)
		t.parens = append(t.parens, ").length)")
	}
	t.i = k + 1
}

// member translates the name after a '.': a field, or a method of a Java
// object, which the table maps or refuses.
func (t *translator) member(i, j int, w string) {
	k := t.next(j)
	dot := strings.LastIndexByte(t.text[:i], '.')
	if t.at(k) != '(' {
		if w == "length" {
			t.refuse(i, "x.length", "x.length")
		}
		t.copy(i, j)
		return
	}
	switch w {
	case "length", "size":
		if r := t.next(k + 1); t.at(r) == ')' {
			t.emit("length", i, j)
			m := markStringLength
			if w == "size" {
				m = markListLength
			}
			t.d.marks[t.pos(dot)] = m
			t.i = r + 1
			return
		}
	case "contains":
		t.emit("includes", i, j)
		return
	case "startsWith", "endsWith", "indexOf":
		t.copy(i, j)
		return
	}
	t.refuse(i, "method call ."+w+"()", "x.m(...)")
	if t.classBefore(dot) {
		t.errs[len(t.errs)-1].Msg = "JEXL's call of a Java class's method ." + w + "() is outside setbot's jexl dialect: " + note("System.currentTimeMillis()")
	}
	t.copy(i, j)
}

// classBefore reports whether the name before the '.' at dot starts with
// a capital letter: a Java class, as System in System.currentTimeMillis().
func (t *translator) classBefore(dot int) bool {
	j := dot
	for j > 0 && isIdentChar(t.text[j-1]) {
		j--
	}
	return j < dot && 'A' <= t.text[j] && t.text[j] <= 'Z'
}

// operator translates an operator or punctuation.
func (t *translator) operator(i int) {
	rest := t.text[i:]
	for _, r := range refusedOps {
		if strings.HasPrefix(rest, r.op) {
			if r.row == "" { // && and || are the action language's
				t.copy(i, i+2)
				t.i = i + 2
				return
			}
			t.refuse(i, "operator "+r.op, r.row)
			t.emit(strings.Repeat(" ", len(r.op)), i, i+len(r.op))
			t.i = i + len(r.op)
			return
		}
	}
	switch c := t.text[i]; c {
	case '[', '{':
		t.brackets = append(t.brackets, c)
	case ']', '}':
		t.brackets = t.brackets[:max(len(t.brackets)-1, 0)]
	case '(':
		t.parens = append(t.parens, "")
	case ')':
		if n := len(t.parens); n > 0 {
			close := t.parens[n-1]
			t.parens = t.parens[:n-1]
			if close != "" {
				if close != "))" {
					t.d.marks[t.pos(i)] = markSize
				}
				t.emit(close, i, i+1)
				t.i = i + 1
				return
			}
		}
	}
	t.copy(i, i+1)
	t.i = i + 1
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isLetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '$'
}
func isIdentChar(c byte) bool { return isLetter(c) || isDigit(c) }

package source

import "testing"

func TestPositions(t *testing.T) {
	fs := NewFileSet()
	a := fs.AddFile("a.scxml", []byte("ab\ncd\n"))
	b := fs.AddFile("b.scxml", []byte("x\n\nyz"))
	for _, tc := range []struct {
		pos  Pos
		want string
	}{
		{a.Pos(0), "a.scxml:1:1"},
		{a.Pos(4), "a.scxml:2:2"},
		{a.Pos(6), "a.scxml:3:1"}, // the end of the file
		{b.Pos(3), "b.scxml:3:1"},
		{b.Pos(4), "b.scxml:3:2"},
		{NoPos, "-"},
	} {
		if got := fs.Position(tc.pos).String(); got != tc.want {
			t.Errorf("Position(%d) = %s, want %s", tc.pos, got, tc.want)
		}
	}
	if fs.File(b.Pos(1)) != b || fs.File(a.Pos(2)) != a {
		t.Error("File does not find the file of a position")
	}
}

func TestErrorListSortsAndDedups(t *testing.T) {
	var l ErrorList
	l.Add(Position{Filename: "b", Line: 1, Column: 1}, "late")
	l.Add(Position{Filename: "a", Line: 2, Column: 5}, "second")
	l.Add(Position{Filename: "a", Line: 2, Column: 1}, "first")
	l.Add(Position{Filename: "a", Line: 2, Column: 5}, "second")
	l.Sort()
	want := "a:2:1: first\na:2:5: second\nb:1:1: late"
	if l.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", l.Error(), want)
	}
	if (ErrorList{}).Err() != nil || l.Err() == nil {
		t.Error("Err must be nil exactly for an empty list")
	}
}

package vocab

import (
	"strings"
	"testing"
)

// TestSettings: the words of the bounds table are contracts (flags,
// .setbot.yml keys, cache-key names), so each is unique, and every row is
// complete enough for what is derived from it.
func TestSettings(t *testing.T) {
	seen := map[string]Bound{}
	for _, s := range Settings() {
		for _, w := range []string{"bound " + string(s.Bound), "flag " + s.Flag, "key " + s.Key, "cache name " + s.CacheName} {
			if b, ok := seen[w]; ok && !strings.HasSuffix(w, " ") {
				t.Errorf("%s: %s is also %s's", s.Bound, w, b)
			}
			seen[w] = s.Bound
		}
		if s.Flag == "" || s.Key == "" || s.Help == "" || s.Unit == "" {
			t.Errorf("%s: incomplete row %+v", s.Bound, s)
		}
		if (s.Stage == StageTree) != (s.CacheName != "") {
			t.Errorf("%s: a bound of the tree, and only one, has a name in the cache key: %+v", s.Bound, s)
		}
		if s.Default < s.Min || s.Ceiling < s.Default {
			t.Errorf("%s: default %d outside [%d, ceiling %d]", s.Bound, s.Default, s.Min, s.Ceiling)
		}
		if got, want := s.Bound.Setting(), "bounds."+s.Key+" in .setbot.yml, --"+s.Flag+" on the command line"; got != want {
			t.Errorf("%s: Setting() = %q, want %q", s.Bound, got, want)
		}
	}
	if got := Settings(StageModel); len(got) != 2 || got[0].Bound != BoundMLMStates || got[1].Bound != BoundMLMTransitions {
		t.Errorf("Settings(StageModel) = %+v, want the MLM states and transitions", got)
	}
	l := DefaultLimits()
	c := l.Clone()
	c[BoundDepth]++
	if l.Int(BoundDepth) != int(BoundDepth.Default()) || l.Int(BoundDepth) == c.Int(BoundDepth) {
		t.Errorf("Clone shares its map, or DefaultLimits has the wrong depth: %v %v", l, c)
	}
}
